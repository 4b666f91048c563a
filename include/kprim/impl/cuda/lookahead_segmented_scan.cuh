#pragma once
// Device layer, hand-written CUDA, sm_90 and later: long segmented scans on the look-ahead kernel's
// pipeline (lookahead_scan.cuh): the same producer (bulk loads into a ring of 4 tiles), look-ahead
// warp and bulk stores, with (value, has-head) pairs in the tile words, for an op that commutes:
//   - the reduce warp finds the tile's last head in the head bits and folds the elements from it
//     on (those before it masked to the identity): the pair (that fold, whether the tile holds a
//     head) is the tile's word;
//   - the look-ahead warp folds the words of the tiles before the block's next one from the last
//     word with a head on;
//   - each compute lane takes a run of 4 consecutive 16-byte vectors, folds each vector from its
//     last head on, combines the 4 (fold, has-head) pairs in order, the warp scans the lanes' folds
//     once a tile (heads by ballot: each lane adds the lanes from its segment's first on), and
//     once the tile's prefix is in each vector is rescanned in registers from its carry,
//     restarting at its heads.
// The head bits of a tile are loaded once its index is known, while its data is on its way; with
// CSR offsets (segments::OffsetSegments) a fourth warp finds them in the offsets meanwhile. Tiles
// wholly inside the segments go out with one bulk store; the others element by element, only the
// elements that belong to a segment. segmented_scan.cuh sends a scan here when
// lookahead_segmented_scan_avail_v holds, from where the plain scan takes the look-ahead kernel
// (takes_lookahead_scan), between contiguous 16-byte aligned Views.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <kprim/impl/cuda/lookahead_scan.cuh>

#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// Whether a segmented scan of In into T with Op takes the look-ahead kernel (on sm_90): 4- and
/// 8-byte T read as T with a commutative op that has an identity. H200, 2026-12-02, through the
/// calls, time / the lagged kernel's at 2^26 (2^24), three alternations: float ~1000 0.97 (0.98),
/// 1-32 0.97 (1.03), exclusive 0.91 (0.96), fixed segments of 1000 0.97 (1.01); against the
/// previous look-ahead form (elements put in order, results kept beside them) double ~1000 0.98
/// (0.99), exclusive 0.94 (0.95); floats a further 0.96-1.00 since (HeldStage, the fold by
/// comparison). Ops that do not commute keep the lagged kernel
/// (perf_tests/results/README.md, "Vectors rescanned in place, and 8-byte words for float pairs").
template <class T, class In, class Op>
inline constexpr bool lookahead_segmented_scan_avail_v =
    std::is_same_v<T, In> && lookahead_scan_avail_v<T, Op> && is_commutative_v<Op>;

/// Whether the kernel finds each tile's heads in CSR offsets itself (segments::OffsetSegments)
/// rather than asking `Heads` for a run's bits (run_heads).
template <class Heads>
inline constexpr bool finds_tile_heads_v = requires { Heads::finds_tile_heads; };

