#!/usr/bin/env bash
# Configures and builds kprim (library, unit tests, kprim-table) for the CPU in build/cpu (or
# $KPRIM_BUILD_DIR), inside the Debian sid root that scripts/sid-root.sh makes (Kokkos 5.2,
# OpenMP backend). Extra arguments go to CMake's configure step.
set -euo pipefail
if [ ! -f /.kprim-ready ]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/sid-root.sh" scripts/build.sh "$@"
fi
build_dir=${KPRIM_BUILD_DIR:-build/cpu}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_EXTENSIONS=OFF \
  -DKPRIM_WARNINGS_AS_ERRORS=ON "$@"
cmake --build "$build_dir"
