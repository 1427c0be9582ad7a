#!/usr/bin/env bash
# Starts a private single-node Slurm for the tests: munged, slurmctld and slurmd on this host,
# everything (key, sockets, state, spool, logs, pid files, slurm.conf) under DIR, on free ports,
# so it touches nothing system-wide and two checkouts can run it at once.
#
#   tests/slurm/slurm-up.sh DIR      then   export SLURM_CONF=DIR/slurm.conf
#   tests/slurm/slurm-down.sh DIR    stops all of it
#
# With SLURM_UP_OWNER_PID=PID in the environment a watchdog runs slurm-down.sh DIR once that process
# has gone, so the daemons do not outlive a test run that was killed before it could stop them.
#
# Prints SLURM_CONF=... and writes DIR/env (sourceable) when the node is idle. When something
# cannot start it exits non-zero with one line "slurm-up: <reason>" on stderr and in
# DIR/unavailable, and stops whatever it had started.
#
# Found on Debian 12 (Slurm 22.05, Open MPI 4.1.4, run as root in a container, no systemd, no
# cgroups):
#  - munged runs as root only with --force; its own socket under DIR (AuthInfo=socket=...).
#  - proctrack/linuxproc + task/none: no cgroup plugin is loaded, so no cgroup.conf is needed.
#  - The node line is `slurmd -C`'s, so the configuration matches what slurmd detects (a
#    mismatch drains the node).
#  - No slurmdbd: AccountingStorageType=accounting_storage/none, so sacct has no data; a job's
#    end state and exit code come from `scontrol show job` (kept MinJobAge=600 s after the end).
#  - MPI: `srun --mpi=pmix` starts Open MPI ranks directly (Open MPI's pmix ext3x component
#    talks to Slurm's mpi_pmix_v4 plugin); pmi2 is listed by `srun --mpi=list` but this Open MPI
#    has no pmi2 client (ompi_info lists ess pmi/slurm, pmix ext3x only), so MpiDefault=pmix.
#    `mpirun` inside an sbatch allocation works too (plm slurm launches its daemons with srun).
#  - The pmix plugin's per-step folders go under DIR/pmix (mpi.conf), not /tmp (see below).
set -u
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1" || { echo "slurm-up: cannot create $1" >&2; exit 1; }
dir=$(cd "$1" && pwd)
rm -f "$dir/unavailable" "$dir/env"

fail() {
  echo "slurm-up: $*" >&2
  echo "$*" >"$dir/unavailable"
  "$here/slurm-down.sh" "$dir" >/dev/null 2>&1
  exit 1
}

for tool in munged slurmctld slurmd sinfo scontrol; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool not found (Debian: apt-get install slurm-wlm munge)"
done
if [ -s "$dir/slurmctld.pid" ] &&
   [ "$(cat "/proc/$(cat "$dir/slurmctld.pid")/comm" 2>/dev/null)" = slurmctld ] &&
   ! grep -q '^[0-9]* (.*) Z' "/proc/$(cat "$dir/slurmctld.pid")/stat" 2>/dev/null; then
  fail "a Slurm from $dir is already running (tests/slurm/slurm-down.sh $dir first)"
fi

# --- munge: a private key and daemon ---------------------------------------------------------
mkdir -p "$dir/munge" && chmod 0700 "$dir/munge"
key="$dir/munge/munge.key"
if [ ! -s "$key" ]; then
  if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --keyfile="$key" >/dev/null 2>&1 || fail "mungekey could not create $key"
  else
    dd if=/dev/urandom of="$key" bs=1024 count=1 status=none || fail "cannot write $key"
  fi
fi
chmod 0600 "$key"
socket="$dir/munge/munge.socket"
munged_args=(--socket="$socket" --key-file="$key" --pid-file="$dir/munge/munged.pid"
             --seed-file="$dir/munge/munged.seed" --log-file="$dir/munge/munged.log")
