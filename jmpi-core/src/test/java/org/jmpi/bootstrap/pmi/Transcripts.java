package org.jmpi.bootstrap.pmi;

import java.util.List;

/**
 * Golden PMI-1 exchanges, copied from launch-integration.md (section 1.3 for Hydra, 2.3 for Slurm), trimmed to the
 * requests {@link Pmi1Bootstrap} makes (it never asks for appnum or universe size).
 */
final class Transcripts {
    private Transcripts() {
    }

    static final String HYDRA_KVS = "kvs_4494_0_125400486_vm";

    /** {@code mpiexec.hydra -pmi-port -n 2}, rank 1: initack, then the PMI_FD exchange. */
    static final List<String> HYDRA_PMI_PORT_RANK1 = List.of(
            "-> cmd=initack pmiid=1",
            "<- cmd=initack",
            "<- cmd=set size=2",
            "<- cmd=set rank=1",
            "<- cmd=set debug=0",
            "-> cmd=init pmi_version=1 pmi_subversion=1",
            "<- cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0",
            "-> cmd=get_maxes",
            "<- cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024",
            "-> cmd=get_my_kvsname",
            "<- cmd=my_kvsname kvsname=" + HYDRA_KVS,
            "-> cmd=put kvsname=" + HYDRA_KVS + " key=bc-1 value=tcp://127.0.0.1:40001",
            "<- cmd=put_result rc=0 msg=success",
            "-> cmd=barrier_in",
            "<- cmd=barrier_out",
            "-> cmd=get kvsname=" + HYDRA_KVS + " key=bc-0",
            "<- cmd=get_result rc=0 msg=success value=tcp://127.0.0.1:40000",
            "-> cmd=get kvsname=" + HYDRA_KVS + " key=bc-1",
            "<- cmd=get_result rc=0 msg=success value=tcp://127.0.0.1:40001",
            "-> cmd=get kvsname=" + HYDRA_KVS + " key=nosuchkey",
            "<- cmd=get_result rc=-1 msg=key_nosuchkey_not_found value=unknown",
            "-> cmd=get kvsname=" + HYDRA_KVS + " key=PMI_process_mapping",
            "<- cmd=get_result rc=0 msg=success value=(vector,(0,1,1))",
            "-> cmd=barrier_in",
            "<- cmd=barrier_out",
            "-> cmd=finalize",
            "<- cmd=finalize_ack");

    /**
     * Slurm's dialect ({@code srun --mpi=pmi2}, PMI-1 wire on PMI_FD), rank 1 of 2: {@code rc} first, no msg keys,
     * {@code rc=1} for a missing key.
     */
    static final List<String> SLURM_PMI_FD_RANK1 = List.of(
            "-> cmd=init pmi_version=1 pmi_subversion=1",
            "<- cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1",
            "-> cmd=get_maxes",
            "<- cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024",
            "-> cmd=get_my_kvsname",
            "<- cmd=my_kvsname rc=0 kvsname=7.0",
            "-> cmd=put kvsname=7.0 key=bc-1 value=tcp://127.0.0.1:40001",
            "<- cmd=put_result rc=0",
            "-> cmd=barrier_in",
            "<- cmd=barrier_out rc=0",
            "-> cmd=get kvsname=7.0 key=bc-0",
            "<- cmd=get_result rc=0 value=tcp://127.0.0.1:40000",
            "-> cmd=get kvsname=7.0 key=bc-1",
            "<- cmd=get_result rc=0 value=tcp://127.0.0.1:40001",
            "-> cmd=get kvsname=7.0 key=nosuchkey",
            "<- cmd=get_result rc=1",
            "-> cmd=get kvsname=7.0 key=PMI_process_mapping",
            "<- cmd=get_result rc=0 value=(vector,(0,1,2))",
            "-> cmd=barrier_in",
            "<- cmd=barrier_out rc=0",
            "-> cmd=finalize",
            "<- cmd=finalize_ack rc=0");

    /** The Slurm dialect served over TCP, with the {@code PMI_PORT} prelude and {@code set} lines reordered. */
    static List<String> slurmDialectOverTcp() {
        List<String> prelude = List.of(
                "-> cmd=initack pmiid=1",
                "<- cmd=initack rc=0",
                "<- cmd=set rank=1",
                "<- cmd=set   debug=0  ",
                "<- cmd=set size=2");
        java.util.ArrayList<String> all = new java.util.ArrayList<>(prelude);
        all.addAll(SLURM_PMI_FD_RANK1);
        return all;
    }
}
