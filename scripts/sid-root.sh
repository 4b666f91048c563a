#!/usr/bin/env bash
# Builds (once) a Debian sid root holding Kokkos >= 5.2 (OpenMP), Catch2 3 and Google Benchmark,
# then runs a command inside it with the repository mounted at /kprim.
#
# Why a chroot: Debian 12 has no Kokkos >= 4.4, and installing sid's Kokkos on the host would
# upgrade glibc to 2.43, whose math headers break nvcc 13.0. The root keeps the host untouched.
#
# Usage: scripts/sid-root.sh [command ...]     (no command: just make sure the root exists)
# Env:   KPRIM_SID_ROOT  where the root lives (default: <repo>/.sid-root, ignored by git)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=${KPRIM_SID_ROOT:-$repo/.sid-root}
mirror=${KPRIM_SID_MIRROR:-http://deb.debian.org/debian}
# clang + libomp-dev: the determinism tests are also built with clang under -march=native.
base_packages=g++,cmake,ninja-build,make,git,libkokkos-dev,catch2,libbenchmark-dev,python3,ca-certificates,libopenmpi-dev,openmpi-bin,clang,libomp-dev
# Installed with apt once the root exists (its dependency resolution, not debootstrap's):
# doxygen for the API reference (`docs` target), built with warnings as errors by scripts/test.sh.
packages=$base_packages,doxygen

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -f "$root/.kprim-ready" ]; then
  if ! command -v debootstrap >/dev/null; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  echo "sid-root: creating $root (Debian sid, $base_packages)"
  # Never delete through a mount left by an interrupted run (it could be the repository itself).
  if grep -q " $root/" /proc/mounts; then
    echo "sid-root: something is still mounted below $root; unmount it first:" >&2
    grep " $root/" /proc/mounts >&2
    exit 1
  fi
  as_root rm -rf "$root"
  as_root debootstrap --variant=minbase --include="$base_packages" sid "$root" "$mirror" >"$repo/.sid-root.log" 2>&1 ||
    { tail -n 30 "$repo/.sid-root.log"; exit 1; }
  # The archive's sid index can be past its Valid-Until date; apt inside would refuse it.
  echo 'Acquire::Check-Valid-Until "false";' | as_root tee "$root/etc/apt/apt.conf.d/99kprim-no-valid-until" >/dev/null
  # Debian's Kokkos CMake export names two archives the package does not ship (empty upstream).
  for lib in libkokkosalgorithms.a libkokkossimd.a; do
    for dir in "$root"/usr/lib/x86_64-linux-gnu; do
      [ -e "$dir/$lib" ] || as_root ar rc "$dir/$lib"
    done
  done
  echo "$base_packages" | as_root tee "$root/.kprim-ready" >/dev/null
fi
# A root made from an older package list (or by debootstrap just now) gets what the list has gained.
if [ "$(cat "$root/.kprim-ready")" != "$packages" ]; then
  echo "sid-root: installing the packages added since $root was made"
  as_root chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    bash -c "apt-get update -qq && apt-get install -y -qq ${packages//,/ } >/dev/null"
  echo "$packages" | as_root tee "$root/.kprim-ready" >/dev/null
fi

[ $# -gt 0 ] || exit 0

# Mount what a build needs; unmount on exit whatever happens.
mounts=()
cleanup() { for ((i=${#mounts[@]}-1; i>=0; i--)); do as_root umount -l "${mounts[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
bind() { as_root mkdir -p "$2"; as_root mount --bind "$1" "$2"; mounts+=("$2"); }
bind /proc "$root/proc"
bind /dev "$root/dev"
bind "$repo" "$root/kprim"
# A clean environment inside, but kprim's own settings (KPRIM_*) and the sanitizers' get through.
forward=()
while IFS= read -r name; do forward+=("$name=${!name}"); done < <(compgen -e | grep -E '^(KPRIM_|ASAN_|UBSAN_|LSAN_)' || true)
as_root chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin \
  CI="${CI:-}" OMP_PROC_BIND="${OMP_PROC_BIND:-false}" "${forward[@]}" /bin/bash -c 'cd /kprim && "$@"' bash "$@"
