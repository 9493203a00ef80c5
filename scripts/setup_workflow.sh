#!/usr/bin/env bash
# What the experiment matrix needs beyond one machine (issue 14), installed idempotently:
#   Debian slurmctld, slurmd, slurm-client and munge: a one-node Slurm cluster the tests start on
#   loopback (tests/test_slurm.py) and the commands (sbatch, squeue, sacct, scontrol) the Slurm
#   profile's executor plugin calls. apt may start nothing here: the packaged services stay unused,
#   the tests run their own daemons with their state in a temporary directory.
# Snakemake and the Slurm executor plugin are Python packages, pinned in requirements.txt.
# Prints nothing but progress on stderr. Needs root for apt.
set -euo pipefail
log() { echo "setup_workflow: $*" >&2; }

PACKAGES=(slurmctld slurmd slurm-client munge)
installed=$(dpkg-query -W -f='${db:Status-Abbrev}\n' "${PACKAGES[@]}" 2>/dev/null | grep -c '^ii' || true)
if [ "$installed" -ne ${#PACKAGES[@]} ]; then   # apt-get skips the ones already there
  log "installing Debian packages: ${PACKAGES[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >&2 \
    || { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${PACKAGES[@]}" >&2; }
fi
log "ready"
