# Experiment (issue #25; see lookahead-probe-walk-2026-11-29.cu): instruments a look-ahead kernel that walks
# back to the nearest inclusive prefix (the per-block wait counters of lookahead-probe-2026-11-29.py, and
# windows walked / inclusive prefixes found). Usage: python3 lookahead-probe-walk-2026-11-29.py IN OUT
import sys
s=open(sys.argv[1]).read()
s=s.replace("namespace lookahead {\n","namespace lookahead {\n__device__ unsigned long long* g_probe;\n#define PROBE_ADD(slot, v) atomicAdd(&g_probe[blockIdx.x * 16 + (slot)], (unsigned long long)(v))\n",1)
def rep(old,new,alts=()):
    global s
    for o,n in ((old,new),)+tuple(alts):
        if o in s:
            s=s.replace(o,n,1); return
    raise SystemExit("missing: "+old[:80])
rep("""  __syncthreads();

  if (warp == warps) {  // the producer""","""  __syncthreads();
  if (threadIdx.x == 0) { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); g_probe[blockIdx.x * 16 + 8] = g; }

  if (warp == warps) {  // the producer""")
rep("""      if (k >= stages) barrier_wait(&empty[s], (unsigned(k / stages) & 1u) ^ 1u);
      unsigned ticket""",
"""      { long long c0 = clock64(); if (k >= stages) barrier_wait(&empty[s], (unsigned(k / stages) & 1u) ^ 1u); if (lane == 0) PROBE_ADD(2, clock64() - c0); }
      unsigned ticket""")
rep("""    const int s = int(k % stages);
    barrier_wait(&full[s], unsigned(k / stages) & 1u);""","""    const int s = int(k % stages);
    long long c0 = clock64();
    barrier_wait(&full[s], unsigned(k / stages) & 1u);
    if (lane == 0 && (warp == 0 || warp == warps + 1)) PROBE_ADD(warp == warps + 1 ? 3 : 1, clock64() - c0);""")
rep("""      barrier_wait(&issued[s], unsigned(k / stages) & 1u);
      const std::int64_t t = tile_of[s];""","""      long long c0 = clock64();
      barrier_wait(&issued[s], unsigned(k / stages) & 1u);
      long long c1 = clock64();
      if (lane == 0) PROBE_ADD(6, c1 - c0);
      const std::int64_t t = tile_of[s];""", ((
"""      barrier_wait(&issued[k % stages], unsigned(k / stages) & 1u);
      const std::int64_t t = ticket_of[k % prefix_slots];""","""      long long c0 = clock64();
      barrier_wait(&issued[k % stages], unsigned(k / stages) & 1u);
      long long c1 = clock64();
      if (lane == 0) PROBE_ADD(6, c1 - c0);
      const std::int64_t t = ticket_of[k % prefix_slots];"""),))
rep("""        while (__any_sync(full_warp_mask, empty_words != 0)) {""","""        long long cp = clock64();
        while (__any_sync(full_warp_mask, empty_words != 0)) {
          if (lane == 0) PROBE_ADD(9, 1);""")
rep("""              if (status == tile_inclusive) inclusive_words |= 1u << j;
            }
        }""","""              if (status == tile_inclusive) inclusive_words |= 1u << j;
            }
        }
        if (lane == 0) { PROBE_ADD(4, clock64() - cp); PROBE_ADD(12, 1); }""")
rep("""      running = found ? later : op(running, later);  // lane 0's is the prefix""","""      running = found ? later : op(running, later);  // lane 0's is the prefix
      if (lane == 0) { PROBE_ADD(5, clock64() - c1); PROBE_ADD(10, t - covered); PROBE_ADD(13, found ? 1 : 0); }""")
rep("""    barrier_wait(&prefixed[ps], unsigned(k / prefix_slots) & 1u);""","""    long long cq = clock64();
    barrier_wait(&prefixed[ps], unsigned(k / prefix_slots) & 1u);
    if (lane == 0 && warp == 0) { PROBE_ADD(0, clock64() - cq); PROBE_ADD(7, 1); }""")
rep("""    if (total != nullptr && t == tiles - 1 && warp == 0 && lane == 0) *total = op(tile_prefix, tile_total);
  }""","""    if (total != nullptr && t == tiles - 1 && warp == 0 && lane == 0) *total = op(tile_prefix, tile_total);
  }
  if (warp == 0 && lane == 0) { unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); g_probe[blockIdx.x * 16 + 11] = g; }""")
open(sys.argv[2],'w').write(s)
