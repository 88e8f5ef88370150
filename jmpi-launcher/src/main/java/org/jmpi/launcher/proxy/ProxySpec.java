package org.jmpi.launcher.proxy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything a proxy needs to run its host's part of a job.
 *
 * @param jobId the job id (PMI KVS name, {@code JMPI_JOBID})
 * @param secret the job secret: ranks get it as {@code JMPI_SECRET}, the proxy's PMI server demands it
 * @param size ranks in the job
 * @param hostIndex this host's index (node id) in the job
 * @param hostName the host name as the user gave it (for messages)
 * @param mapping {@code PMI_process_mapping} of the whole job
 * @param appnums the MPMD application number of every world rank
 * @param graceMillis time between SIGTERM and SIGKILL when the host's ranks are torn down
 * @param heartbeatMillis how often a remote proxy and the front end send heartbeats (0: none, a proxy in the front
 *     end's JVM)
 * @param linkTimeoutMillis a remote proxy that hears nothing for this long kills its ranks and exits
 * @param continueOnFailure jmpirun --continue-on-failure: ranks get {@code JMPI_FT=1} and failure notices
 * @param tcpHost where ranks' TCP transports listen ({@code JMPI_TCP_HOST}) unless the environment says so; null:
 *     the default (loopback); {@code "@ssh"}: this host's end of the ssh connection ({@code SSH_CONNECTION}), else
 *     {@code "*"}
 * @param env variables for every rank of this host, over the proxy's own environment
 * @param ranks the ranks to start here
 */
public record ProxySpec(
        String jobId,
        String secret,
        int size,
        int hostIndex,
        String hostName,
        String mapping,
        int[] appnums,
        long graceMillis,
        long heartbeatMillis,
        long linkTimeoutMillis,
        boolean continueOnFailure,
        String tcpHost,
        Map<String, String> env,
        List<RankLaunch> ranks) {

    /** Where a rank's standard input comes from. */
    public enum Stdin {
        /** End of file at once. */
        NONE,
        /** The proxy's own standard input (a proxy in the front end's JVM: jmpirun's terminal). */
        INHERIT,
        /** {@link ControlMessage.Stdin} messages from the front end. */
        FORWARDED
    }

    /**
     * One rank to start.
     *
     * @param rank world rank
     * @param localRank index among the ranks of this host
     * @param argv the command (program and arguments)
     * @param env variables of this rank (over {@link ProxySpec#env()})
     * @param workingDirectory where to start it
     * @param stdin where its standard input comes from
     */
    public record RankLaunch(int rank, int localRank, List<String> argv, Map<String, String> env,
            String workingDirectory, Stdin stdin) {
        public RankLaunch {
            argv = List.copyOf(argv);
            env = Map.copyOf(env);
        }
    }

    public ProxySpec {
        appnums = appnums.clone();
        env = Map.copyOf(env);
        ranks = List.copyOf(ranks);
    }

    /** The world ranks started here, in order. */
    public int[] rankNumbers() {
        return ranks.stream().mapToInt(RankLaunch::rank).toArray();
    }

    void writeTo(ControlMessage.Buffer b) {
        b.str(jobId);
        b.str(secret);
        b.i32(size);
        b.i32(hostIndex);
        b.str(hostName);
        b.str(mapping);
        b.i32(appnums.length);
        for (int a : appnums) {
            b.i32(a);
        }
        b.i64(graceMillis);
        b.i64(heartbeatMillis);
        b.i64(linkTimeoutMillis);
        b.bool(continueOnFailure);
        b.bool(tcpHost != null);
        if (tcpHost != null) {
            b.str(tcpHost);
        }
        b.map(env);
        b.i32(ranks.size());
        for (RankLaunch r : ranks) {
            b.i32(r.rank());
            b.i32(r.localRank());
            b.strings(r.argv());
            b.map(r.env());
            b.str(r.workingDirectory());
            b.u8(r.stdin().ordinal());
        }
    }

    static ProxySpec readFrom(ControlMessage.Reader r) throws IOException {
        String jobId = r.str();
        String secret = r.str();
        int size = r.i32();
        int hostIndex = r.i32();
        String hostName = r.str();
        String mapping = r.str();
        int n = r.i32();
        if (n < 0 || n > r.remaining() / 4) {
            throw new IOException("bad appnum count " + n);
        }
        int[] appnums = new int[n];
        for (int i = 0; i < n; i++) {
            appnums[i] = r.i32();
        }
        long grace = r.i64();
        long heartbeat = r.i64();
        long linkTimeout = r.i64();
        boolean cof = r.bool();
        String tcpHost = r.bool() ? r.str() : null;
        Map<String, String> env = r.map();
        int k = r.i32();
        if (k < 0 || k > r.remaining() / 4) {
            throw new IOException("bad rank count " + k);
        }
        List<RankLaunch> ranks = new ArrayList<>(k);
        Stdin[] modes = Stdin.values();
        for (int i = 0; i < k; i++) {
            int rank = r.i32();
            int local = r.i32();
            List<String> argv = r.strings();
            Map<String, String> renv = r.map();
            String wdir = r.str();
            int mode = r.u8();
            if (mode >= modes.length) {
                throw new IOException("bad stdin mode " + mode);
            }
            ranks.add(new RankLaunch(rank, local, argv, renv, wdir, modes[mode]));
        }
        return new ProxySpec(jobId, secret, size, hostIndex, hostName, mapping, appnums, grace, heartbeat,
                linkTimeout, cof, tcpHost, env, ranks);
    }
}