namespace lookahead {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/// Lane-parallel narrowing: [low, high] holds the first s with offsets(s) >= first; value(j) is
/// offsets(probe(j * 32 + lane)) for j < PerLane, probe(i) increasing in i (at most high - 1).
/// Returns the first probe at or past `first` (PerLane * 32: none).
template <int PerLane, class Value, class Probe>
__device__ __forceinline__ int narrow(const Value& value, const Probe& probe, std::int64_t first, std::int64_t& low,
                                      std::int64_t& high) {
  int at = PerLane * warp_size;
#pragma unroll
  for (int j = PerLane - 1; j >= 0; --j) {
    const unsigned ballot = __ballot_sync(full_warp_mask, value(j) >= first);
    if (ballot != 0) at = j * warp_size + __ffs(ballot) - 1;
  }
  const std::int64_t next_low = at > 0 ? probe(at - 1) + 1 : low;
  if (at < PerLane * warp_size) high = probe(at);
  low = next_low;
  return at;
}

/// The heads warp's work for tile t when the heads come from CSR offsets: bit m of words (the
/// tile's head words in shared memory) set when element t * tile_size + m starts a segment, i.e.
/// is some offsets(s), s <= S. The first such s (s*) is bracketed by the search top (`top`:
/// offsets((i + 1)(S + 1) / (TopProbes + 1)), i < TopProbes, then offsets(0) and offsets(S), read
/// once a block into shared memory: in registers they spilled, H200 2026-12-02, 50k local requests
/// a launch). The offsets
/// are then read 512 a round (16 loads a lane in flight) up to the first past the tile, from the
/// bracket's start, or, for a bracket wider than a round, from a quarter round before s* as
/// interpolated between the bracket's ends: one round trip for a tile of dense uniform offsets
/// instead of a search round and two reads. A window that proves to start past s* or to end
/// before it is dropped for rounds of 256 probes (binary search). The candidates before s* fall
/// before the tile and set nothing. Offsets that decrease give some heads (never an access out of
/// bounds).
template <class Shape, int TopProbes, class Segments>
__device__ __forceinline__ void find_tile_heads(const Segments& segments, const std::int64_t* top, std::int64_t t,
                                                std::int64_t n, std::uint32_t* words, int lane) {
  constexpr int head_words = int(Shape::tile_size / 32), search_per_lane = 8, search_round = search_per_lane * warp_size;
  constexpr int read_per_lane = 16, read_round = read_per_lane * warp_size;
  for (int w = lane; w < head_words; w += warp_size) words[w] = 0;
  __syncwarp();  // the zeros before any lane's bits
  const std::int64_t first = t * Shape::tile_size;
  const std::int64_t end = first + Shape::tile_size < n ? first + Shape::tile_size : n;
  const std::int64_t count = segments.count;
  std::int64_t low = 0, high = count + 1;  // high = S + 1: no offset at or past first
  std::int64_t s = 0;
  bool checked = true;  // whether s is known to be at most s*
  if (high - low > read_round) {
    const std::int64_t length = high - low;
    const auto top_index = [&](int i) { return (std::int64_t(i) + 1) * length / (TopProbes + 1); };
    const int at = narrow<TopProbes / warp_size>([&](int j) { return top[j * warp_size + lane]; }, top_index, first,
                                                 low, high);
    s = low;
    if (high - low > read_round) {  // interpolate s* between the bracket's known ends
      // In every bracket: where the guess misses (a power law's long segments beside runs of short
      // ones) the fallback's search costs what a search would have. H200, 2026-12-03, a power law at
      // 2^26 on this warp: 1.32x the marks call's time with the guess everywhere, 1.62x with it only
      // where the bracket's mean length is within 2x of the whole's (its segments keep the marks).
      const std::int64_t below_index = at > 0 ? top_index(at - 1) : 0;
      const std::int64_t below_value = at > 0 ? top[at - 1] : top[TopProbes];
      const std::int64_t above_index = at < TopProbes ? top_index(at) : count;
      const std::int64_t above_value = at < TopProbes ? top[at] : top[TopProbes + 1];
      if (above_value > below_value && first > below_value) {
        const double fraction = double(first - below_value) / double(above_value - below_value);
        const std::int64_t guess =
            below_index + std::int64_t(fraction * double(above_index - below_index)) - read_round / 4;
        s = guess < low ? low : guess < high ? guess : high;
        checked = false;
      }
    }
  }
  for (;;) {
    std::int64_t start[read_per_lane];
#pragma unroll
    for (int j = 0; j < read_per_lane; ++j) {
      const std::int64_t index = s + j * warp_size + lane;
      start[j] = index <= count ? segments.offset(index) : end;
    }
    if (!checked) {
      checked = true;
      const bool past = s > low && shuffle_index(start[0], 0) >= first;  // s* < s
      const bool short_of = shuffle_index(start[read_per_lane - 1], warp_size - 1) < first;  // s* >= s + read_round
      if (past || short_of) {
        if (past) high = s;
        else low = s + read_round < high ? s + read_round : high;
        while (high - low > search_round) {
          const std::int64_t base = low, length = high - low;
          const auto probe = [&](int i) { return base + (std::int64_t(i) + 1) * length / (search_round + 1); };
          std::int64_t probes[search_per_lane];
#pragma unroll
          for (int j = 0; j < search_per_lane; ++j) probes[j] = segments.offset(probe(j * warp_size + lane));
          narrow<search_per_lane>([&](int j) { return probes[j]; }, probe, first, low, high);
        }
        s = low;
        continue;
      }
    }
    bool past = false;
#pragma unroll
    for (int j = 0; j < read_per_lane; ++j) {
      if (start[j] >= first && start[j] < end) {
        const unsigned m = unsigned(start[j] - first);
        atomicOr(&words[m >> 5], 1u << (m & 31));
      }
      past |= start[j] >= end;
    }
    if (__any_sync(full_warp_mask, past)) break;
    s += read_round;
  }
}

/// The segmented kernel's look-ahead warp: as look_ahead_tiles over (value, head) pair words, with
/// each lane's words kept as values and a bit mask of heads (the plain kernel's registers and
/// batches), for a commutative op: a batch folds without a warp reduce a word, its last head (a
/// warp max) restarting every lane's fold, which takes the words from it on; the lanes join at the end.
template <class Shape, class T, class Pair, class PairOp, class Op, class PrefixSlots>
__device__ __forceinline__ void look_ahead_segments(const TileStates<Pair>& states, const T& identity,
                                                    const PairOp& pair_op, const Op& op, unsigned long long* issued,
                                                    unsigned long long* empty, unsigned long long* prefixed,
                                                    const std::int64_t* tile_of, PrefixSlots& prefix_of, int lane) {
  constexpr int stages = Shape::stages, prefix_slots = Shape::prefix_slots, batch = Shape::batch;
  Pair running = pair_op.identity();  // the tiles [0, covered)
  std::int64_t covered = 0;
  for (std::int64_t k = 0;; ++k) {
    const int s = int(k % stages);
    barrier_wait(&issued[s], unsigned(k / stages) & 1u);
    const std::int64_t t = tile_of[s];
    barrier_arrive(&empty[s]);  // the tile index is read; the look-ahead needs nothing else of the stage
    if (t < 0) break;
    T gap = identity;  // the lane's share of op over the words after the gap's last head
    unsigned gap_head = 0;
    for (std::int64_t base = covered; base < t; base += std::int64_t(warp_size) * batch) {
      T value[batch];
      unsigned empty_words = 0, heads = 0;  // bit j: word j still empty / holds a head
#pragma unroll
      for (int j = 0; j < batch; ++j) {
        const std::int64_t index = base + j * warp_size + lane;
        Pair word = pair_op.identity();
        unsigned status = tile_aggregate;
        if (index < t) states.read(index, word, status);
        value[j] = word.value;
        if (status == tile_empty) empty_words |= 1u << j;  // an earlier call's word: its head bit is not ours
        else heads |= (word.head != 0 ? 1u : 0u) << j;
      }
      while (__any_sync(full_warp_mask, empty_words != 0)) {
#pragma unroll
        for (int j = 0; j < batch; ++j)
          if (empty_words & (1u << j)) {
            Pair word;
            unsigned status;
            states.read(base + j * warp_size + lane, word, status);
            if (status != tile_empty) {
              empty_words &= ~(1u << j);
              value[j] = word.value;
              heads |= (word.head != 0 ? 1u : 0u) << j;
            }
          }
      }
      // 1 + the batch's last head as j * 32 + lane (0: none), the same in every lane.
      const unsigned last =
          __reduce_max_sync(full_warp_mask, heads != 0 ? unsigned((31 - __clz(heads)) * warp_size + lane + 1) : 0u);
      if (last != 0) {
        gap = identity;
        gap_head = 1;
      }
#pragma unroll
      for (int j = 0; j < batch; ++j)
        if (unsigned(j * warp_size + lane) + 1 >= last) gap = op(gap, value[j]);
    }
#pragma unroll
    for (int offset = warp_size / 2; offset > 0; offset /= 2) gap = op(gap, shuffle_index(gap, lane ^ offset));
    running = pair_op(running, Pair{gap, gap_head});
    covered = t;
    if (lane == 0) {
      const int ps = int(k % prefix_slots);
      prefix_of[ps] = running;
      barrier_arrive(&prefixed[ps]);
    }
  }
}
#endif

}  // namespace lookahead

