#!/bin/bash
# GPU call 5 (2026-12-02, fifth session): call 3's bench binaries; ncu sections of one segmented look-ahead launch, float ~1000 at 2^26, new (heads warp) and base (marks).
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for b in new base; do
  timeout 120 ncu --clock-control none --kernel-name regex:lookahead_segmented --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats \
    --metrics lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
    ./kprim-bench-$b --reps=3 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/1000/float/67108864/" > $OUT/ncu5-$b.txt 2>&1
  echo "== $b"; grep -vE '==PROF==|^ *$|^-|benchmark|Run on|CPU Caches|L[123] ' $OUT/ncu5-$b.txt | grep -E ' [0-9.,]+ *$|Stall|stall' | head -70
done
date -u
