#!/usr/bin/env bash
# Installs what ShardLab needs from Debian/Ubuntu packages. Idempotent: a package
# already present is skipped, so running it twice costs one dpkg query.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  openmpi-bin libopenmpi-dev
  libopenblas-dev
  nlohmann-json3-dev libcli11-dev zlib1g-dev
  libgtest-dev googletest
  qt6-base-dev qt6-tools-dev qt6-l10n-tools qt6-tools-dev-tools
  libqcustomplot-dev libqcustomplot2.1-qt6
  libgl-dev xvfb xauth
  # The sanitizer and fuzz builds (presets asan, tsan): clang, its sanitizer and
  # libFuzzer runtimes (libclang_rt.*), and llvm-symbolizer for readable reports.
  clang libclang-rt-dev llvm
  # The Slurm test (tests/slurm): it starts these daemons itself, with a configuration
  # of its own. Installing them starts none: slurmd and slurmctld start only with an
  # /etc/slurm/slurm.conf, which no package writes; munge may start its own daemon on
  # its default socket, which the test does not use.
  munge slurmctld slurmd slurm-client
  # The package test (tests/package) checks the .deb with Debian's lintian.
  lintian
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
