#!/usr/bin/env bash
# Installs the Debian packages the project builds with, or says which to install.
#   scripts/deps.sh             what the build and the simulator need
#   scripts/deps.sh --tests     that, valgrind (ctest cited_code_server counts the server loop
#                               with callgrind) and the services of ctest workflow_slurm (a
#                               private single-node Slurm cluster, docs/sweeps.md): scripts/test.sh
#   scripts/deps.sh PKG...      those packages instead (scripts/lint.sh: clang-format clang-tidy)
# As root it installs what is missing; otherwise it prints the apt-get line and stops.
set -euo pipefail
packages=(g++ gcc make cmake pkg-config libsystemc-dev libboost-dev libboost-program-options-dev
          catch2 nlohmann-json3-dev libsqlite3-dev libmetis-dev python3 snakemake python3-matplotlib)
test_packages=()
if [ "${1:-}" = --tests ]; then
  test_packages=(valgrind slurmctld slurmd slurmdbd slurm-client munge mariadb-server)
elif [ $# -gt 0 ]; then
  packages=("$@")
fi
absent() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
mapfile -t missing < <(absent "${packages[@]}" "${test_packages[@]}")
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing Debian packages. Install them with:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  # Without the test packages only ctest workflow_slurm fails (and cited_code_server
  # is skipped): the rest goes on.
  mapfile -t build_missing < <(absent "${packages[@]}")
  [ ${#build_missing[@]} -eq 0 ] && { echo "(ctest workflow_slurm fails and cited_code_server is skipped without them)" >&2; exit 0; }
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The test starts its own Slurm and MariaDB under a temporary folder: the
# packages must not start the system's daemons (a policy-rc.d that denies
# every start, only for this install and only where none is set).
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && own_policy=1
fi
trap 'if [ $own_policy -eq 1 ]; then rm -f "$policy"; fi' EXIT
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
