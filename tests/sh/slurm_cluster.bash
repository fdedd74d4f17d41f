# slurm_cluster.bash - a one-node Slurm cluster of one's own, for
# tests/sh/slurm.sh and bench/cluster-exclusive.sh (not a test itself:
# ctest runs *.sh only). Source it, then:
#
#   slurm_cluster_start DIR   munged, slurmctld -c and slurmd on free
#                             loopback ports, every file under DIR (made
#                             here; its parents must be enterable by all,
#                             as munged checks); exports SLURM_CONF; the
#                             partition "bench" (default, MaxTime 30 min).
#                             Returns non-zero with the logs shown when
#                             the node does not come up.
#   slurm_cluster_stop        cancels this cluster's jobs, then stops
#                             slurmd, slurmctld and munged by their PIDs.
#                             Call it on every way out (a trap).
#   slurm_wait_queue SECONDS  until the queue is empty; non-zero at the
#                             deadline.
#   slurm_cluster_logs        the tail of every daemon's log.
#
# Missing programs: slurm_cluster_missing is true when one of them is
# not installed (the caller installs them or skips).
SLURM_CLUSTER_PIDS=""
SLURM_CLUSTER_DIR=""

slurm_cluster_missing() {
    local p
    for p in sbatch sinfo squeue scancel scontrol slurmctld slurmd munged; do
        PATH=$PATH:/usr/sbin command -v "$p" >/dev/null || return 0
    done
    return 1
}

slurm_free_port() {
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'
}

slurm_cluster_logs() {
    local f
    for f in "$SLURM_CLUSTER_DIR"/*.log "$SLURM_CLUSTER_DIR"/*.out; do
        [ -f "$f" ] && { echo "== $f"; tail -20 "$f"; }
    done
}

slurm_cluster_start() {
    local C=$1 me host p1 p2 node i
    export PATH=$PATH:/usr/sbin
    SLURM_CLUSTER_DIR=$C
    mkdir -p "$C/state" "$C/spool"
    # munged refuses a socket in a folder that others cannot enter.
    chmod 755 "$C"
    export SLURM_CONF=$C/slurm.conf
    me=$(id -un)
    dd if=/dev/urandom of="$C/munge.key" bs=1024 count=1 2>/dev/null
    chmod 600 "$C/munge.key"
    munged -F --socket="$C/munge.sock" --key-file="$C/munge.key" --pid-file="$C/munged.pid" \
        --log-file="$C/munged.log" --seed-file="$C/munged.seed" >"$C/munged.out" 2>&1 &
    SLURM_CLUSTER_PIDS="$SLURM_CLUSTER_PIDS $!"
    for i in $(seq 1 50); do [ -S "$C/munge.sock" ] && break; sleep 0.1; done
    [ -S "$C/munge.sock" ] || { echo "munged did not start"; slurm_cluster_logs; return 1; }

    host=$(hostname -s)
    p1=$(slurm_free_port)
    p2=$(slurm_free_port)
    while [ "$p2" = "$p1" ]; do p2=$(slurm_free_port); done
    # The node as slurmd sees this machine (CPUs, sockets, memory), named
    # and addressed so that all traffic stays on the loopback.
    node=$(slurmd -C 2>/dev/null | head -1 |
           sed "s/^NodeName=[^ ]*/NodeName=$host NodeAddr=127.0.0.1/")
    case "$node" in NodeName=*) ;; *) node="NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc)" ;; esac
    cat > "$SLURM_CONF" <<EOF
ClusterName=rundowntest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$C/munge.sock
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/slurmctld.log
SlurmdLogFile=$C/slurmd.log
PlugStackConfig=$C/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
$node
PartitionName=bench Nodes=$host Default=YES MaxTime=30 State=UP
EOF
    : > "$C/plugstack.conf"
    slurmctld -D -c -f "$SLURM_CONF" >"$C/slurmctld.out" 2>&1 &
    SLURM_CLUSTER_PIDS="$! $SLURM_CLUSTER_PIDS"
    slurmd -D -f "$SLURM_CONF" -N "$host" >"$C/slurmd.out" 2>&1 &
    SLURM_CLUSTER_PIDS="$! $SLURM_CLUSTER_PIDS"
    for i in $(seq 1 150); do
        [ "$(sinfo --noheader --format=%t 2>/dev/null)" = idle ] && return 0
        sleep 0.2
    done
    echo "the node did not come up: $(sinfo 2>&1)"
    slurm_cluster_logs
    return 1
}

slurm_wait_queue() {
    local i
    for i in $(seq 1 $(($1 * 5))); do
        [ -z "$(squeue --noheader 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    return 1
}

# Jobs first (their steps are not slurmd's children), then the daemons,
# each by its PID: TERM, up to 10 s, then KILL.
slurm_cluster_stop() {
    local pid i
    if [ -n "$SLURM_CLUSTER_PIDS" ]; then
        scancel --user="$(id -un)" >/dev/null 2>&1
        slurm_wait_queue 20
    fi
    for pid in $SLURM_CLUSTER_PIDS; do kill -TERM "$pid" 2>/dev/null; done
    for pid in $SLURM_CLUSTER_PIDS; do
        for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    SLURM_CLUSTER_PIDS=""
}