/// The segmented kernel's threads: the look-ahead kernel's, and a heads warp for CSR offsets.
template <class T, class Heads>
inline constexpr int segmented_threads_v = LookaheadShape<T>::threads + (finds_tile_heads_v<Heads> ? warp_size : 0);

/// The segmented look-ahead scan of in[0, n) into out (both 16-byte aligned; in may be out),
/// restarting at every head (heads.run_heads<Bits>(first, n), first a multiple of Bits, or with
/// CSR offsets the bits a heads warp finds in them: find_tile_heads), writing only the elements in
/// [heads.covered_begin(), heads.covered_end()). Inclusive: op over the element's segment up to
/// it; Exclusive: op(init, the same up to the element before), init at a head. Pair / PairOp: the
/// (value, head) pair and its segmented op. Launched with segmented_threads_v<T, Heads> threads,
/// as lookahead_scan_kernel<T, Op> is otherwise; `states` holds scan_tile_state_for<Pair> of its tiles.
template <class T, class Pair, class PairOp, class Op, class Heads, bool Exclusive>
__global__ void __launch_bounds__(segmented_threads_v<T, Heads>, LookaheadShape<T>::blocks_per_sm)
    lookahead_segmented_scan_kernel(const T* in, T* out, Heads heads, std::int64_t n, std::int64_t tiles, T init,
                                    Op op, TileStates<Pair> states) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace lookahead;
  using Shape = LookaheadShape<T>;
  constexpr int width = Shape::vector_elements;
  constexpr int stages = Shape::stages, warps = Shape::compute_warps, rounds = Shape::rounds;
  constexpr int prefix_slots = Shape::prefix_slots;
  constexpr std::int64_t tile_size = Shape::tile_size;
  static_assert(is_commutative_v<Op>, "the segmented look-ahead folds in any order");
  static_assert(rounds * width <= 32, "a lane's element flags take one 32-bit mask");
  extern __shared__ uint4 lookahead_ring[];
  T* const ring = reinterpret_cast<T*>(lookahead_ring);
  __shared__ unsigned long long full[stages * Shape::load_chunks], empty[stages], issued[stages], reduced[stages],
      prefixed[prefix_slots];
  __shared__ std::int64_t tile_of[stages];
  __shared__ Slots<Pair, prefix_slots> prefix_of;
  __shared__ Slots<Pair, 2 * warps> warp_totals;  // two tiles' worth: a fast warp may write the next one's
  // CSR offsets: each stage's head bits, found by the heads warp (find_tile_heads), complete on headed.
  constexpr bool finds_heads = finds_tile_heads_v<Heads>;
  constexpr int head_words = finds_heads ? int(tile_size / 32) : 1;
  __shared__ std::uint32_t tile_heads[stages * head_words];
  constexpr int top_probes = 8 * warp_size;  // the heads warp's search top (find_tile_heads)
  __shared__ std::int64_t search_top[finds_heads ? top_probes + 2 : 1];
  __shared__ unsigned long long headed[finds_heads ? stages : 1];
  const int warp = int(threadIdx.x) / warp_size, lane = lane_id();
  const PairOp pair_op{op};
  const T identity = identity_of<T>(op);
  const Pair no_pair = pair_op.identity();
  if (threadIdx.x == 0) {
    if constexpr (finds_heads)
      for (int s = 0; s < stages; ++s) barrier_init(&headed[s], warp_size);  // every heads-warp lane
    init_barriers<Shape>(full, empty, issued, reduced, prefixed);
  }
  __syncthreads();

  if (warp == warps) {  // the producer
    produce_tiles<Shape>(in, n, tiles, states.tickets, ring, full, empty, issued, tile_of, lane);
    return;
  }
  if constexpr (finds_heads) {
    if (warp == warps + 3) {  // the heads warp: each tile's head bits, as soon as its index is known
      for (int i = lane; i < top_probes; i += warp_size)
        search_top[i] = heads.offset((std::int64_t(i) + 1) * (heads.count + 1) / (top_probes + 1));
      if (lane < 2) search_top[top_probes + lane] = heads.offset(lane == 0 ? 0 : heads.count);
      __syncwarp();  // every lane's probes before any lane's search
      for (std::int64_t k = 0;; ++k) {
        const int s = int(k % stages);
        barrier_wait(&issued[s], unsigned(k / stages) & 1u);
        const std::int64_t t = tile_of[s];  // read before the stage is free (the readers wait on headed)
        if (t < 0) break;
        find_tile_heads<Shape, top_probes>(heads, search_top, t, n, tile_heads + s * head_words, lane);
        barrier_arrive(&headed[s]);  // each lane's bits before the readers'
      }
      return;
    }
  }
  // A tile's heads (in stage s, the block's k-th tile): its words are in once headed[s] completes.
  const auto wait_for_heads = [&](std::int64_t k) {
    if constexpr (finds_heads) barrier_wait(&headed[int(k % stages)], unsigned(k / stages) & 1u);
  };

  // The reduce and compute warps learn their k-th tile's index as soon as the producer has its
  // ticket (issued), so their head bits are loaded while the tile's data is on its way (full).
  const auto tile_index = [&](std::int64_t k) {
    const int s = int(k % stages);
    barrier_wait(&issued[s], unsigned(k / stages) & 1u);
    return tile_of[s];
  };
  const auto wait_for_chunk = [&](std::int64_t k, int c) {  // chunk c of the k-th tile's data is in
    barrier_wait(&full[int(k % stages) * Shape::load_chunks + c], unsigned(k / stages) & 1u);
  };

  if (warp == warps + 1) {  // the reduce warp: each tile's pair, as soon as its data is in
    for (std::int64_t k = 0;; ++k) {
      const std::int64_t t = tile_index(k);
      if (t < 0) break;
      const int s = int(k % stages);
      const std::int64_t first = t * tile_size;
      // 1 + the position of the tile's last head (0: none), lane l looking at words l, l + 32, ...
      unsigned last = 0;
      wait_for_heads(k);
#pragma unroll
      for (int w = lane; w < int(tile_size / 32); w += warp_size) {
        std::uint32_t bits;
        if constexpr (finds_heads) bits = tile_heads[s * head_words + w];
        else bits = std::uint32_t(heads.template run_heads<32>(first + 32 * std::int64_t(w), n));
        if (bits != 0) last = unsigned(32 * w + 32 - __clz(int(bits)));
      }
      last = __reduce_max_sync(full_warp_mask, last);
      const int from = last == 0 ? 0 : int(last) - 1;
      // The chunks before the last head's are not waited for: the compute warps that read them wait.
      const T fold = fold_tile<Shape, true, true>(ring + s * tile_size, in + first, n - first, identity, op, from,
                                                  static_cast<T*>(nullptr), lane,
                                                  [&](int c) { wait_for_chunk(k, c); });
      barrier_arrive(&reduced[s]);
      barrier_arrive(&empty[s]);
      if (lane == 0) states.template publish<TileWrite::store>(t, Pair{fold, last != 0 ? 1u : 0u}, tile_aggregate);
    }
    return;
  }

  if (warp == warps + 2) {  // the look-ahead: the pair over every tile before the block's next one
    look_ahead_segments<Shape>(states, identity, pair_op, op, issued, empty, prefixed, tile_of, prefix_of, lane);
    return;
  }

  // The compute warps: lane l of warp w takes the tile's vectors (w * 32 + l) * rounds + j,
  // j < rounds: a run of rounds * width consecutive elements, then one segmented warp scan a
  // tile. Its r-th shared-memory access goes to vector r ^ swizzle, so the 8 lanes of a
  // quarter-warp touch 8 different 16-byte bank groups (a lane stride of 64 bytes alone would give
  // 4-way conflicts). The elements stay where they were loaded: x[r] holds the run's vector
  // r ^ swizzle, each vector is folded and rescanned in place, and only the vectors' 4 (value,
  // head) pairs and carries are put in the run's order, so the results go back to the
  // positions they came from.
  static_assert(rounds == 4, "the swizzle permutes 4 vectors");
  constexpr int run = rounds * width;
  constexpr unsigned vector_bits = (1u << width) - 1;
  const int lane_vector = (warp * warp_size + lane) * rounds;
  const int swizzle = (lane >> 1) & (rounds - 1);
  // a[r] = a[r ^ swizzle] for r < 4 (an involution: it maps run order to load order and back).
  const auto permute = [&](auto& a) {
    if (swizzle & 1) {
      const auto a0 = a[0], a2 = a[2];
      a[0] = a[1], a[1] = a0, a[2] = a[3], a[3] = a2;
    }
    if (swizzle & 2) {
      const auto a0 = a[0], a1 = a[1];
      a[0] = a[2], a[2] = a0, a[1] = a[3], a[3] = a1;
    }
  };
  const std::int64_t covered_begin = heads.covered_begin(), covered_end = heads.covered_end();  // read once
  HeldStage held;
  for (std::int64_t k = 0;; ++k) {
    const std::int64_t t = tile_index(k);
    if (t < 0) break;
    const int s = int(k % stages);
    const T* const stage = ring + s * tile_size;
    const std::int64_t tile_first = t * tile_size;
    const std::int64_t lane_first = tile_first + std::int64_t(lane_vector) * width;
    // Bit m of `starts`: element m of the lane's run starts a segment; vector_heads[r]: those of x[r].
    unsigned starts;
    if constexpr (finds_heads) {
      static_assert(32 % run == 0, "a lane's run takes bits of one head word");
      const int bit = lane_vector * width;
      wait_for_heads(k);
      starts = (tile_heads[s * head_words + bit / 32] >> (bit % 32)) & unsigned((1ull << run) - 1);
    } else {
      starts = unsigned(heads.template run_heads<run>(lane_first, n));
    }
    unsigned vector_heads[rounds];
#pragma unroll
    for (int r = 0; r < rounds; ++r) vector_heads[r] = (starts >> ((r ^ swizzle) * width)) & vector_bits;
    // Every chunk (waiting for the warp's own alone took a register: ptxas spilled 20 bytes, not 8).
    for (int c = 0; c < Shape::load_chunks; ++c) wait_for_chunk(k, c);
    const bool whole = tile_first + tile_size <= n;
    T x[rounds][width];
    Pair part[rounds];  // x[r] from its last head on, and whether it holds one
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const int v = lane_vector + (r ^ swizzle);
      if (whole) stage_vector(stage, v, x[r]);
      else last_tile_vector(stage, v, in + tile_first, int(n - tile_first), identity, x[r]);
      // op over the vector from its last head on: a comparison an element (the head bits' tests
      // are left to the rescan, so no mask of them is kept in a register).
      const int last_head = vector_heads[r] != 0 ? 31 - __clz(int(vector_heads[r])) : 0;
      T fold = identity;
#pragma unroll
      for (int e = 0; e < width; ++e)
        if (e >= last_head) fold = op(fold, x[r][e]);
      part[r] = Pair{fold, vector_heads[r] != 0 ? 1u : 0u};
    }
    permute(part);  // now in the run's order
    Pair lane_part = part[0];
