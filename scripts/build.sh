#!/usr/bin/env bash
# Configures and builds kprim (library, unit tests, kprim-table) for the CPU in build/cpu (or
# $KPRIM_BUILD_DIR), inside the Debian sid root that scripts/sid-root.sh makes (Kokkos 5.2,
# OpenMP backend, Open MPI for kprim::mpi). Extra arguments go to CMake's configure step;
# KPRIM_BUILD_TARGET names one target to build instead of all.
set -euo pipefail
if [ ! -f /.kprim-ready ]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/sid-root.sh" scripts/build.sh "$@"
fi
build_dir=${KPRIM_BUILD_DIR:-build/cpu}
# The MPI tests run 1-4 ranks on a 2-core machine (--oversubscribe); CI runs as root, which
# Open MPI refuses unless told.
mpiexec_flags="--oversubscribe"
if [ "$(id -u)" = 0 ]; then mpiexec_flags="$mpiexec_flags --allow-run-as-root"; fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_EXTENSIONS=OFF \
  -DKPRIM_WARNINGS_AS_ERRORS=ON -DKPRIM_ENABLE_MPI=ON "-DKPRIM_MPIEXEC_FLAGS=$mpiexec_flags" "$@"
cmake --build "$build_dir" ${KPRIM_BUILD_TARGET:+--target "$KPRIM_BUILD_TARGET"}
