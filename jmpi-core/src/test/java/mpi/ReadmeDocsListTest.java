package mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** README.md's "Documentation" list names every page of {@code docs/} (its top-level {@code .md} files). */
class ReadmeDocsListTest {

    @Test
    void theDocumentationListNamesEveryPage() throws Exception {
        Path root = ProjectDir.get();
        String readme = Files.readString(root.resolve("README.md"));
        int start = readme.indexOf("\n## Documentation\n");
        assertThat(start).as("README.md has a Documentation section").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        String list = readme.substring(start, end < 0 ? readme.length() : end);
        List<String> pages;
        try (Stream<Path> s = Files.list(root.resolve("docs"))) {
            pages = s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md"))
                    .sorted().toList();
        }
        assertThat(pages).isNotEmpty();
        for (String page : pages) {
            assertThat(list).as("README.md's Documentation list names docs/" + page)
                    .contains("- `docs/" + page + "` — ");
        }
    }
}
