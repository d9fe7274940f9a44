#!/usr/bin/env bash
# Installs the Debian packages the project builds with, or says which to install.
# With arguments: those packages instead (scripts/lint.sh: clang-format clang-tidy).
set -euo pipefail
packages=(g++ gcc make cmake pkg-config libsystemc-dev libboost-dev libboost-program-options-dev
          catch2 nlohmann-json3-dev libsqlite3-dev libmetis-dev python3 snakemake python3-matplotlib)
# Only for ctest workflow_slurm (a private single-node Slurm cluster, docs/sweeps.md): installed
# with the others when run as root; otherwise named, and the build goes on without them.
testing=(slurmctld slurmd slurmdbd slurm-client munge mariadb-server)
[ $# -gt 0 ] && { packages=("$@"); testing=(); }
absent() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
mapfile -t missing < <(absent "${packages[@]}")
mapfile -t missing_testing < <(absent "${testing[@]}")
[ ${#missing[@]} -eq 0 ] && [ ${#missing_testing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "Installing: ${missing[*]} ${missing_testing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" "${missing_testing[@]}"
elif [ ${#missing[@]} -gt 0 ]; then
  echo "Missing Debian packages. Install them with:" >&2
  echo "  sudo apt-get install ${missing[*]} ${missing_testing[*]}" >&2
  exit 1
else
  echo "Not installed (ctest workflow_slurm fails without them): sudo apt-get install ${missing_testing[*]}" >&2
fi
