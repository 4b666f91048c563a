#pragma once
// Device layer, hand-written CUDA, sm_90 and later: the look-ahead scan of long contiguous scans
// of 4- and 8-byte types with an op that has an identity (sums, mins, maxes, user ops).
//
// Persistent blocks (3 a SM), each with four roles and a ring of 4 tiles in shared memory:
//   - a producer warp takes a ticket per tile and loads the tile with 4 bulk copies (TMA,
//     cp.async.bulk), each on a barrier of its own, into a free stage of the ring (mbarriers
//     `full` / `empty`);
//   - a reduce warp folds each tile chunk by chunk as its data comes in and publishes the tile's
//     aggregate (a tile word of scan.cuh, flag AGGREGATE), whatever the block's earlier tiles wait for;
//   - a look-ahead warp keeps the block's running prefix: for the block's next tile t it folds
//     the aggregates of every tile from its previous tile up to t - 1 (256 tile words in flight at
//     once, empty ones read again), so no tile waits for another's inclusive prefix and nothing
//     walks back;
//   - 8 compute warps scan each tile in registers (each lane a 16-byte vector a round, a warp scan
//     of the lanes' folds), wait for the look-ahead's prefix, write the scanned tile back into its
//     stage once the reduce warp has read it (mbarrier `reduced`) and store it with one bulk copy
//     to global memory, which frees the stage. H200, 2026-11-29: the kernel 138 against 139-140 us at
//     2^26 floats (ncu), 2-4% faster instrumented at 2^24-2^26; through the calls 0.98-1.01 of
//     the time of stores from registers (perf_tests/results/README.md, "Bulk stores for the
//     look-ahead scan").
// The loads of the next tiles stay in flight whatever a block waits for. With a commutative op the
// reduce and look-ahead warps fold in any order (each lane its own elements, the lanes at the end);
// otherwise in order (the reduce warp through a 32 x 32 table in shared memory, the look-ahead warp
// with a warp reduce a row of tile words). No
// deadlock: a block waits only on aggregates of tiles with smaller tickets, all taken by running
// blocks, whose data is already on its way and whose reduce warps wait on nothing else.
// Every thread that reads a stage frees it itself (so racecheck sees each read released), the
// compute warps' writes are fenced to the async proxy before the bulk store reads them, and the
// producer fences the async proxy before each copy. H200, through the calls (perf_tests/results/
// README.md, "A look-ahead scan with bulk copies", "8-byte types on the look-ahead kernel"): float
// and int32 sums at 0.91 / 0.93 of a copy at 2^26 / 2^28 (1.24-1.27x CUB) against 0.84-0.85 for
// the lagged kernel (2026-11-28); double and int64 at 0.94 (1.16-1.23x CUB) against 0.88-0.91
// for the fetched-ahead kernel (2026-11-29).

#include <kprim/impl/cuda/scan.cuh>

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// The look-ahead scan's shape for T (4 or 8 bytes): 8 compute warps on tiles of 16 KiB (4 rounds
/// of a 16-byte vector a lane: 4096 4-byte or 2048 8-byte elements), a ring of 4 tiles (64 KiB), 3
/// blocks a SM. H200, lookahead-scan-2026-11-28.cu, copy time / time at 2^28 (float): 0.935 against
/// 0.913-0.918 for 5 stages at 2 blocks, 0.77 for tiles of 8 KiB.
template <class T>
struct LookaheadShape {
  static constexpr int compute_warps = 8, rounds = 4, stages = 4, blocks_per_sm = 3;
  /// Tile words a look-ahead lane has in flight: 8 of 4-byte T, 4 of 8-byte T (8 spilled 136 bytes).
  static constexpr int batch = 32 / int(sizeof(T));
  static constexpr int threads = (compute_warps + 3) * warp_size;
  static constexpr int vector_elements = 16 / int(sizeof(T));  ///< elements of a 16-byte vector
  static constexpr std::int64_t tile_size = std::int64_t(compute_warps) * warp_size * vector_elements * rounds;
  static constexpr int ring_bytes = int(tile_size * sizeof(T)) * stages;
  /// Bulk copies a tile, each completing on a barrier of its own: the reduce warp folds the first
  /// while the last is on its way. H200, 2026-12-03, time / that of one copy a tile, at 2^24 / 2^26
  /// / 2^28: float, int32, double scans 0.96-0.97 / 0.98-0.99 / 0.985-0.99 (segmented 0.94-1.015).
  static constexpr int load_chunks = 4;
  static constexpr int chunk_vectors = int(tile_size / vector_elements) / load_chunks;
  /// The look-ahead runs at most `stages` tiles ahead of the compute warps: prefixes take a ring twice as deep.
  static constexpr int prefix_slots = 2 * stages;
};

