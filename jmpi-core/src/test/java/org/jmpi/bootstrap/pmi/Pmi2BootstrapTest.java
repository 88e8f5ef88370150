package org.jmpi.bootstrap.pmi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PMI-2 client over an inherited descriptor against the exchanges of launch-integration.md section 2.2: Slurm's
 * dialect (left-justified lengths, rc first) and Hydra's (right-justified, rc last).
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class Pmi2BootstrapTest {
    @SuppressWarnings("restricted")
    private static int[] socketpair() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle sp = linker.downcallHandle(linker.defaultLookup().find("socketpair").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(JAVA_INT, 2);
            int rc = (int) sp.invokeExact(1 /* AF_UNIX */, 1 /* SOCK_STREAM */, 0, fds);
            assertThat(rc).as("socketpair").isZero();
            return new int[] {fds.getAtIndex(JAVA_INT, 0), fds.getAtIndex(JAVA_INT, 1)};
        }
    }

    /**
     * Steps: {@code "L-> line"} / {@code "L<- line"} for the PMI-1 style first exchange; {@code "F-> body"} is a frame
     * the client must send (header checked too), {@code "F<- raw"} is sent as is (length header included).
     */
    private static Thread serve(int fd, List<String> steps, List<String> problems) {
        return Thread.ofPlatform().daemon().start(() -> {
            try (FdLineChannel ch = new FdLineChannel(fd)) {
                int i = 0;
                for (String step : steps) {
                    i++;
                    String what = step.substring(4);
                    switch (step.substring(0, 4)) {
                        case "L-> " -> {
                            String got = ch.readLine();
                            if (!what.equals(got)) {
                                problems.add("step " + i + ": expected '" + what + "', got '" + got + "'");
                                return;
                            }
                        }
                        case "L<- " -> ch.writeLine(what);
                        case "F-> " -> {
                            String header = new String(ch.readExactly(6), StandardCharsets.US_ASCII);
                            String want = String.format("%-6d", what.length());
                            String body = new String(ch.readExactly(Integer.parseInt(header.trim())),
                                    StandardCharsets.US_ASCII);
                            if (!header.equals(want) || !body.equals(what)) {
                                problems.add("step " + i + ": expected '" + want + what + "', got '" + header + body
                                        + "'");
                                return;
                            }
                        }
                        case "F<- " -> ch.write(what.getBytes(StandardCharsets.US_ASCII));
                        default -> throw new IllegalArgumentException(step);
                    }
                }
                if (ch.readLine() != null) {
                    problems.add("the client sent more than the transcript");
                }
            } catch (Exception e) {
                problems.add("server failed: " + e);
            }
        });
    }

    @Test
    void followsSlurmsPmi2Exchange() throws Throwable {
        int[] fds = socketpair();
        List<String> problems = new CopyOnWriteArrayList<>();
        Thread server = serve(fds[1], List.of(
                "L-> cmd=init pmi_version=2 pmi_subversion=0",
                "L<- cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0",
                "F-> cmd=fullinit;pmijobid=23.0;pmirank=3;threaded=FALSE;",
                "F<- 114   cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=3;size=4;appnum=-1;"
                        + "debugged=FALSE;pmiverbose=FALSE;",
                "F-> cmd=job-getid;",
                "F<- 39    cmd=job-getid-response;rc=0;jobid=23.0;",
                "F-> cmd=info-getjobattr;key=PMI_process_mapping;",
                "F<- 68    cmd=info-getjobattr-response;rc=0;found=TRUE;value=(vector,(0,2,2));",
                "F-> cmd=kvs-put;key=bc-3;value=tcp://10.0.0.4:4000;",
                "F<- 26    cmd=kvs-put-response;rc=0;",
                "F-> cmd=kvs-fence;",
                "F<- 28    cmd=kvs-fence-response;rc=0;",
                "F-> cmd=kvs-get;jobid=23.0;srcid=-1;key=bc-0;",
                "F<- 63    cmd=kvs-get-response;rc=0;found=TRUE;value=tcp://10.0.0.1:4000;",
                "F-> cmd=kvs-get;jobid=23.0;srcid=-1;key=missing;",
                "F<- 38    cmd=kvs-get-response;rc=0;found=FALSE;",
                "F-> cmd=finalize;",
                "F<- 27    cmd=finalize-response;rc=0;"), problems);
        Pmi2Bootstrap pmi = Pmi2Bootstrap.fromEnvironment(Map.of("PMI_FD", Integer.toString(fds[0]), "PMI_RANK", "3",
                "PMI_JOBID", "23.0"));
        assertThat(pmi.rank()).isEqualTo(3);
        assertThat(pmi.size()).isEqualTo(4);
        assertThat(pmi.pmiJobId()).isEqualTo("23.0");
        assertThat(pmi.processMapping()).isEqualTo("(vector,(0,2,2))");
        pmi.put("bc-3", "tcp://10.0.0.4:4000");
        pmi.fence();
        assertThat(pmi.get("bc-0")).isEqualTo("tcp://10.0.0.1:4000");
        assertThat(pmi.get("missing")).isNull();
        pmi.finalizeJob();
        pmi.close();
        server.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(problems).isEmpty();
    }

    @Test
    void understandsHydrasRightJustifiedDialect() throws Throwable {
        int[] fds = socketpair();
        List<String> problems = new CopyOnWriteArrayList<>();
        Thread server = serve(fds[1], List.of(
                "L-> cmd=init pmi_version=2 pmi_subversion=0",
                "L<- cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0",
                "F-> cmd=fullinit;pmirank=0;threaded=FALSE;",
                "F<-    113cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=0;size=2;appnum=0;"
                        + "debugged=FALSE;pmiverbose=FALSE;rc=0;",
                "F-> cmd=job-getid;",
                "F<-     59cmd=job-getid-response;jobid=kvs_6540_0_2090723369_vm;rc=0;",
                "F-> cmd=info-getjobattr;key=universeSize;",
                "F<-     46cmd=info-getjobattr-response;found=FALSE;rc=0;"), problems);
        Pmi2Bootstrap pmi = Pmi2Bootstrap.fromEnvironment(Map.of("PMI_FD", Integer.toString(fds[0]), "PMI_RANK",
                "0"));
        assertThat(pmi.size()).isEqualTo(2);
        assertThat(pmi.jobId()).isEqualTo("kvs_6540_0_2090723369_vm");
        assertThat(pmi.jobAttribute("universeSize")).isNull();
        pmi.close();
        server.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(problems).isEmpty();
    }

    @Test
    void aRefusedFullinitIsAClearError() throws Throwable {
        int[] fds = socketpair();
        List<String> problems = new CopyOnWriteArrayList<>();
        serve(fds[1], List.of(
                "L-> cmd=init pmi_version=2 pmi_subversion=0",
                "L<- cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0",
                "F-> cmd=fullinit;pmirank=1;threaded=FALSE;",
                "F<- 40    cmd=fullinit-response;rc=3;errmsg=pmijobid;"), problems);
        assertThatThrownBy(() -> Pmi2Bootstrap.fromEnvironment(Map.of("PMI_FD", Integer.toString(fds[0]),
                "PMI_RANK", "1"))).isInstanceOf(PmiException.class).hasMessageContaining("fullinit refused");
    }

    @Test
    void framesAndBodies() {
        Pmi2Message m = Pmi2Message.of("kvs-get", "jobid", "1.0", "key", "k");
        assertThat(new String(m.frame(), StandardCharsets.US_ASCII)).isEqualTo("28    cmd=kvs-get;jobid=1.0;key=k;");
        assertThat(Pmi2Message.parseLength("   113".getBytes(StandardCharsets.US_ASCII))).isEqualTo(113);
        assertThat(Pmi2Message.parseLength("114   ".getBytes(StandardCharsets.US_ASCII))).isEqualTo(114);
        assertThat(Pmi2Message.parseLength("12a   ".getBytes(StandardCharsets.US_ASCII))).isEqualTo(-1);
        Pmi2Message r = Pmi2Message.parse("cmd=kvs-get-response;found=TRUE;value=a=b;rc=0;");
        assertThat(r.command()).isEqualTo("kvs-get-response");
        assertThat(r.get("value")).isEqualTo("a=b");
        assertThat(r.isTrue("found")).isTrue();
        assertThat(r.rc()).isZero();
    }
}
