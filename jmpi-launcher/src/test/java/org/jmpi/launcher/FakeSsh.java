package org.jmpi.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fake ssh for jobs over several "hosts" on this machine: {@code fakessh HOST COMMAND} runs COMMAND here, as ssh
 * would run it there, and records the proxy's pid in {@code proxy-HOST.pid}, so that the whole front end / proxy
 * protocol runs as across real hosts and tests can find (and kill) each host's proxy.
 */
final class FakeSsh {
    private final Path dir;
    private final Path script;

    /** Writes the script into {@code dir} (a test's temporary directory). */
    FakeSsh(Path dir) throws IOException {
        this.dir = dir;
        this.script = dir.resolve("fakessh");
        Files.writeString(script, "#!/bin/sh\nhost=\"$1\"; shift\necho $$ > '" + dir + "'/proxy-$host.pid\n"
                + "exec sh -c \"$1\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The launch agent that uses it. */
    LaunchAgent agent() {
        return new LaunchAgent(LaunchAgent.Kind.SSH, List.of(script.toString()), List.of());
    }

    /** The pid of {@code host}'s proxy. */
    long proxyPid(String host) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("proxy-" + host + ".pid")).trim());
    }

    /** The pids of every proxy started so far. */
    List<Long> proxyPids() throws IOException {
        List<Long> out = new ArrayList<>();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("proxy-")).toList()) {
                out.add(Long.parseLong(Files.readString(f).trim()));
            }
        }
        return out;
    }

    /** The pids that ranks printed as {@code pid N} in their output lines. */
    static List<Long> printedPids(Collection<String> lines) {
        List<Long> out = new ArrayList<>();
        Pattern p = Pattern.compile("pid (\\d+)");
        for (String l : lines) {
            Matcher m = p.matcher(l);
            if (m.find()) {
                out.add(Long.parseLong(m.group(1)));
            }
        }
        return out;
    }
}
