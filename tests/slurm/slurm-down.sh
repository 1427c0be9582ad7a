#!/usr/bin/env bash
# Stops the Slurm that tests/slurm/slurm-up.sh DIR started: cancels its jobs, stops slurmd,
# slurmctld and munged (TERM, then KILL after a few seconds), and kills any job step process
# still holding a file under DIR. Safe to run twice or when nothing is running.
set -u
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
[ -d "$1" ] || exit 0
dir=$(cd "$1" && pwd)

# Running and not a zombie (a container's init may never reap our daemonized processes).
alive() {
  local state
  state=$(sed -n 's/^[0-9]* (.*) \([A-Za-z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# TERM to every daemon at once, then KILL what is left after 5 s.
pids=()
for daemon in slurmd slurmctld munge/munged; do
  file="$dir/$daemon.pid"
  [ -s "$file" ] || continue
  pid=$(cat "$file")
  case "$pid" in '' | *[!0-9]*) continue ;; esac
  # A stale pid file must not kill an unrelated process that got the number since.
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${daemon#munge/}" ] && alive "$pid" && pids+=("$pid")
done

# Cancel the jobs while slurmctld still runs (bounded: a hung slurmctld must not hang this).
if [ -f "$dir/slurm.conf" ] && [ -s "$dir/slurmctld.pid" ] && alive "$(cat "$dir/slurmctld.pid")" &&
   command -v scancel >/dev/null 2>&1; then
  export SLURM_CONF="$dir/slurm.conf"
  if [ -n "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]; then
    timeout 5 scancel --full -u "$(id -un)" >/dev/null 2>&1
    for _ in $(seq 20); do [ -z "$(timeout 2 squeue -h -t R,CG -o %i 2>/dev/null)" ] && break; sleep 0.2; done
  fi
fi

# slurmstepd (and the job's processes under it) can outlive slurmd: the slurmstepd processes
# holding a file under DIR (their spool sockets), with all their descendants.
steps=()
for pid in $(pgrep -x slurmstepd); do
  for fd in /proc/"$pid"/fd/*; do
    case "$(readlink "$fd" 2>/dev/null)" in "$dir"/*) steps+=("$pid"); break ;; esac
  done
done

[ ${#pids[@]} -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null
if [ ${#steps[@]} -gt 0 ]; then
  victims=("${steps[@]}")
  # Descendants by parent pid, a few levels deep (slurmstepd -> srun/mpirun -> ranks).
  for _ in 1 2 3 4; do
    more=$(pgrep -P "$(IFS=,; echo "${victims[*]}")")
    for pid in $more; do
      case " ${victims[*]} " in *" $pid "*) ;; *) victims+=("$pid") ;; esac
    done
  done
  kill -KILL "${victims[@]}" 2>/dev/null
fi
for _ in $(seq 50); do
  alive=0
  for pid in "${pids[@]}"; do alive "$pid" && alive=1; done
  [ "$alive" -eq 0 ] && break
  sleep 0.1
done
[ ${#pids[@]} -gt 0 ] && kill -KILL "${pids[@]}" 2>/dev/null
rm -f "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"
# slurm-up.sh's watchdog, unless it is what runs us.
if [ -s "$dir/watchdog.pid" ]; then
  pid=$(cat "$dir/watchdog.pid")
  if [ "$pid" != "$PPID" ] && [ "$pid" != "$$" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = bash ]; then
    kill -TERM "$pid" 2>/dev/null
  fi
  rm -f "$dir/watchdog.pid"
fi
exit 0
