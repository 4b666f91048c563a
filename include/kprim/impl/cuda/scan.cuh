#pragma once
// Device layer, hand-written CUDA: single-pass scan with decoupled look-back (Merrill &
// Garland, NVR-2016-002).
//
// One block per tile; a block takes its tile index from an atomic counter, so it only ever
// waits on tiles whose blocks are already running (no deadlock whatever the scheduler does).
// Each thread gets its own run of `items` consecutive elements (aligned full tiles: coalesced
// 16-byte loads turned into runs through shared memory by WarpRuns), folds them, and the block
// scans the thread folds (warp shuffles + one partial per warp). The block then publishes its
// tile aggregate (flag AGGREGATE), and warp 0 looks back over a window of 32 predecessors at
// once: each lane reads one predecessor's flag, the warp waits until none is EMPTY, takes the
// nearest INCLUSIVE prefix and the aggregates after it, and folds them in tile order with
// shuffles; without an INCLUSIVE flag in the window it moves 32 tiles back. The tile then
// publishes its inclusive prefix (flag INCLUSIVE) and every thread rescans its run from its
// prefix and stores it. The runs stay in shared memory (runs held in registers were slower:
// perf_tests/results/README.md), and with ScanBeforeLookBack (the default) the other warps rescan
// theirs from the block-local prefix while warp 0 looks back, the tile prefix being added as the
// runs are stored. In: n reads, out: n writes, plus a few bytes per tile: the 2n traffic of a copy.
//
// A tile's flag and value share one word (TileWord), so publishing and reading are single
// accesses at GPU scope that bypass the non-coherent L1.

#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/load.cuh>
#include <kprim/ops.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// A tuning of the scan kernel: threads per block, items per thread (a multiple of the 16-byte
/// vector width), the minimum resident blocks per SM the compiler must allow (a register cap),
/// how many independent chains fold and rescan a run (Chains), and whether each lane rescans its
/// run from the block-local prefix while warp 0 looks back, the tile prefix being applied as the
/// run is stored (ScanBeforeLookBack).
template <int BlockSize, int Items, int MinBlocksPerSM, int Chains = 2, bool ScanBeforeLookBack = true>
struct ScanPolicy {
  static constexpr int block_size = BlockSize;
  static constexpr int items = Items;
  static constexpr int min_blocks_per_sm = MinBlocksPerSM;
  static constexpr int chains = Chains;
  static constexpr bool scan_before_look_back = ScanBeforeLookBack;
  static constexpr std::int64_t tile_size = std::int64_t(BlockSize) * Items;
  static_assert(BlockSize % 32 == 0, "kprim: CUDA block sizes are whole warps");
};

// Default tile shapes: 6 blocks of 128 threads per SM, 2 chains, early rescan; 64 items per thread
// for 4-byte types, 32 for 8-byte, 16 for 16-byte (not tuned).
// H200, kprim-scan-tuning, 2026-11-23: CUB time / kprim time 1.04-1.07 (float, int32, double) and
// 1.01 (int64) at 2^26; every candidate measured, and what was dropped: perf_tests/results/README.md
// ("Tuning history of the CUDA kernels").
template <class T>
using default_scan_policy = std::conditional_t<
    sizeof(T) <= 4, ScanPolicy<128, 64, 6>,
    std::conditional_t<sizeof(T) == 8, ScanPolicy<128, 32, 6>, ScanPolicy<128, 16, 6>>>;

enum TileFlag : unsigned { tile_empty = 0, tile_aggregate = 1, tile_inclusive = 2 };

/// How a tile's status and value are published: one 8-byte word (values of up to 4 bytes), one
/// 16-byte pair (8 bytes), or value then flag with fences between (16 bytes).
enum class TileWordKind { narrow, wide, split };
template <class T>
inline constexpr TileWordKind tile_word_kind_v =
    sizeof(T) <= 4 ? TileWordKind::narrow : (sizeof(T) <= 8 ? TileWordKind::wide : TileWordKind::split);