[ "$(id -u)" -eq 0 ] && munged_args+=(--force) # munged refuses root without it
munged "${munged_args[@]}" 2>"$dir/munge/munged.err" ||
  fail "munged did not start: $(tail -n 1 "$dir/munge/munged.err")"
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || fail "munged made no socket at $socket"
if command -v munge >/dev/null 2>&1 && command -v unmunge >/dev/null 2>&1; then
  munge -n -S "$socket" | unmunge -S "$socket" >/dev/null 2>&1 ||
    fail "munge credentials do not round-trip through $socket"
fi

# --- slurm.conf -------------------------------------------------------------------------------
host=$(hostname -s)
node=$(slurmd -C 2>/dev/null | head -n 1)
case "$node" in
  NodeName=*) ;;
  *) fail "slurmd -C could not describe this host" ;;
esac
node=${node/NodeName=$host/NodeName=$host NodeAddr=127.0.0.1}

port_free() { [ -z "$(ss -Htln "sport = :$1" 2>/dev/null)" ]; }
pick_port() {
  local p
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 20000))
    if port_free "$p" && port_free $((p + 1)); then echo "$p"; return 0; fi
  done
  return 1
}
ctld_port=$(pick_port) || fail "no free TCP port pair for slurmctld/slurmd"
slurmd_port=$((ctld_port + 1))

rm -rf "$dir/pmix"
mkdir -p "$dir/state" "$dir/spool" "$dir/pmix"
# srun --mpi=pmix makes a folder per step named by uid and job id, by default in /tmp: job ids start
# at 1 again in every new cluster, so a folder a killed step left, or another test cluster's,
# would make the step fail ("Cannot create client cli tmpdir ... File exists"). Ours is private.
echo "PMIxCliTmpDirBase=$dir/pmix" >"$dir/mpi.conf"
conf="$dir/slurm.conf"
cat >"$conf" <<EOF
# Generated by tests/slurm/slurm-up.sh: a private single-node Slurm for Ridgeline's tests.
ClusterName=ridgeline-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=pmix
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
# A job's record stays this long after its end: scontrol show job is the end-state source
# without slurmdbd.
MinJobAge=600
KillWait=2
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
MessageTimeout=10
$node State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$conf"

# --- daemons ----------------------------------------------------------------------------------
# -c: no state from an earlier run in this DIR.
slurmctld -c -f "$conf" 2>"$dir/slurmctld.err" ||
  fail "slurmctld did not start: $(tail -n 1 "$dir/slurmctld.err")"
slurmd -f "$conf" -N "$host" 2>"$dir/slurmd.err" ||
  fail "slurmd did not start: $(tail -n 1 "$dir/slurmd.err")"

state=""
for _ in $(seq 150); do # 30 s
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -n 1)
  case "$state" in idle*) break ;; esac
  sleep 0.2
done
case "$state" in
  idle*) ;;
  *)
    why=$(scontrol show node "$host" 2>/dev/null | sed -n 's/^ *Reason=\(.*\)/\1/p' | head -n 1)
    last=$(grep -h -i -E 'error|fatal' "$dir/slurmctld.log" "$dir/slurmd.log" 2>/dev/null | tail -n 1)
    fail "node $host not idle after 30 s (state '${state:-none}'${why:+, reason: $why}${last:+; log: $last})"
    ;;
esac

if [ -n "${SLURM_UP_OWNER_PID:-}" ]; then
  owner=$SLURM_UP_OWNER_PID
  # Detached from our output, so whoever reads it (ctest) is not kept waiting.
  setsid bash -c '
    owner=$1 dir=$2 here=$3
    while [ -e "/proc/$owner" ] && ! grep -q "^[0-9]* (.*) Z" "/proc/$owner/stat" 2>/dev/null; do sleep 2; done
    "$here/slurm-down.sh" "$dir"' slurm-watchdog "$owner" "$dir" "$here" </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/watchdog.pid"
fi

echo "export SLURM_CONF=$conf" >"$dir/env"
echo "SLURM_CONF=$conf"
echo "slurm-up: node $host idle, slurmctld port $ctld_port, slurmd port $slurmd_port, logs in $dir"