/// Whether a scan of T with Op may take the look-ahead kernel (when the device and the build have
/// sm_90): 4- and 8-byte types whose vectors hold whole elements, an op with an identity.
/// Scans of a narrower input into T (int32 counts into int64 offsets) keep the lagged kernel: the
/// lanes' stores of two 16-byte vectors each ran 12-19% slower there (H200, 2026-11-29).
template <class T, class Op>
inline constexpr bool lookahead_scan_avail_v = (sizeof(T) == 4 || sizeof(T) == 8) && alignof(T) <= sizeof(T) &&
                                               std::is_trivially_copyable_v<T> && HasIdentity<Op, T>;

namespace lookahead {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void barrier_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void barrier_arrive(unsigned long long* bar) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.shared::cta.b64 state, [%0];\n}" ::"r"(shared_address(bar))
               : "memory");
}
__device__ __forceinline__ void barrier_wait(unsigned long long* bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(shared_address(bar)), "r"(parity)
                 : "memory");
}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void barrier_arrive_expect(unsigned long long* bar, unsigned bytes) {
  asm volatile("{\n .reg .b64 state;\n mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n}" ::"r"(
                   shared_address(bar)),
               "r"(bytes)
               : "memory");
}
/// `bytes` (a multiple of 16) from global to shared memory, both 16-byte aligned, completing on `bar`.
__device__ __forceinline__ void bulk_load(void* shared, const void* global, unsigned bytes, unsigned long long* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(shared)),
               "l"(global), "r"(bytes), "r"(shared_address(bar))
               : "memory");
}
/// `bytes` (a multiple of 16) from shared to global memory, both 16-byte aligned, as one bulk
/// group of the calling thread (bulk_wait_read: the shared memory may be written again).
__device__ __forceinline__ void bulk_store(void* global, const void* shared, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(global), "r"(shared_address(shared)),
               "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
/// The calling thread's bulk stores have read their shared memory.
__device__ __forceinline__ void bulk_wait_read() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
/// The calling thread's bulk stores are done.
__device__ __forceinline__ void bulk_wait() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

/// The stage whose bulk store the first compute thread issued last: it frees it (arrives on `empty`)
/// only once the store has read it, and only at its next tile, before that tile's prefix wait, so
/// no compute warp waits for the read; the other compute threads free a stage as soon as their
/// writes are fenced. H200, 2026-12-02: the wait for the read and the barrier after it held ~14% of
/// a float segmented scan's stall samples; with this (and a leaner fold) float segmented calls
/// took 0.96-0.99 of their time at 2^24-2^26, plain scans 0.97-1.01 (perf_tests/results/README.md,
/// "Vectors rescanned in place, and 8-byte words for float pairs").
struct HeldStage {
  int stage = -1;
  __device__ __forceinline__ void release(unsigned long long* empty) {
    if (stage < 0) return;
    bulk_wait_read();
    barrier_arrive(&empty[stage]);
    stage = -1;
  }
};
#endif

/// Elements of a tile of `count` elements (up to the tile size) that the bulk copy moves: its whole
/// 16-byte vectors.
template <class T>
__host__ __device__ __forceinline__ std::int64_t tile_whole_vectors(std::int64_t count) {
  using Shape = LookaheadShape<T>;
  return (count < Shape::tile_size ? count : Shape::tile_size) & ~std::int64_t(Shape::vector_elements - 1);
}

/// Vector v of a stage.
template <class T, int Width>
__device__ __forceinline__ void stage_vector(const T* stage, int v, T (&x)[Width]) {
  const uint4 q = reinterpret_cast<const uint4*>(stage)[v];
  __builtin_memcpy(x, &q, 16);
}

/// The elements of vector v of the last tile, `count` elements (fewer than a tile) starting at
/// `global`: from the stage where the bulk copy put them, else from global memory, the op's
/// identity past the end. Only the last tile reads global memory here, so nothing but the bulk
/// copies writes a stage.
template <class T, int Width>
__device__ __forceinline__ void last_tile_vector(const T* stage, int v, const T* global, int count, const T& identity,
                                                 T (&x)[Width]) {
  if (Width * v + Width <= count - count % Width) {
    stage_vector(stage, v, x);
  } else {
#pragma unroll
    for (int e = 0; e < Width; ++e) x[e] = Width * v + e < count ? global[Width * v + e] : identity;
  }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/// Thread 0 of a look-ahead kernel's block sets up its barriers (a __syncthreads follows).
template <class Shape>
__device__ __forceinline__ void init_barriers(unsigned long long* full, unsigned long long* empty,
                                              unsigned long long* issued, unsigned long long* reduced,
                                              unsigned long long* prefixed) {
  for (int c = 0; c < Shape::stages * Shape::load_chunks; ++c) barrier_init(&full[c], 1);
  for (int s = 0; s < Shape::stages; ++s) {
    // Every thread that reads a stage or its tile index frees it itself (the compute warps, the
    // reduce warp, the look-ahead): each release orders its own reads (and the compute warps'
    // writes of a whole tile, once its bulk store has read them) before the next bulk copy.
    barrier_init(&empty[s], (Shape::compute_warps + 2) * warp_size);
    barrier_init(&issued[s], 1);
    barrier_init(&reduced[s], warp_size);  // the reduce warp is done reading: the stage may be written
  }
  for (int s = 0; s < Shape::prefix_slots; ++s) barrier_init(&prefixed[s], 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/// The reduce warp's fold of a tile (its stage, and `global`, count elements from its first, for the
/// last tile's tail): op over its elements, or with Masked over those from position `from` on; lane
/// 0 gets it. Any order with a Commutative op (each lane its own vectors, the lanes at the end),
/// else in order through `step_folds` (a padded 32 x 32 table of T in shared memory).
/// wait_chunk(c) returns once the stage holds the tile's chunk c (Shape::load_chunks of them).
template <class Shape, bool Commutative, bool Masked, class T, class Op, class WaitChunk>
__device__ __forceinline__ T fold_tile(const T* stage, const T* global, std::int64_t count, const T& identity,
                                       const Op& op, int from, T* step_folds, int lane, const WaitChunk& wait_chunk) {
  constexpr int width = Shape::vector_elements, chunk_vectors = Shape::chunk_vectors;
  constexpr std::int64_t tile_size = Shape::tile_size;
  constexpr int steps = int(tile_size / width) / warp_size;
  static_assert(chunk_vectors % warp_size == 0, "a step's vectors come in one chunk");
  const bool whole = count >= tile_size;
  const auto mask = [&](int v, T(&x)[width]) {
    if constexpr (Masked) {
      if (v * width < from) {
#pragma unroll
        for (int e = 0; e < width; ++e)
          if (v * width + e < from) x[e] = identity;
      }
    }
  };
  if constexpr (Commutative) {
    T fold[width];
#pragma unroll
    for (int e = 0; e < width; ++e) fold[e] = identity;
    // Masked: the warp's steps wholly before `from` are skipped (their chunks not waited for).
    const int first_vector = Masked ? (from / width) & ~(warp_size - 1) : 0;
    for (int c = first_vector / chunk_vectors; c < Shape::load_chunks; ++c) {
      wait_chunk(c);
      const int begin = c * chunk_vectors > first_vector ? c * chunk_vectors : first_vector;
      const int end = (c + 1) * chunk_vectors;
      if (whole) {
#pragma unroll 4
        for (int v = begin + lane; v < end; v += warp_size) {
          T x[width];
          stage_vector(stage, v, x);
          mask(v, x);
#pragma unroll
          for (int e = 0; e < width; ++e) fold[e] = op(fold[e], x[e]);
        }
      } else {
        for (int v = begin + lane; v < end; v += warp_size) {
          T x[width];
          last_tile_vector(stage, v, global, int(count), identity, x);
          mask(v, x);
#pragma unroll
          for (int e = 0; e < width; ++e) fold[e] = op(fold[e], x[e]);
        }
      }
    }
    T aggregate = fold[0];
#pragma unroll
    for (int e = 1; e < width; ++e) aggregate = op(aggregate, fold[e]);
#pragma unroll
    for (int offset = warp_size / 2; offset > 0; offset /= 2)
      aggregate = op(aggregate, shuffle_index(aggregate, lane ^ offset));
    return aggregate;
  } else {
    // In order: in step i lane l folds vector 32 i + l into row i, column l of a padded 32 x 32
    // table; lane r then folds row r, and a warp reduce the rows (one reduce a tile: a reduce
    // a step kept the aggregates late).
    static_assert(steps == warp_size, "the reduce warp's in-order fold takes a 32 x 32 table");
    constexpr int chunk_steps = chunk_vectors / warp_size;
#pragma unroll 4
    for (int i = 0; i < steps; ++i) {
      if (i % chunk_steps == 0) wait_chunk(i / chunk_steps);
      const int v = i * warp_size + lane;
      T x[width];
      if (whole) stage_vector(stage, v, x);
      else last_tile_vector(stage, v, global, int(count), identity, x);
      mask(v, x);
      T fold = x[0];
#pragma unroll
      for (int e = 1; e < width; ++e) fold = op(fold, x[e]);
      step_folds[i * (warp_size + 1) + lane] = fold;
    }
    __syncwarp();
    T row = step_folds[lane * (warp_size + 1)];
#pragma unroll 8
    for (int c = 1; c < warp_size; ++c) row = op(row, step_folds[lane * (warp_size + 1) + c]);
    __syncwarp();  // the rows are read before the next tile's steps write them
    return warp_reduce(row, op);
  }
}

/// The producer warp of a look-ahead kernel (Shape: LookaheadShape<T>): takes a ticket per tile and
/// bulk-loads the tile into the next free stage of the ring (full[s * load_chunks + c] completes
/// with its chunk c, issued[s] once tile_of[s] names it; tile_of[s] = -1 once the tickets pass `tiles`), then counts
/// the block out of the ticket slot.
template <class Shape, class T>
__device__ __forceinline__ void produce_tiles(const T* in, std::int64_t n, std::int64_t tiles, unsigned* tickets,
                                              T* ring, unsigned long long* full, unsigned long long* empty,
                                              unsigned long long* issued, std::int64_t* tile_of, int lane) {
  constexpr int stages = Shape::stages;
  constexpr std::int64_t tile_size = Shape::tile_size;
  for (std::int64_t k = 0;; ++k) {
    const int s = int(k % stages);
    if (k >= stages) barrier_wait(&empty[s], (unsigned(k / stages) & 1u) ^ 1u);
    unsigned ticket = 0;
    if (lane == 0) ticket = atomicAdd(tickets, 1u);
    const std::int64_t t = __shfl_sync(full_warp_mask, ticket, 0);
    if (t >= tiles) {
      if (lane == 0) {
        tile_of[s] = -1;
        for (int c = 0; c < Shape::load_chunks; ++c) barrier_arrive(&full[s * Shape::load_chunks + c]);
        barrier_arrive(&issued[s]);
      }
      break;
    }
    T* const stage = ring + s * tile_size;
    const std::int64_t first = t * tile_size;
    const std::int64_t bulk = tile_whole_vectors<T>(n - first);  // the last tile's tail: see last_tile_vector
    if (lane == 0) {
      tile_of[s] = t;
      // The readers of the stage's previous tile are done (empty[s]); their generic-proxy reads come
      // before this copy's async-proxy writes.
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      constexpr std::int64_t chunk = std::int64_t(Shape::chunk_vectors) * Shape::vector_elements;
#pragma unroll
      for (int c = 0; c < Shape::load_chunks; ++c) {
        const std::int64_t part = bulk - c * chunk < chunk ? bulk - c * chunk : chunk;  // whole vectors
        unsigned long long* const bar = &full[s * Shape::load_chunks + c];
        if (part > 0) {
          barrier_arrive_expect(bar, unsigned(part * sizeof(T)));
          bulk_load(stage + c * chunk, in + first + c * chunk, unsigned(part * sizeof(T)), bar);
        } else {
          barrier_arrive(bar);
        }
      }
      barrier_arrive(&issued[s]);
    }
  }
  if (lane == 0) count_out(tickets);
}

/// The look-ahead warp of a look-ahead kernel: for the block's next tile t, op over the tile words
/// (W, published by the reduce warps) of every tile from its previous tile up to t - 1 (32 x Batch
/// words in flight, empty ones read again), added to the running prefix that starts at `running`;
/// lane 0 puts each tile's prefix in prefix_of and arrives on prefixed. In order across the lanes
/// unless Commutative.
template <class Shape, int Batch, bool Commutative, class W, class WOp, class PrefixSlots>
__device__ __forceinline__ void look_ahead_tiles(const TileStates<W>& states, W running, const W& identity,
                                                 const WOp& op, unsigned long long* issued, unsigned long long* empty,
                                                 unsigned long long* prefixed, const std::int64_t* tile_of,
                                                 PrefixSlots& prefix_of, int lane) {
  constexpr int stages = Shape::stages, prefix_slots = Shape::prefix_slots;
  std::int64_t covered = 0;  // running holds the seed and the tiles [0, covered)
  for (std::int64_t k = 0;; ++k) {
    const int s = int(k % stages);
    barrier_wait(&issued[s], unsigned(k / stages) & 1u);
    const std::int64_t t = tile_of[s];
    barrier_arrive(&empty[s]);  // the tile index is read; the look-ahead needs nothing else of the stage
    if (t < 0) break;
    W gap = identity;
    for (std::int64_t base = covered; base < t; base += std::int64_t(warp_size) * Batch) {
      W value[Batch];
      unsigned empty_words = 0;  // bit j: word j still empty (a bit mask keeps the warp within its registers)
#pragma unroll
      for (int j = 0; j < Batch; ++j) {
        const std::int64_t index = base + j * warp_size + lane;
        value[j] = identity;
        unsigned status = tile_aggregate;
        if (index < t) states.read(index, value[j], status);
        if (status == tile_empty) empty_words |= 1u << j;
      }
      while (__any_sync(full_warp_mask, empty_words != 0)) {
#pragma unroll
        for (int j = 0; j < Batch; ++j)
          if (empty_words & (1u << j)) {
            unsigned status;
            states.read(base + j * warp_size + lane, value[j], status);
            if (status != tile_empty) empty_words &= ~(1u << j);
          }
      }
#pragma unroll
      for (int j = 0; j < Batch; ++j) {
        // In order for a non-commutative op: word base + 32 j + lane, folded across the lanes
        // (lane 0 keeps the gap); any order otherwise, folded across the lanes once at the end.
        if constexpr (Commutative) gap = op(gap, value[j]);
        else gap = op(gap, warp_reduce(value[j], op));
      }
    }
    if constexpr (Commutative) {
#pragma unroll
      for (int offset = warp_size / 2; offset > 0; offset /= 2) gap = op(gap, shuffle_index(gap, lane ^ offset));
    }
    running = op(running, gap);  // lane 0's is the prefix
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

/// The look-ahead scan of in[0, n) into out (both 16-byte aligned; in may be out), from seed,
/// inclusive or exclusive; *total (if not null) gets op(seed, all of in). Launched with
/// LookaheadShape<T>::threads threads, its ring_bytes of dynamic shared memory and at most
/// blocks_per_sm blocks a SM; `states` holds scan_tile_state_for of its tiles (the words start
/// empty for this epoch, the ticket slot zero, and the kernel leaves it zero).
template <class T, class Op>
__global__ void __launch_bounds__(LookaheadShape<T>::threads, LookaheadShape<T>::blocks_per_sm)
    lookahead_scan_kernel(const T* in, T* out, std::int64_t n, std::int64_t tiles, bool exclusive, T seed, Op op,
                          T* total, TileStates<T> states) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace lookahead;
  using Shape = LookaheadShape<T>;
  constexpr int width = Shape::vector_elements;
  constexpr int stages = Shape::stages, warps = Shape::compute_warps, rounds = Shape::rounds;
  constexpr int prefix_slots = Shape::prefix_slots;
  constexpr std::int64_t tile_size = Shape::tile_size;
  constexpr bool commutative = is_commutative_v<Op>;
  extern __shared__ uint4 lookahead_ring[];
  T* const ring = reinterpret_cast<T*>(lookahead_ring);
  __shared__ unsigned long long full[stages * Shape::load_chunks], empty[stages], issued[stages], reduced[stages],
      prefixed[prefix_slots];
  __shared__ std::int64_t tile_of[stages];
  __shared__ Slots<T, prefix_slots> prefix_of;
  __shared__ Slots<T, 2 * warps> warp_totals;  // two tiles' worth: a fast warp may write the next one's
  constexpr int steps = int(tile_size / width) / warp_size;  // the reduce warp's steps a tile
  static_assert(steps == warp_size, "the reduce warp's in-order fold takes a 32 x 32 table");
  __shared__ Slots<T, commutative ? 1 : steps * (warp_size + 1)> step_folds;
  const int warp = int(threadIdx.x) / warp_size, lane = lane_id();
  const T identity = identity_of<T>(op);
  if (threadIdx.x == 0) init_barriers<Shape>(full, empty, issued, reduced, prefixed);
  __syncthreads();

  if (warp == warps) {  // the producer
    produce_tiles<Shape>(in, n, tiles, states.tickets, ring, full, empty, issued, tile_of, lane);
    return;
  }

  // The reduce and compute warps learn their k-th tile (in stage k % stages) from `issued`: its
  // index, or -1 when the block has no more tiles; its data is in chunk by chunk (wait_for_chunk).
  const auto tile_index = [&](std::int64_t k) {
    const int s = int(k % stages);
    barrier_wait(&issued[s], unsigned(k / stages) & 1u);
    return tile_of[s];
  };
  const auto wait_for_chunk = [&](std::int64_t k, int c) {
    barrier_wait(&full[int(k % stages) * Shape::load_chunks + c], unsigned(k / stages) & 1u);
  };

  if (warp == warps + 1) {  // the reduce warp: each tile's aggregate, as soon as its data is in
    for (std::int64_t k = 0;; ++k) {
      const std::int64_t t = tile_index(k);
      if (t < 0) break;
      const int s = int(k % stages);
      const T* const stage = ring + s * tile_size;
      const std::int64_t first = t * tile_size;
      const T aggregate = fold_tile<Shape, commutative, false>(stage, in + first, n - first, identity, op, 0,
                                                               step_folds.data(), lane,
                                                               [&](int c) { wait_for_chunk(k, c); });
      barrier_arrive(&reduced[s]);
      barrier_arrive(&empty[s]);
      if (lane == 0) states.template publish<TileWrite::store>(t, aggregate, tile_aggregate);  // written once
    }
    return;
  }

  if (warp == warps + 2) {  // the look-ahead: op over every tile before the block's next one
    look_ahead_tiles<Shape, Shape::batch, commutative>(states, seed, identity, op, issued, empty, prefixed, tile_of,
                                                       prefix_of, lane);
    return;
  }

  // The compute warps: lane l of warp w takes vector (w * rounds + r) * 32 + l of the tile in round r.
  HeldStage held;
  for (std::int64_t k = 0;; ++k) {
    const std::int64_t t = tile_index(k);
    if (t < 0) break;
    for (int c = 0; c < Shape::load_chunks; ++c) wait_for_chunk(k, c);
    const int s = int(k % stages);
    const T* const stage = ring + s * tile_size;
    const std::int64_t tile_first = t * tile_size;
    const bool whole = tile_first + tile_size <= n;
    T value[rounds][width];
    T carry = identity;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      const int v = (warp * rounds + r) * warp_size + lane;
      T x[width];
      if (whole) stage_vector(stage, v, x);
      else last_tile_vector(stage, v, in + tile_first, int(n - tile_first), identity, x);
      T run[width];  // the lane's inclusive run
      run[0] = x[0];
#pragma unroll
      for (int e = 1; e < width; ++e) run[e] = op(run[e - 1], x[e]);
      T inclusive = run[width - 1];
#pragma unroll
      for (int offset = 1; offset < warp_size; offset *= 2) {
        const T up = shuffle_up(inclusive, offset);
        if (lane >= offset) inclusive = op(up, inclusive);
      }
      T before = shuffle_up(inclusive, 1);
      before = op(carry, lane == 0 ? identity : before);
#pragma unroll
      for (int e = 0; e < width; ++e)  // exclusive: each element gets the fold before it
        value[r][e] = op(before, exclusive ? (e == 0 ? identity : run[e > 0 ? e - 1 : 0]) : run[e]);
      carry = op(carry, shuffle_index(inclusive, warp_size - 1));
    }
    if (!whole) barrier_arrive(&empty[s]);  // the tile is in registers: the stage is free
    if (lane == 0) warp_totals[int(k & 1) * warps + warp] = carry;
    asm volatile("bar.sync 1, %0;" ::"r"(warps * warp_size) : "memory");  // the compute warps only
    T warp_prefix = identity, tile_total = identity;
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      const T x = warp_totals[int(k & 1) * warps + w];
      if (w < warp) warp_prefix = op(warp_prefix, x);
      tile_total = op(tile_total, x);
    }
    if (warp == 0 && lane == 0) held.release(empty);  // the last tile's store has long read its stage
    const int ps = int(k % prefix_slots);
    barrier_wait(&prefixed[ps], unsigned(k / prefix_slots) & 1u);
    const T tile_prefix = prefix_of[ps];
    const T offset = op(tile_prefix, warp_prefix);
    if (whole) {
      // The scanned tile goes back into its stage (each lane to the vectors it read) and out with
      // one bulk store; the stage is freed once the store has read it.
      uint4* const stage = reinterpret_cast<uint4*>(ring + s * tile_size);
      barrier_wait(&reduced[s], unsigned(k / stages) & 1u);  // the reduce warp may still read it
#pragma unroll
      for (int r = 0; r < rounds; ++r) {
        T y[width];
#pragma unroll
        for (int e = 0; e < width; ++e) y[e] = op(offset, value[r][e]);
        uint4 q;
        __builtin_memcpy(&q, y, 16);
        stage[(warp * rounds + r) * warp_size + lane] = q;
      }
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the writes before the store's reads
      asm volatile("bar.sync 2, %0;" ::"r"(warps * warp_size) : "memory");
      if (warp == 0 && lane == 0) {
        bulk_store(out + tile_first, stage, unsigned(tile_size * sizeof(T)));
        held.stage = s;  // freed once the store has read it
      } else {
        barrier_arrive(&empty[s]);
      }
    } else {  // the last tile, short: each lane its elements, from the warp's first
      const std::int64_t first = tile_first + std::int64_t(warp) * rounds * warp_size * width;
#pragma unroll
      for (int r = 0; r < rounds; ++r)
#pragma unroll
        for (int e = 0; e < width; ++e) {
          const std::int64_t i = first + (r * warp_size + lane) * width + e;
          if (i < n) out[i] = op(offset, value[r][e]);
        }
    }
    if (total != nullptr && t == tiles - 1 && warp == 0 && lane == 0) *total = op(tile_prefix, tile_total);
  }
  if (warp == 0 && lane == 0) {
    held.release(empty);
    bulk_wait();  // the block's stores are done before it leaves
  }
#else
  (void)in, (void)out, (void)n, (void)tiles, (void)exclusive, (void)seed, (void)op, (void)total, (void)states;
#endif
}

/// A fact about each of up to 64 devices, found once a device: whether find(device) held. A false
/// is found again on the next call unless RememberFalse (a failed driver call may be retried).
/// Devices past 64 find it on every call.
template <bool RememberFalse>
class PerDeviceFlag {
 public:
  template <class Find>
  bool get(int device, const Find& find) {
    const unsigned long long bit = device >= 0 && device < 64 ? 1ull << device : 0;
    if ((known_.load(std::memory_order_acquire) & bit) != 0) return (value_.load(std::memory_order_relaxed) & bit) != 0;
    const bool value = find(device);
    if (value) value_.fetch_or(bit, std::memory_order_relaxed);
    if (value || RememberFalse) known_.fetch_or(bit, std::memory_order_release);
    return value;
  }

 private:
  std::atomic<unsigned long long> known_{0}, value_{0};
};

/// Whether `kernel` runs sm_90 code on the current device: a device of compute capability 9.0 or
/// more, and code compiled for it (an older target's kernel is empty, also when the driver compiles
/// its PTX for a newer device).
inline bool has_sm90_code(const void* kernel) {
  cudaFuncAttributes attributes{};
  return cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess && attributes.binaryVersion >= 90 &&
         attributes.ptxVersion >= 90;
}
/// Whether this build's lookahead_scan_kernel<T, Op> runs sm_90 code on `device` (the current
/// one), checked once a device.
template <class T, class Op>
bool lookahead_scan_compiled(int device) {
  static PerDeviceFlag<true> compiled;
  return compiled.get(device, [](int) { return has_sm90_code(reinterpret_cast<const void*>(lookahead_scan_kernel<T, Op>)); });
}

/// Whether a scan of n elements of T takes the look-ahead kernel on a device of sm_count SMs: when
/// its blocks get 8 tiles each or more (13 M 4-byte or 6.5 M 8-byte elements on 132 SMs). H200,
/// through the calls: float, int32 (2026-11-28) 7-14% slower than the default and lagged kernels
/// at 2^22-2^23 (2.6-5 tiles a block), 1-5% faster at 2^24 (10), 7-10% at 2^26-2^28; double, int64
/// (2026-11-29) 2-9% faster than the fetched-ahead kernel at 2^23 (10 tiles a block), 5-7% at 2^24-2^28.
template <class T>
bool takes_lookahead_scan(std::int64_t n, int sm_count) {
  using Shape = LookaheadShape<T>;
  return n >= 8 * std::int64_t(sm_count) * Shape::blocks_per_sm * Shape::tile_size;
}

/// Enqueues lookahead_scan_kernel of in into out on `stream` of `device` (the current one);
/// tile_state holds scan_tile_state_for of tiles of LookaheadShape<T>::tile_size. Returns the
/// launch's error code.
template <class T, class Op>
cudaError_t launch_lookahead_scan(cudaStream_t stream, int device, const T* in, T* out, std::int64_t n, bool exclusive,
                                  T seed, Op op, T* total, TileState tile_state, int sm_count) {
  using Shape = LookaheadShape<T>;
  const std::int64_t tiles = (n + Shape::tile_size - 1) / Shape::tile_size;
  const auto kernel = lookahead_scan_kernel<T, Op>;
  // The ring is over the 48 KiB a launch gets by default: raised once a device (a driver call on
  // every launch cost ~4 us a call on an H200).
  static PerDeviceFlag<false> configured;
  cudaError_t error = cudaSuccess;
  if (!configured.get(device, [&](int) {
        error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Shape::ring_bytes);
        return error == cudaSuccess;
      }))
    return error;
  const std::int64_t grid = std::min(tiles, std::int64_t(sm_count > 0 ? sm_count : 1) * Shape::blocks_per_sm);
  kernel<<<unsigned(grid), Shape::threads, Shape::ring_bytes, stream>>>(in, out, n, tiles, exclusive, seed, op, total,
                                                                        TileStates<T>(tile_state, tiles));
  return cudaGetLastError();
}

}  // namespace kprim::impl::cuda
