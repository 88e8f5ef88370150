# leftovers.sh: what a suite run left behind, for the suite scripts of this folder (sourced, not run).
#
#   shm_before=$(shm_snapshot)        before the run
#   leftover_processes CLASS          after it: pids of java processes whose command line names CLASS (launcher or
#                                     ranks), after up to 3 s for JVMs that are already exiting; empty when none
#   leftover_files "$shm_before"      after it: /dev/shm files new since the snapshot whose jmpirun
#                                     (jmpi-jmpi_<pid>_<n>...) is gone; files of other launchers (MPICH Hydra's
#                                     jmpi-jmpi_kvs_<pid>-<n>, ...) and of live jobs are never named: other jobs may
#                                     run on the machine meanwhile
#   remove_leftovers "$left" "$files" kills and removes what the two above named

shm_snapshot() {
    ls /dev/shm 2>/dev/null | grep '^jmpi-' || true
}

leftover_processes() {
    local pattern="java .*[ /:]${1//./\\.}( |\$)" left
    for _ in 1 2 3 4; do
        left=$(pgrep -f -- "$pattern" || true)
        [ -z "$left" ] && break
        sleep 1
    done
    echo $left
}

leftover_files() {
    ls /dev/shm 2>/dev/null | grep -E '^jmpi-jmpi_[0-9]+_' | grep -vxF -e "$1" -e '' \
        | while read -r f; do pid=${f#jmpi-jmpi_}; pid=${pid%%_*}
            kill -0 "$pid" 2>/dev/null || echo "/dev/shm/$f"; done || true
}

remove_leftovers() {
    [ -z "$1" ] || kill -9 $1 2>/dev/null || true
    [ -z "$2" ] || rm -f $2
}
