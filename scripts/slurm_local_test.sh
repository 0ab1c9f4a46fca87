#!/usr/bin/env bash
# Starts a real single-node Slurm on this machine (munged, slurmctld and slurmd from
# Debian's munge and slurm-wlm, all on localhost, state in a temp folder), runs a sweep
# through scripts/sweep_sbatch.sh as a job array, merges the shards and checks the
# merged tables equal those of a local run of the same sweep, byte for byte. Stops
# every daemon it started on exit.
#
#   scripts/slurm_local_test.sh STCSIM SPEC [ARRAY_TASKS]
#
# Exit 0: equal; 1: failed; 77: skipped (Slurm or munge not installed, or not root,
# which slurmd needs to launch jobs), with the reason on stdout. ctest maps 77 to
# "skipped" (SKIP_RETURN_CODE), so a machine without Slurm never passes it silently.
set -uo pipefail

stcsim=${1:?usage: $0 STCSIM SPEC [ARRAY_TASKS]}
spec=${2:?usage: $0 STCSIM SPEC [ARRAY_TASKS]}
tasks=${3:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)

for tool in munged slurmctld slurmd sbatch sinfo scancel; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "skipped: '$tool' not found (Debian: apt-get install slurm-wlm munge)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: needs root to run slurmd (it launches the jobs)"
  exit 77
fi

work=$(mktemp -d /tmp/stcsim_slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  scancel --quiet --full --signal=KILL -u root >/dev/null 2>&1 || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "$work"/*.log "$work"/out/slurm-*.out; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
  done
  exit 1
}

# A free TCP port on localhost: nothing answers a connect to it.
free_port() {
  local p
  for p in $(seq "$1" $(($1 + 200))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  return 1
}

# munge: its own key and socket, so a system munged (if any) is left alone.
mkdir -p "$work/munge" && chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged -F --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munged.log" \
  --seed-file="$work/munge/munged.seed" &
pids+=($!)

host=$(hostname -s)
ctld_port=$(free_port 16817) || fail "no free port"
slurmd_port=$(free_port $((ctld_port + 1))) || fail "no free port"
mkdir -p "$work/state" "$work/spool" "$work/out"
# The node as slurmd sees this machine (CPUs, sockets, memory), reachable on localhost.
node=$(slurmd -C | head -n 1)
[[ $node == NodeName=* ]] || fail "slurmd -C printed '$node'"
cat >"$work/slurm.conf" <<CONF
ClusterName=stcsimtest
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${ctld_port}
SlurmdPort=${slurmd_port}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${work}/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=${work}/state
SlurmdSpoolDir=${work}/spool
SlurmctldPidFile=${work}/slurmctld.pid
SlurmdPidFile=${work}/slurmd.pid
SlurmctldLogFile=${work}/slurmctld.log
SlurmdLogFile=${work}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
${node} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=${host} Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

for _ in $(seq 50); do [ -S "$work/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.socket" ] || fail "munged did not start"
slurmctld -D -c -f "$SLURM_CONF" >"$work/slurmctld.stdout.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.stdout.log" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 60); do
  state=$(sinfo -h -o %t 2>/dev/null | head -n 1)
  [[ $state == idle* || $state == mix* ]] && break
  sleep 0.5
done
[[ $state == idle* || $state == mix* ]] || fail "the node did not come up (state '$state')"
echo "slurm up: node $host, ports $ctld_port/$slurmd_port"

# The sweep through Slurm: a job array, one shard per task; --wait returns when all end.
cd "$work/out"
STCSIM=$stcsim timeout 300 sbatch --wait --quiet --array=0-$((tasks - 1)) --cpus-per-task=1 \
  "$repo/scripts/sweep_sbatch.sh" "$spec" "$work/out/slurm" || fail "the job array failed"
ls -d "$work"/out/slurm/shard_* >/dev/null 2>&1 || fail "the job array wrote no shard"
[ "$(ls -d "$work"/out/slurm/shard_* | wc -l)" -eq "$tasks" ] || fail "expected $tasks shard folders"
"$stcsim" sweep-merge --out "$work/out/merged" "$work"/out/slurm/shard_* || fail "sweep-merge failed"

# The same sweep locally, in one go.
"$stcsim" sweep "$spec" --out "$work/out/local" -j 2 -q || fail "the local sweep failed"
for f in results.csv results.json; do
  cmp "$work/out/local/$f" "$work/out/merged/$f" || fail "$f differs between Slurm and local runs"
done
echo "PASS: $tasks-task Slurm job array, merged, equals the local run ($(($(wc -l <"$work/out/local/results.csv") - 1)) rows)"