#pragma unroll
    for (int j = 1; j < rounds; ++j) lane_part = pair_op(lane_part, part[j]);
    // The warp's segmented scan of the lanes' folds: heads by ballot, each lane adding only the
    // lanes from its segment's first on (the last lane at or below it whose run has a head).
    const unsigned headed_lanes = __ballot_sync(full_warp_mask, starts != 0);
    const unsigned at_or_below = headed_lanes & ((2u << lane) - 1);
    const int reach = at_or_below != 0 ? __clz(at_or_below) - (31 - lane) : lane;
    T inclusive = lane_part.value;
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2) {
      const T up = shuffle_up(inclusive, offset);
      if (offset <= reach) inclusive = op(up, inclusive);
    }
    // op over the lane's segment from the warp's first element up to the lane's first, and whether
    // a head lies in that span (else the warp's and tile's prefixes come first).
    T below = shuffle_up(inclusive, 1);
    if (lane == 0) below = identity;
    const bool below_headed = (headed_lanes & ((1u << lane) - 1)) != 0;
    const T warp_last = shuffle_index(inclusive, warp_size - 1);
    const bool bulk = whole && tile_first >= covered_begin && tile_first + tile_size <= covered_end;
    if (!bulk) {
      // The tile is in registers: the stage is free. `reduced` is waited first, so that every one
      // of its phases is observed (else synccheck reports the reduce warp's next arrive as a
      // missing wait; H200, 2026-12-02, tiles outside the offsets) and the reduce warp cannot
      // complete the stage's next phase too before this wait (which would then deadlock).
      barrier_wait(&reduced[s], unsigned(k / stages) & 1u);
      barrier_arrive(&empty[s]);
    }
    if (lane == 0) warp_totals[int(k & 1) * warps + warp] = Pair{warp_last, headed_lanes != 0 ? 1u : 0u};
    asm volatile("bar.sync 1, %0;" ::"r"(warps * warp_size) : "memory");  // the compute warps only
    Pair warp_prefix = no_pair;
