#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds, and runs kprim-table on the default
# space (OpenMP), which checks and times reduce, dot and scans beside Kokkos and a copy.
# Arguments: log2 of the sizes to run (default 20 24 26).
set -euo pipefail
if [ ! -f /.kprim-ready ]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/sid-root.sh" scripts/run.sh "$@"
fi
scripts/build.sh
build/cpu/perf_tests/kprim-table "$@"
