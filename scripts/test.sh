#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds, and runs the whole test suite (Catch2
# unit, robustness and determinism tests on every enabled space, the install/find_package test,
# the must-not-compile tests) with CTest; then builds the tests again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs them (inputs capped at KPRIM_TEST_MAX_N=100003: sanitized
# code runs several times slower). KPRIM_SKIP_SANITIZERS=1 skips that second pass.
set -euo pipefail
if [ ! -f /.kprim-ready ]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/sid-root.sh" scripts/test.sh "$@"
fi
scripts/build.sh
ctest --test-dir build/cpu --output-on-failure --verbose "$@"

if [ "${KPRIM_SKIP_SANITIZERS:-0}" != 1 ]; then
  # -O1: ASan's recommended level, and much quicker to compile than -O3.
  # MPI off here: Open MPI's own allocations would drown the leak report.
  KPRIM_BUILD_DIR=build/sanitize scripts/build.sh -DKPRIM_SANITIZE=address,undefined -DKPRIM_ENABLE_PERF_TESTS=OFF \
    -DKPRIM_ENABLE_MPI=OFF \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1
  KPRIM_TEST_MAX_N=${KPRIM_TEST_MAX_N:-100003} ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/sanitize --output-on-failure --verbose -E "install_consumer|compile_fail" "$@"
fi
