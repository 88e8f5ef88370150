package org.jmpi.shared;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** Where a class was loaded from, by the class loader's class path. */
class CodeLocationTest {
    @Test
    void aClassOfAJarIsInThatJar() {
        Path jar = CodeLocation.of(Assertions.class);
        assertThat(jar.getFileName().toString()).startsWith("assertj-core").endsWith(".jar");
        assertThat(jar).isRegularFile();
    }

    @Test
    void aClassOfADirectoryIsAtTheRootOfItsPackageTree() {
        Path root = CodeLocation.of(CodeLocationTest.class);
        assertThat(root).isDirectory();
        assertThat(root.resolve("org/jmpi/shared/CodeLocationTest.class")).isRegularFile();
        Path nested = CodeLocation.of(Nested.class);
        assertThat(nested).isEqualTo(root);
    }

    @Test
    void urlsWithEscapedCharactersAndOtherSchemes() throws Exception {
        String resource = "a/b/C.class";
        assertThat(CodeLocation.fromResource(url("jar:file:/opt/my%20dir/x.jar!/" + resource), resource))
                .isEqualTo(Path.of("/opt/my dir/x.jar"));
        assertThat(CodeLocation.fromResource(url("file:/opt/classes/" + resource), resource))
                .isEqualTo(Path.of("/opt/classes"));
        // a jar that is not a file, or a URL that does not end in the resource: no answer from the URL
        assertThat(CodeLocation.fromResource(url("jar:http://host/x.jar!/" + resource), resource)).isNull();
        assertThat(CodeLocation.fromResource(url("file:/opt/other/D.class"), resource)).isNull();
    }

    private static java.net.URL url(String s) throws java.net.MalformedURLException {
        return java.net.URI.create(s).toURL();
    }

    @Test
    void theJdksOwnClassesHaveNoPathButDoNotBreakIt() {
        // java.lang.String: a jrt: resource and no code source
        Assertions.assertThatThrownBy(() -> CodeLocation.of(String.class)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("java.lang.String");
        assertThat(Files.exists(CodeLocation.of(CodeLocation.class))).isTrue();
    }

    private static final class Nested {}
}
