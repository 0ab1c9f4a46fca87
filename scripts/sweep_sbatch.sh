#!/usr/bin/env bash
# Runs an stcsim sweep on a Slurm cluster as a job array: each array task runs one
# shard of the design points, and the shards are merged when all are done.
#
#   jid=$(sbatch --parsable --array=0-15 scripts/sweep_sbatch.sh SPEC.yaml OUT)
#   sbatch --dependency=afterany:$jid --wrap "stcsim sweep-merge --out OUT/merged OUT/shard_*"
#   stcsim report OUT/merged            # plots and summary.md, once the merge ran
#
# Task I of an array of N tasks runs
#   stcsim sweep SPEC --out OUT/shard_I --shard I/N -j $SLURM_CPUS_PER_TASK
# with N = the array's size and I = the task's position in it, so any contiguous range
# (--array=0-15, --array=1-16, --array=0-30:2) works; give each task as many CPUs as it
# should run points at a time (--cpus-per-task, default 1). The shard folders must be
# on a file system every node sees. A task that is requeued, or an array resubmitted
# after a failure, resumes its shard: finished points are skipped. A task exits 1 when
# some of its points failed (their errors are in the results), so use afterany, not
# afterok, to merge anyway; `stcsim sweep SPEC --out OUT/merged --retry-failed` reruns
# them later.
#
# The stcsim binary: $STCSIM if set, else `stcsim` on PATH, else the build in the
# folder the job was submitted from ($SLURM_SUBMIT_DIR/build/bin/stcsim).
#SBATCH --job-name=stcsim-sweep
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
#SBATCH --requeue
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: sbatch --array=0-(N-1) $0 SPEC.yaml OUT_DIR" >&2
  exit 2
fi
spec=$1
out=$2
: "${SLURM_ARRAY_TASK_ID:?run this script with sbatch --array=...}"

step=${SLURM_ARRAY_TASK_STEP:-1}
shard=$(( (SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}) / step ))
shards=${SLURM_ARRAY_TASK_COUNT:-1}
jobs=${SLURM_CPUS_PER_TASK:-1}

stcsim=${STCSIM:-}
if [ -z "$stcsim" ]; then
  if command -v stcsim >/dev/null; then
    stcsim=stcsim
  else
    stcsim=${SLURM_SUBMIT_DIR:-.}/build/bin/stcsim
  fi
fi

echo "stcsim sweep: task ${SLURM_ARRAY_TASK_ID} = shard ${shard}/${shards} on $(hostname), -j ${jobs}"
exec "$stcsim" sweep "$spec" --out "$out/shard_${shard}" --shard "${shard}/${shards}" -j "$jobs"
