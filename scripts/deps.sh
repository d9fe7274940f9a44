#!/usr/bin/env bash
# Installs the Debian packages the project builds with, or says which to install.
# With arguments: those packages instead (scripts/lint.sh: clang-format clang-tidy).
set -euo pipefail
packages=(g++ gcc make cmake pkg-config libsystemc-dev libboost-dev libboost-program-options-dev
          catch2 nlohmann-json3-dev libsqlite3-dev libmetis-dev python3 snakemake python3-matplotlib)
[ $# -gt 0 ] && packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "Missing Debian packages. Install them with:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