#pragma unroll
    for (int w = 0; w < warps; ++w)
      if (w < warp) warp_prefix = pair_op(warp_prefix, warp_totals[int(k & 1) * warps + w]);
    if (warp == 0 && lane == 0) held.release(empty);  // the last tile's store has long read its stage
    const int ps = int(k % prefix_slots);
    barrier_wait(&prefixed[ps], unsigned(k / prefix_slots) & 1u);
    const T offset = pair_op(prefix_of[ps], warp_prefix).value;  // op over the segment before the warp's first
    // carry[j]: op over the segment before vector j of the run (unused where j starts with a head).
    T carry[rounds];
    carry[0] = below_headed ? below : T(op(offset, below));
#pragma unroll
    for (int j = 1; j < rounds; ++j)
      carry[j] = part[j - 1].head != 0 ? part[j - 1].value : T(op(carry[j - 1], part[j - 1].value));
    permute(carry);  // now in load order: carry[r] is x[r]'s
    // Each vector rescanned in place from its carry, restarting at its heads.
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      T c = carry[r];
      if constexpr (Exclusive) c = op(init, c);  // op(init, the segment before the element)
#pragma unroll
      for (int e = 0; e < width; ++e) {
        const bool head = (vector_heads[r] >> e) & 1u;
        if constexpr (Exclusive) {
          const T before = head ? init : c;
          c = op(before, x[r][e]);
          x[r][e] = before;
        } else {
          c = head ? x[r][e] : T(op(c, x[r][e]));
          x[r][e] = c;
        }
      }
    }
    if (bulk) {
      uint4* const stage_vectors = reinterpret_cast<uint4*>(ring + s * tile_size);
      barrier_wait(&reduced[s], unsigned(k / stages) & 1u);  // the reduce warp may still read it
#pragma unroll
      for (int r = 0; r < rounds; ++r) {
        uint4 q;
        __builtin_memcpy(&q, x[r], 16);
        stage_vectors[lane_vector + (r ^ swizzle)] = q;
      }
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the writes before the store's reads
      asm volatile("bar.sync 2, %0;" ::"r"(warps * warp_size) : "memory");
      if (warp == 0 && lane == 0) {
        bulk_store(out + tile_first, stage_vectors, unsigned(tile_size * sizeof(T)));
        held.stage = s;  // freed once the store has read it (HeldStage)
      } else {
        barrier_arrive(&empty[s]);
      }
    } else {  // each lane its elements that belong to a segment
      const std::int64_t end = covered_end < n ? covered_end : n;
#pragma unroll
      for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int e = 0; e < width; ++e) {
          const std::int64_t i = lane_first + (r ^ swizzle) * width + e;
          if (i >= covered_begin && i < end) out[i] = x[r][e];
        }
    }
  }
  if (warp == 0 && lane == 0) {
    held.release(empty);
    bulk_wait();  // the block's stores are done before it leaves
  }
