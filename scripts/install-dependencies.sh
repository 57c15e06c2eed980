#!/usr/bin/env bash
# Installs, from Debian's archive, what granular-interface needs to build, test and
# post-process. Idempotent: does nothing when every package is already present.
# Must run as root (or with sudo available) on Debian 12.
# The post-processing reads the VTU files with python3-meshio, not python3-vtk9, which
# Debian's python3-paraview (ParaView's pvpython and pvbatch) conflicts with: ParaView and
# these packages go on one machine, and the script removes nothing.
set -euo pipefail

packages=(
  cmake g++ make
  libdeal.ii-dev libtrilinos-sacado-dev
  libgtest-dev
  mpi-default-bin mpi-default-dev
  python3 python3-numpy python3-matplotlib python3-meshio
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-dependencies: all packages present"
  exit 0
fi

echo "install-dependencies: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
