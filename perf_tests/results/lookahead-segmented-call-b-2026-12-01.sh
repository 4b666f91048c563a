#!/bin/bash
# GPU call B (2026-12-01, second session): unpack the carried binaries (build/gpu/bin.tar.xz), run the
# long segmented cases alone (call A's run of them, beside the shards and sanitizers, hit its
# timeout in the double Sum case), then the bench of lookahead-segmented-bench-2026-12-01-fixed.sh.
cd build/gpu && tar xJf bin.tar.xz && cd ../..
t0=$(date +%s)
(cd build/gpu && timeout 150 ./kprim-cuda-tests "CUDA paths: long segmented*" --durations yes > $OUT/seg-tests-alone.txt 2>&1)
echo "long segmented alone: rc=$? $(( $(date +%s) - t0 )) s: $(tail -3 $OUT/seg-tests-alone.txt | tr '\n' ' ')"
bash perf_tests/results/lookahead-segmented-bench-2026-12-01-fixed.sh