#else
  (void)in, (void)out, (void)heads, (void)n, (void)tiles, (void)init, (void)op, (void)states;
#endif
}

/// Whether this build's lookahead_segmented_scan_kernel runs sm_90 code on `device` (the current
/// one), checked once a device.
template <class T, class Pair, class PairOp, class Op, class Heads, bool Exclusive>
bool lookahead_segmented_scan_compiled(int device) {
  static PerDeviceFlag<true> compiled;
  return compiled.get(device, [](int) {
    return has_sm90_code(
        reinterpret_cast<const void*>(lookahead_segmented_scan_kernel<T, Pair, PairOp, Op, Heads, Exclusive>));
  });
}

/// Enqueues lookahead_segmented_scan_kernel of in into out on `stream` of `device` (the current
/// one); tile_state holds scan_tile_state_for<Pair> of tiles of LookaheadShape<T>::tile_size.
/// Returns the launch's error code.
template <bool Exclusive, class Pair, class PairOp, class T, class Op, class Heads>
cudaError_t launch_lookahead_segmented_scan(cudaStream_t stream, int device, const T* in, T* out, const Heads& heads,
                                            std::int64_t n, const T& init, const Op& op, TileState tile_state,
                                            int sm_count) {
  using Shape = LookaheadShape<T>;
  const std::int64_t tiles = (n + Shape::tile_size - 1) / Shape::tile_size;
  const auto kernel = lookahead_segmented_scan_kernel<T, Pair, PairOp, Op, Heads, Exclusive>;
  static PerDeviceFlag<false> configured;  // the ring's shared memory, raised once a device
  cudaError_t error = cudaSuccess;
  if (!configured.get(device, [&](int) {
        error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::ring_bytes);
        return error == cudaSuccess;
      }))
    return error;
  const std::int64_t grid = std::min(tiles, std::int64_t(sm_count > 0 ? sm_count : 1) * Shape::blocks_per_sm);
  kernel<<<unsigned(grid), segmented_threads_v<T, Heads>, Shape::ring_bytes, stream>>>(in, out, heads, n, tiles, init, op,
                                                                        TileStates<Pair>(tile_state, tiles));
  return cudaGetLastError();
}

}  // namespace kprim::impl::cuda

#endif
