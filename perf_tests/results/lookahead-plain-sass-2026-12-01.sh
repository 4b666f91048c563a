#!/bin/bash
# GPU call E (2026-12-01, second session): per-SASS-instruction executed counts of main's plain
# look-ahead scan kernel (float and double at 2^26): how much of its issue goes to mbarrier waits.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u
for t in float double; do
  timeout 120 ncu --clock-control none --kernel-name regex:'lookahead_scan_kernel' --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SchedulerStats --export /tmp/plain-$t -f \
    ./kprim-bench-base --reps=2 --max-log2=26 --benchmark_filter="^inclusive_scan/kprim/automatic/$t/67108864/" > $OUT/ncu-log-plain-$t.txt 2>&1
  timeout 60 ncu --import /tmp/plain-$t.ncu-rep --page details --print-details all > $OUT/details-plain-$t.txt 2>&1
  timeout 60 ncu --import /tmp/plain-$t.ncu-rep --page source --print-source sass > $OUT/sass-plain-$t.txt 2>&1
  echo "plain $t rc=$? $(wc -l < $OUT/sass-plain-$t.txt) lines"
done
date -u
cd $OUT && tar czf sass-plain.tgz *.txt && rm -f *.txt
