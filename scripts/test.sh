#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds, and runs the whole test suite (Catch2
# unit tests on every enabled space and the install/find_package test) with CTest.
set -euo pipefail
if [ ! -f /.kprim-ready ]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/sid-root.sh" scripts/test.sh "$@"
fi
scripts/build.sh
ctest --test-dir build/cpu --output-on-failure --verbose "$@"