/// A tile's status and value in one word, written and read with one instruction, so a reader
/// never sees a flag without its value and needs no fence (one L2 round trip per look-back
/// window instead of flag, fence, value). Up to 4-byte T: value in the low half of a 64-bit word;
/// 8-byte T: a 16-byte pair moved with one vector access (as CUB's tile state does). Larger T
/// cannot share one access with its flag: the value is stored, fenced, then the flag (and read
/// in the opposite order), into one slot for the aggregate and one for the inclusive prefix (as
/// CUB's tile state for large types; one shared slot would let a reader that saw AGGREGATE read
/// the INCLUSIVE value being written over it, which the first GPU run of complex<double> scans hit).
template <class T, TileWordKind Kind = tile_word_kind_v<T>>
struct TileWord;

template <class T>
struct alignas(8) TileWord<T, TileWordKind::narrow> {
  unsigned long long bits;
  __device__ static void publish(TileWord* word, T value, unsigned flag) {
    unsigned value_bits = 0;
    __builtin_memcpy(&value_bits, &value, sizeof(T));
    const unsigned long long bits = (static_cast<unsigned long long>(flag) << 32) | value_bits;
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(word), "l"(bits) : "memory");
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& flag) {
    unsigned long long bits;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(bits) : "l"(word) : "memory");
    flag = unsigned(bits >> 32);
    const unsigned value_bits = unsigned(bits);
    __builtin_memcpy(&value, &value_bits, sizeof(T));
  }
};

template <class T>
struct alignas(16) TileWord<T, TileWordKind::wide> {
  unsigned long long bits, flag;
  __device__ static void publish(TileWord* word, T value, unsigned flag) {
    unsigned long long value_bits = 0;
    __builtin_memcpy(&value_bits, &value, sizeof(T));
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(word), "l"(value_bits),
                 "l"(static_cast<unsigned long long>(flag))
                 : "memory");
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& flag) {
    unsigned long long value_bits, flag_bits;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(value_bits), "=l"(flag_bits) : "l"(word) : "memory");
    flag = unsigned(flag_bits);
    __builtin_memcpy(&value, &value_bits, sizeof(T));
  }
};

template <class T>
struct alignas(16) TileWord<T, TileWordKind::split> {
  // A tile publishes twice (aggregate, then inclusive prefix): each value has its own slot, written
  // once before its flag, so a reader that saw a flag reads the value that flag announced.
  static constexpr int words = (sizeof(T) + 3) / 4;
  unsigned aggregate_words[words];
  unsigned inclusive_words[words];
  unsigned flag;
  __device__ static void publish(TileWord* word, T value, unsigned flag) {
    unsigned bits[words] = {};
    __builtin_memcpy(bits, &value, sizeof(T));
    unsigned* const slot = flag == tile_inclusive ? word->inclusive_words : word->aggregate_words;
#pragma unroll
    for (int w = 0; w < words; ++w) __stcg(slot + w, bits[w]);
    __threadfence();  // the value is visible device-wide before its flag
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(&word->flag), "r"(flag) : "memory");
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& flag) {
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(flag) : "l"(&word->flag) : "memory");
    if (flag == tile_empty) return;
    __threadfence();  // the flag was read before the value
    const unsigned* const slot = flag == tile_inclusive ? word->inclusive_words : word->aggregate_words;
    unsigned bits[words];
#pragma unroll
    for (int w = 0; w < words; ++w) bits[w] = __ldcg(slot + w);
    __builtin_memcpy(&value, bits, sizeof(T));
  }
};

/// Shared-memory index with one padding slot every 32 elements (bank-conflict-free transposes).
__host__ __device__ constexpr int exchange_padded(int index) { return index + index / 32; }

/// Called by all 32 lanes of warp 0 of tile `tile` (> 0): op over every earlier tile, in order.
template <class T, class Op>
__device__ T look_back(const TileWord<T>* words, std::int64_t tile, const Op& op, const T& identity) {
  const int lane = lane_id();
  T prefix = identity;
  for (std::int64_t nearest = tile - 1;; nearest -= warp_size) {
    const std::int64_t predecessor = nearest - lane;  // lane 0 looks at the nearest
    unsigned flag = tile_inclusive;
    T value = identity;
    if (predecessor >= 0) TileWord<T>::read(words + predecessor, value, flag);
    while (__any_sync(full_warp_mask, flag == tile_empty))
      if (flag == tile_empty) TileWord<T>::read(words + predecessor, value, flag);
    const unsigned inclusive_lanes = __ballot_sync(full_warp_mask, flag == tile_inclusive);
    const int stop = inclusive_lanes ? __ffs(int(inclusive_lanes)) - 1 : warp_size - 1;
    if (lane > stop) value = identity;
    // Lanes stop .. 0 hold tiles in increasing order: the higher lane is the left operand.
#pragma unroll
    for (int offset = 1; offset < warp_size; offset *= 2)
      value = op(shuffle_down(value, offset), value);
    prefix = op(shuffle_index(value, 0), prefix);
    if (inclusive_lanes) return prefix;
  }
}

