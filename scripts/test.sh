#!/usr/bin/env bash
# From a fresh clone: installs what is missing, builds, and runs the whole test suite (Catch2
# unit, robustness and determinism tests on every enabled space, the install/find_package test,
# the must-not-compile tests) with CTest; then builds the tests again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs them (inputs capped at KPRIM_TEST_MAX_N=100003: sanitized
# code runs several times slower) over representative types and ops (KPRIM_TEST_TYPES: int32,
# uint64, float, double x Sum, Max; the first pass runs all). KPRIM_SKIP_SANITIZERS=1 skips that
# second pass. Last, the determinism tests alone are built with g++ and with clang under the flags
# clusters build with (-O3 -march=native -ffp-contract=fast) and check the golden file;
# KPRIM_SKIP_NATIVE=1 skips them.
# The API reference is built after the first pass (`docs` target, Doxygen warnings as errors).
set -euo pipefail
if [ ! -f /.kprim-ready ]; then
  exec "$(dirname "${BASH_SOURCE[0]}")/sid-root.sh" scripts/test.sh "$@"
fi
scripts/build.sh
ctest --test-dir build/cpu --output-on-failure --verbose "$@"
# The API reference (Doxygen over the public headers), its warnings errors like the compiler's.
cmake --build build/cpu --target docs

if [ "${KPRIM_SKIP_SANITIZERS:-0}" != 1 ]; then
  # -O1: ASan's recommended level, and much quicker to compile than -O3.
  # MPI off here: Open MPI's own allocations would drown the leak report.
  KPRIM_BUILD_DIR=build/sanitize scripts/build.sh -DKPRIM_SANITIZE=address,undefined -DKPRIM_ENABLE_PERF_TESTS=OFF \
    -DKPRIM_ENABLE_MPI=OFF -DKPRIM_TEST_TYPES=representative \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1
  KPRIM_TEST_MAX_N=${KPRIM_TEST_MAX_N:-100003} ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/sanitize --output-on-failure --verbose -E "install_consumer|compile_fail" "$@"
fi

if [ "${KPRIM_SKIP_NATIVE:-0}" != 1 ]; then
  # Determinism::bitwise must not depend on the user's flags: FMA contraction on, host ISA native.
  for compiler in g++ clang++; do
    KPRIM_BUILD_DIR=build/native-$compiler KPRIM_BUILD_TARGET=kprim-determinism-tests scripts/build.sh \
      -DCMAKE_CXX_COMPILER=$compiler "-DCMAKE_CXX_FLAGS=-march=native -ffp-contract=fast" -DCMAKE_CXX_FLAGS_RELEASE=-O3 \
      -DKPRIM_ENABLE_PERF_TESTS=OFF -DKPRIM_ENABLE_MPI=OFF
    ctest --test-dir build/native-$compiler --output-on-failure --verbose -R '^determinism_tests$' "$@"
  done
fi