/// Scans source (element i converted to the accumulator T as it is loaded: an Input of any
/// element type, or a functor) into sink (sink.put(i, value): an Output, or a callback). With
/// VectorIn / VectorOut (an Input / Output, contiguous and 16-byte aligned) the tiles move in
/// 16-byte vectors; otherwise each warp reads and writes its elements in index order, 32
/// consecutive indices per instruction.
template <class T, class Op, class Policy, class Source, class Sink, bool VectorIn, bool VectorOut>
__global__ void __launch_bounds__(Policy::block_size, Policy::min_blocks_per_sm)
    scan_kernel(Source in, Sink out, std::int64_t n, bool exclusive, T seed, Op op, T* total, TileWord<T>* words,
                unsigned* tile_counter) {
  constexpr int scan_block_size = Policy::block_size;
  constexpr int items = Policy::items;
  constexpr std::int64_t tile_size = Policy::tile_size;
  static_assert(items % Vector16<T>::size == 0, "kprim: scan items per thread must fill whole 16-byte vectors");
  __shared__ BlockStorage<T, scan_block_size> storage;
  using runs = WarpRuns<T, items>;
  __shared__ Slots<T, (scan_block_size / warp_size) * runs::elements> exchange_storage;
  __shared__ std::int64_t tile_slot;
  __shared__ Slots<T, 1> prefix_storage;
  T& prefix_slot = prefix_storage[0];
  const T identity = identity_of<T>(op);

  std::int64_t tile = 0;
  if (gridDim.x > 1) {
    if (threadIdx.x == 0) tile_slot = atomicAdd(tile_counter, 1u);
    __syncthreads();
    tile = tile_slot;
  }
  const bool full_tile = (tile + 1) * tile_size <= n;

  // Full aligned tiles move through shared memory warp by warp (WarpRuns): coalesced vector
  // loads, then each lane takes its own run of `items` consecutive elements.
  constexpr int per_warp = warp_size * items;
  const int lane = lane_id();
  T* const exchange = exchange_storage.data() + (threadIdx.x / warp_size) * runs::elements;
  const std::int64_t warp_first = tile * tile_size + std::int64_t(threadIdx.x / warp_size) * per_warp;
  T thread_total;
  constexpr int chains = Policy::chains;
  [[maybe_unused]] T sub_totals[chains];
  if constexpr (VectorIn) {
    if (full_tile) runs::stage(in.data + warp_first, exchange, lane);
    else runs::stage_partial(in.data + warp_first, n - warp_first, identity, exchange, lane);  // the last tile
  } else {
    runs::stage_indexed(in, warp_first, n, identity, exchange, lane);
  }
  runs::fold(exchange, lane, op, sub_totals);
  thread_total = sub_totals[0];
#pragma unroll
  for (int c = 1; c < chains; ++c) thread_total = op(thread_total, sub_totals[c]);
  T aggregate;
  const T thread_prefix = block_exclusive_scan<scan_block_size>(thread_total, op, identity, aggregate, storage);

  T tile_prefix = seed;
  if (gridDim.x > 1) {
    if (tile == 0) {
      if (threadIdx.x == 0) TileWord<T>::publish(words, op(seed, aggregate), tile_inclusive);
    } else {
      if (threadIdx.x < warp_size) {
        if (threadIdx.x == 0) TileWord<T>::publish(words + tile, aggregate, tile_aggregate);
        const T exclusive_prefix = look_back(words, tile, op, identity);  // tile 0's prefix holds the seed
        if (threadIdx.x == 0) {
          TileWord<T>::publish(words + tile, op(exclusive_prefix, aggregate), tile_inclusive);
          prefix_slot = exclusive_prefix;
        }
      }
    }
  }
  // Early rescan: every warp but 0 rescans its runs from the block-local prefix while warp 0
  // looks back (warp 0 after it); the tile prefix joins on the way out.
  constexpr bool early = Policy::scan_before_look_back;
  if constexpr (early) runs::scan_in_place(exchange, lane, thread_prefix, exclusive, op, sub_totals);
  if (gridDim.x > 1 && tile != 0) {
    __syncthreads();
    tile_prefix = prefix_slot;
  }

  if constexpr (!early) runs::scan_in_place(exchange, lane, op(tile_prefix, thread_prefix), exclusive, op, sub_totals);
  // The early rescan left the runs without the tile prefix: it joins as they are stored.
  const auto stored = [&](const T& x) {
    if constexpr (early) return op(tile_prefix, x);
    else return x;
  };
  if constexpr (VectorOut) {
    if (full_tile) runs::unstage(out.data + warp_first, exchange, lane, stored);
    else runs::unstage_partial(out.data + warp_first, n - warp_first, exchange, lane, stored);
  } else if constexpr (requires { out.put.prepare(std::int64_t(0)); }) {
    runs::unstage_prepared(out, warp_first, n, exchange, lane, stored);
  } else {
    runs::unstage_indexed([&](std::int64_t i, const T& x) { out.put(i, x); }, warp_first, n, exchange, lane, stored);
  }
  if (total != nullptr && tile == gridDim.x - 1 && threadIdx.x == 0) *total = op(tile_prefix, aggregate);
}

/// Tiles `Policy` cuts n elements into (at least one: n = 0 still writes the total).
template <class Policy>
constexpr std::int64_t scan_tiles(std::int64_t n) {
  return n <= Policy::tile_size ? 1 : (n + Policy::tile_size - 1) / Policy::tile_size;
}

/// Temporary bytes of a `Policy` scan of n elements of T: a tile counter and one status word per
/// tile (none for a single tile).
template <class T, class Policy>
constexpr std::size_t scan_temp_bytes_for(std::int64_t n) {
  const std::int64_t tiles = scan_tiles<Policy>(n);
  return tiles == 1 ? 0 : 16 + std::size_t(tiles) * sizeof(TileWord<T>);
}

/// Enqueues a `Policy` scan of source into sink on `stream`; `temp` holds
/// scan_temp_bytes_for<T, Policy>(n) bytes of device memory (zeroed here). Returns the launch's
/// error code. Vector loads and stores are compiled only for Input / Output of whole 16-byte
/// vectors (an Input of In needs whole input vectors in each lane's run of `items`).
template <class T, class Op, class Policy, class Source, class Sink>
cudaError_t launch_scan(cudaStream_t stream, const Source& in, const Sink& out, std::int64_t n, bool exclusive, T seed,
                        Op op, T* total, void* temp) {
  const std::int64_t tiles = scan_tiles<Policy>(n);
  TileWord<T>* words = nullptr;
  unsigned* counter = nullptr;
  if (tiles > 1) {
    auto* bytes = static_cast<unsigned char*>(temp);
    counter = reinterpret_cast<unsigned*>(bytes);
    words = reinterpret_cast<TileWord<T>*>(bytes + 16);
    if (const cudaError_t error = cudaMemsetAsync(bytes, 0, scan_temp_bytes_for<T, Policy>(n), stream)) return error;
  }
  const auto launch = [&](auto vector_in, auto vector_out) {
    scan_kernel<T, Op, Policy, Source, Sink, decltype(vector_in)::value, decltype(vector_out)::value>
        <<<unsigned(tiles), Policy::block_size, 0, stream>>>(in, out, n, exclusive, seed, op, total, words, counter);
    return cudaGetLastError();
  };
  using yes = std::true_type;
  using no = std::false_type;
  constexpr bool out_vectors = std::is_same_v<Sink, Output<T>>;
  if constexpr (is_input_v<Source>) {
    using In = typename Source::element_type;
    constexpr bool in_vectors = vectorizable_v<In> && Policy::items % vector_width_v<In> == 0;
    if constexpr (in_vectors && out_vectors) {
      // Both sides in vectors, or neither: the two kernels a View-to-View scan compiles.
      if (in.stride == 1 && out.stride == 1 && is_aligned16(in.data) && is_aligned16(out.data)) return launch(yes{}, yes{});
    }
    return launch(no{}, no{});
  } else {
    if constexpr (out_vectors) {
      if (out.stride == 1 && is_aligned16(out.data)) return launch(no{}, yes{});
    }
    return launch(no{}, no{});
  }
}

}  // namespace kprim::impl::cuda
