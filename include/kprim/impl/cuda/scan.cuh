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
// Long scans run lagged (run_tiles): persistent blocks hold two tiles, and each publishes its next
// tile's aggregate before it looks back for the previous one, so no block sits on its only tile
// while it waits (that wait was half a block's life and held the copy to 0.85). Plain scans of
// 8-byte types also issue a tile's loads a round before they fold it (run_tiles_ahead), so a block
// keeps 16 KB in flight while it looks back and stores.
//
// A tile's flag and value share one word (TileWord), so publishing and reading are single
// accesses at GPU scope that bypass the non-coherent L1. The words are not zeroed between calls:
// each call's flags carry its epoch (TileState, impl/device/temporary_storage.hpp), and a word of
// an earlier call reads as empty; the kernels leave their ticket slot zero for the next launch.

#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/load.cuh>
#include <kprim/impl/device/temporary_storage.hpp>
#include <kprim/ops.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// A tuning of the scan kernel: threads per block, items per thread (a multiple of the 16-byte
/// vector width), the minimum resident blocks per SM the compiler must allow (a register cap),
/// how many independent chains fold and rescan a run (Chains), and whether each lane rescans its
/// run from the block-local prefix while warp 0 looks back, the tile prefix being applied as the
/// run is stored (ScanBeforeLookBack).
/// With Lagged, the blocks are persistent (MinBlocksPerSM per SM) and hold two tiles: each folds
/// and publishes its next tile before it looks back for and stores its previous one (run_tiles).
/// With FetchAhead too, a lagged block issues the loads of the tile after next into registers as
/// soon as it has written its next tile's into shared memory, so they are in flight while it folds,
/// looks back and stores (run_tiles_ahead; tiles moved in 16-byte vectors only).
template <int BlockSize, int Items, int MinBlocksPerSM, int Chains = 2, bool ScanBeforeLookBack = true,
          bool Lagged = false, bool FetchAhead = false>
struct ScanPolicy {
  static constexpr int block_size = BlockSize;
  static constexpr int items = Items;
  static constexpr int min_blocks_per_sm = MinBlocksPerSM;
  static constexpr int chains = Chains;
  static constexpr bool scan_before_look_back = ScanBeforeLookBack;
  static constexpr bool lagged = Lagged;
  static constexpr bool fetch_ahead = Lagged && FetchAhead;
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

// Long scans of accumulators up to 8 bytes take the lagged kernel, 4096 (4-byte) or 2048 (8-byte)
// elements a tile, 6 blocks of 128 threads per SM (two tiles each in 36.9 KB of shared memory).
// H100, kprim-scan-tuning, 2026-11-26: copy time / kprim time at 2^28 0.92-0.93 (float, int32),
// 0.94-0.95 (double, int64), against 0.85-0.91 for the default shape (perf_tests/results/README.md).
template <class T>
using lagged_scan_policy = std::conditional_t<sizeof(T) <= 4, ScanPolicy<128, 32, 6, 2, true, true>,
                                              ScanPolicy<128, 16, 6, 2, true, true>>;
template <class T>
inline constexpr bool lagged_scan_avail_v = sizeof(T) <= 8;

// Plain scans of 8-byte elements into 8-byte accumulators fetch each tile a round ahead, 5 blocks
// a SM to hold the loads in registers, each run folded as one chain (two spilled 8 bytes). H200,
// kprim-scan-tuning, 2026-11-28: copy time / kprim time at 2^26-2^28 0.87-0.89 against 0.85-0.86
// (double, int64); one chain against two, 0.883-0.900 against 0.876-0.889; 4-byte types and
// int32 -> int64 counts gained nothing and keep lagged_scan_policy (perf_tests/results/README.md,
// "Fetching a round ahead", "One chain for the fetched-ahead kernel").
template <class T, class In = T>
using plain_lagged_scan_policy =
    std::conditional_t<sizeof(T) == 8 && sizeof(In) == 8, ScanPolicy<128, 16, 5, 1, true, true, true>,
                       lagged_scan_policy<T>>;

/// Whether a scan of n elements of T takes the lagged kernel `Policy` on a GPU of sm_count SMs: when its
/// persistent blocks get two rounds or more. Shorter scans keep the default kernel, which is
/// faster while every block holds one tile anyway (H100, 2^20: 0.68-0.74 of a copy against
/// 0.57-0.70). Views run lagged, in vectors (scan_moves_vectors) or element by element when
/// strided or misaligned (launch_any_scan); a functor source (a lambda) keeps the default kernel,
/// lagged element-wise tiles of it were slower (H100, CRS offsets from a count lambda at 2^28:
/// 2015 us against 1374).
template <class T, class Policy = lagged_scan_policy<T>>
constexpr bool takes_lagged_scan(std::int64_t n, int sm_count) {
  if constexpr (!lagged_scan_avail_v<T>) {
    return false;
  } else {
    return n >= 2 * std::int64_t(sm_count) * Policy::min_blocks_per_sm * Policy::tile_size;
  }
}

enum TileFlag : unsigned { tile_empty = 0, tile_aggregate = 1, tile_inclusive = 2 };

/// A tile word's 32-bit flag: the status (TileFlag) in the low two bits, the call's epoch above.
/// Epoch 0 is for words kept zeroed between launches (the bitwise reduce's nodes, emptied by their readers).
__device__ __forceinline__ unsigned tile_flag(unsigned status, unsigned epoch) { return status | (epoch << 2); }
/// The status a flag means to a call of `epoch`: a flag of another epoch is an earlier call's, so empty.
__device__ __forceinline__ unsigned tile_status(unsigned flag, unsigned epoch) {
  return (flag >> 2) == epoch ? (flag & 3u) : unsigned(tile_empty);
}

/// How a tile's status and value are published: one 8-byte word (values of up to 4 bytes), one
/// 16-byte pair (up to 12 bytes), or value then flag with fences between (more).
enum class TileWordKind { narrow, wide, split };
/// The bytes of T a tile word must carry: sizeof(T), unless specialised for a type whose tail is
/// padding (a segmented scan's (8-byte value, 4-byte head) pair: 12 of its 16 bytes).
template <class T>
inline constexpr std::size_t tile_word_payload_v = sizeof(T);
template <class T>
inline constexpr TileWordKind tile_word_kind_v =
    tile_word_payload_v<T> <= 4 ? TileWordKind::narrow
                                : (tile_word_payload_v<T> <= 12 ? TileWordKind::wide : TileWordKind::split);

/// How a tile word is written: `exchange` (an atomic exchange) where a tile writes its word twice
/// (its aggregate, then its inclusive prefix), `store` (a strong store) where it writes it once.
/// H200, 2026-11-29: a second strong store to a word that other blocks poll cost a float scan 18-21%
/// of its time at 2^26, a second exchange 3-4% (instrumented); through the calls the default,
/// lagged, segmented and bitwise kernels ran up to 8% faster with exchanges (compaction not timed;
/// perf_tests/results/README.md, "Tile words by atomic exchange; the look-ahead walking back").
/// The look-ahead kernel writes once, and keeps the store it was measured with.
enum class TileWrite { exchange, store };

template <TileWrite Write>
__device__ __forceinline__ void write_tile_bits(void* word, unsigned long long bits) {
  if constexpr (Write == TileWrite::exchange)
    asm volatile("{\n .reg .b64 previous;\n atom.relaxed.gpu.global.exch.b64 previous, [%0], %1;\n}" ::"l"(word),
                 "l"(bits)
                 : "memory");
  else
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(word), "l"(bits) : "memory");
}
/// The 16-byte form (the exchange needs sm_90; a strong store before).
template <TileWrite Write>
__device__ __forceinline__ void write_tile_bits(void* word, unsigned long long low, unsigned long long high) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Write == TileWrite::exchange) {
    asm volatile(
        "{\n .reg .b128 value, previous;\n mov.b128 value, {%1, %2};\n"
        " atom.relaxed.gpu.global.exch.b128 previous, [%0], value;\n}" ::"l"(word),
        "l"(low), "l"(high)
        : "memory");
    return;
  }
#endif
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(word), "l"(low), "l"(high) : "memory");
}

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
  static constexpr std::uint32_t flag_offset = 4;
  unsigned long long bits;
  template <TileWrite Write = TileWrite::exchange>
  __device__ static void publish(TileWord* word, T value, unsigned status, unsigned epoch = 0) {
    unsigned value_bits = 0;
    __builtin_memcpy(&value_bits, &value, sizeof(T));
    const unsigned long long bits = (static_cast<unsigned long long>(tile_flag(status, epoch)) << 32) | value_bits;
    write_tile_bits<Write>(word, bits);
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& status, unsigned epoch = 0) {
    unsigned long long bits;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(bits) : "l"(word) : "memory");
    status = tile_status(unsigned(bits >> 32), epoch);
    const unsigned value_bits = unsigned(bits);
    __builtin_memcpy(&value, &value_bits, sizeof(T));
  }
};

template <class T>
struct alignas(16) TileWord<T, TileWordKind::wide> {
  // Payload bytes 0-7 in the first half; bytes 8-11 (if any) above the flag in the second.
  static constexpr std::size_t payload = tile_word_payload_v<T>;
  static constexpr std::uint32_t flag_offset = 8;
  unsigned long long bits, flag;
  template <TileWrite Write = TileWrite::exchange>
  __device__ static void publish(TileWord* word, T value, unsigned status, unsigned epoch = 0) {
    unsigned char bytes[16] = {};
    __builtin_memcpy(bytes, &value, payload);
    unsigned long long value_bits;
    unsigned tail;
    __builtin_memcpy(&value_bits, bytes, 8);
    __builtin_memcpy(&tail, bytes + 8, 4);
    write_tile_bits<Write>(word, value_bits, (static_cast<unsigned long long>(tail) << 32) | tile_flag(status, epoch));
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& status, unsigned epoch = 0) {
    unsigned long long value_bits, flag_bits;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(value_bits), "=l"(flag_bits) : "l"(word) : "memory");
    status = tile_status(unsigned(flag_bits), epoch);
    unsigned char bytes[16];
    const unsigned tail = unsigned(flag_bits >> 32);
    __builtin_memcpy(bytes, &value_bits, 8);
    __builtin_memcpy(bytes + 8, &tail, 4);
    __builtin_memcpy(&value, bytes, payload);
  }
};

template <class T>
struct alignas(16) TileWord<T, TileWordKind::split> {
  // A tile publishes twice (aggregate, then inclusive prefix): each value has its own slot, written
  // once before its flag, so a reader that saw a flag reads the value that flag announced.
  static constexpr int words = (sizeof(T) + 3) / 4;
  static constexpr std::uint32_t flag_offset = 2 * 4 * words;
  unsigned aggregate_words[words];
  unsigned inclusive_words[words];
  unsigned flag;
  template <TileWrite = TileWrite::exchange>  // value, fence, flag whatever the caller's choice
  __device__ static void publish(TileWord* word, T value, unsigned status, unsigned epoch = 0) {
    unsigned bits[words] = {};
    __builtin_memcpy(bits, &value, sizeof(T));
    unsigned* const slot = status == tile_inclusive ? word->inclusive_words : word->aggregate_words;
#pragma unroll
    for (int w = 0; w < words; ++w) __stcg(slot + w, bits[w]);
    __threadfence();  // the value is visible device-wide before its flag
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(&word->flag), "r"(tile_flag(status, epoch)) : "memory");
  }
  __device__ static void read(const TileWord* word, T& value, unsigned& status, unsigned epoch = 0) {
    unsigned flag;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(flag) : "l"(&word->flag) : "memory");
    status = tile_status(flag, epoch);
    if (status == tile_empty) return;
    __threadfence();  // the flag was read before the value
    const unsigned* const slot = status == tile_inclusive ? word->inclusive_words : word->aggregate_words;
    unsigned bits[words];
#pragma unroll
    for (int w = 0; w < words; ++w) bits[w] = __ldcg(slot + w);
    __builtin_memcpy(&value, bits, sizeof(T));
  }
};

/// What a TileState holds for a kernel over `tiles` tiles of T: the ticket slot, then one TileWord
/// per tile (the key of their layout tells a buffer's words of other types apart).
template <class T>
constexpr TileStateNeed tile_state_need(std::int64_t tiles) {
  if (tiles <= 1) return {};
  return {16 + std::size_t(tiles) * sizeof(TileWord<T>),
          (std::uint32_t(sizeof(TileWord<T>)) << 16) | TileWord<T>::flag_offset};
}

/// A kernel's view of its TileState: the ticket slot (tickets[0]: the next tile; tickets[1]: blocks
/// done, for persistent grids; both left zero), the tile words and the call's epoch. A single tile
/// has none (nullptr).
template <class T>
struct TileStates {
  unsigned* tickets = nullptr;
  TileWord<T>* words = nullptr;
  unsigned epoch = 0;

  TileStates() = default;
  TileStates(TileState state, std::int64_t tiles) {
    if (tiles <= 1) return;
    tickets = reinterpret_cast<unsigned*>(state.data);
    words = reinterpret_cast<TileWord<T>*>(state.data + 16);
    epoch = state.epoch;
  }
  template <TileWrite Write = TileWrite::exchange>
  __device__ void publish(std::int64_t tile, const T& value, unsigned status) const {
    TileWord<T>::template publish<Write>(words + tile, value, status, epoch);
  }
  __device__ void read(std::int64_t tile, T& value, unsigned& status) const {
    TileWord<T>::read(words + tile, value, status, epoch);
  }
};

/// Shared-memory index with one padding slot every 32 elements (bank-conflict-free transposes).
__host__ __device__ constexpr int exchange_padded(int index) { return index + index / 32; }

/// Called by all 32 lanes of warp 0 of tile `tile` (> 0): op over every earlier tile, in order.
template <class T, class Op>
__device__ T look_back(const TileStates<T>& states, std::int64_t tile, const Op& op, const T& identity) {
  const int lane = lane_id();
  T prefix = identity;
  for (std::int64_t nearest = tile - 1;; nearest -= warp_size) {
    const std::int64_t predecessor = nearest - lane;  // lane 0 looks at the nearest
    unsigned flag = tile_inclusive;
    T value = identity;
    if (predecessor >= 0) states.read(predecessor, value, flag);
    while (__any_sync(full_warp_mask, flag == tile_empty))
      if (flag == tile_empty) states.read(predecessor, value, flag);
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

/// Moves a warp's part of a tile (32 * items elements from warp_first) into its runs: 16-byte
/// vectors with VectorIn (the last tile short), element by element in index order otherwise.
template <class T, class Policy, bool VectorIn, class Source>
__device__ __forceinline__ void stage_tile(const Source& in, std::int64_t warp_first, std::int64_t n, bool full_tile,
                                           const T& identity, T* exchange, int lane) {
  using runs = WarpRuns<T, Policy::items>;
  if constexpr (VectorIn) {
    if (full_tile) runs::stage(in.data + warp_first, exchange, lane);
    else runs::stage_partial(in.data + warp_first, n - warp_first, identity, exchange, lane);  // the last tile
  } else {
    runs::stage_indexed(in, warp_first, n, identity, exchange, lane);
  }
}

/// Writes a warp's runs back out as stored(x), the counterpart of stage_tile.
template <class T, class Policy, bool VectorOut, class Sink, class Stored>
__device__ __forceinline__ void store_tile(const Sink& out, std::int64_t warp_first, std::int64_t n, bool full_tile,
                                           const T* exchange, int lane, const Stored& stored) {
  using runs = WarpRuns<T, Policy::items>;
  if constexpr (VectorOut) {
    if (full_tile) runs::unstage(out.data + warp_first, exchange, lane, stored);
    else runs::unstage_partial(out.data + warp_first, n - warp_first, exchange, lane, stored);
  } else if constexpr (requires { out.put.prepare(std::int64_t(0)); }) {
    runs::unstage_prepared(out, warp_first, n, exchange, lane, stored);
  } else {
    runs::unstage_indexed([&](std::int64_t i, const T& x) { out.put(i, x); }, warp_first, n, exchange, lane, stored);
  }
}

/// One thread of a persistent block counts the block out once it has taken its last ticket: the
/// last of the grid to count itself out (tickets[1]) zeroes the ticket slot for the next launch.
__device__ __forceinline__ void count_out(unsigned* tickets) {
  __threadfence();  // this block's tickets are taken before it counts itself out
  if (atomicAdd(tickets + 1, 1u) == gridDim.x - 1) {
    __threadfence();  // every block's tickets are taken before the slot is zeroed
    atomicExch(tickets, 0u);
    atomicExch(tickets + 1, 0u);
  }
}

/// A persistent block leaves (count_out by thread 0).
__device__ __forceinline__ void release_tickets(unsigned* tickets) {
  if (tickets != nullptr && threadIdx.x == 0) count_out(tickets);
}

/// Runs a block's tiles. begin(tile, buffer) loads the tile into shared-memory buffer 0 or 1,
/// folds it and publishes its aggregate, and returns what finish(state) needs to look back,
/// rescan and store it. Without Lagged a block takes one tile. With Lagged the blocks are
/// persistent: each round a block begins a tile and only then finishes its previous round's tile,
/// whose predecessors have had a whole round to publish, so the look-back rarely waits and the SM
/// keeps loading while it does. No deadlock either way: a block publishes the aggregate of every
/// tile it takes before it waits on anything, and it waits only on earlier tiles, all taken by
/// running blocks (tickets[0] hands them out in order; nullptr: one tile, one block).
/// The ticket slot is left zero for the next launch: one block per tile takes exactly `tiles`
/// tickets, which atomicInc wraps back to 0; persistent blocks take a varying number, so the last
/// block to leave (tickets[1] counts them) zeroes both.
template <bool Lagged, class Begin, class Finish>
__device__ __forceinline__ void run_tiles(std::int64_t tiles, unsigned* tickets, const Begin& begin,
                                          const Finish& finish) {
  __shared__ unsigned ticket_slot;
  const auto take_ticket = [&](int round) {
    if (tickets == nullptr) return unsigned(round);
    if constexpr (Lagged) return atomicAdd(tickets, 1u);
    else return atomicInc(tickets, unsigned(tiles - 1));
  };
  if (threadIdx.x == 0) ticket_slot = take_ticket(0);
  __syncthreads();
  // Lagged blocks take each ticket just before they begin its tile (after their first tile's begin,
  // then after each finish): a tile taken a round ahead sits empty while later tiles look back at
  // it (H200, kprim-scan-tuning, 2026-11-28: float / int32 1-4% faster at 2^24-2^28 than a round
  // ahead, 8-byte types within 1%). A block that starts late may find every tile taken. One slot
  // holds the ticket: finish() passes a barrier of the whole block (so must any finish), so every
  // thread has read a ticket before thread 0 writes the next.
  if (std::int64_t(ticket_slot) < tiles) {
    auto pending = begin(std::int64_t(ticket_slot), 0);
    if constexpr (Lagged) {
      __syncthreads();  // every thread has read the first ticket
      if (threadIdx.x == 0) ticket_slot = take_ticket(1);
      for (int round = 1;; ++round) {
        __syncthreads();  // this round's ticket is in; the block's shared slots are free again
        const std::int64_t tile = ticket_slot;
        if (tile >= tiles) break;
        auto next = begin(tile, round & 1);
        finish(pending);
        if (threadIdx.x == 0) ticket_slot = take_ticket(round + 1);
        pending = next;
      }
    }
    finish(pending);
  }
  if constexpr (Lagged) release_tickets(tickets);
}

/// run_tiles<true> with each tile's loads issued a round early: fetch(tile) issues them (into the
/// block's registers), begin(tile, buffer, next) writes them into shared-memory buffer 0 or 1,
/// calls fetch(next) and goes on as run_tiles' begin. The block therefore holds its tickets two
/// rounds ahead (three slots); it still publishes every tile's aggregate before it waits on an
/// earlier tile, so the same argument rules out a deadlock. The ticket slot is left zero as in
/// run_tiles.
template <class Fetch, class Begin, class Finish>
__device__ __forceinline__ void run_tiles_ahead(std::int64_t tiles, unsigned* tickets, const Fetch& fetch,
                                                const Begin& begin, const Finish& finish) {
  __shared__ unsigned ticket_slots[3];
  const auto take_ticket = [&](int round) { return tickets == nullptr ? unsigned(round) : atomicAdd(tickets, 1u); };
  if (threadIdx.x == 0) {
    ticket_slots[0] = take_ticket(0);
    ticket_slots[1] = take_ticket(1);
  }
  __syncthreads();
  std::int64_t tile = ticket_slots[0];
  if (tile < tiles) {
    fetch(tile);
    std::int64_t next = ticket_slots[1];
    if (threadIdx.x == 0) ticket_slots[2] = take_ticket(2);
    auto pending = begin(tile, 0, next);
    for (int round = 1;; ++round) {
      __syncthreads();  // the ticket two rounds ahead is in; the block's shared slots are free again
      tile = next;
      if (tile >= tiles) break;
      next = ticket_slots[(round + 1) % 3];
      if (threadIdx.x == 0) ticket_slots[(round + 2) % 3] = take_ticket(round + 2);
      auto begun = begin(tile, round & 1, next);
      finish(pending);
      pending = begun;
    }
    finish(pending);
  }
  release_tickets(tickets);
}

/// Dynamic shared memory a scan kernel launch of `Policy` passes: the lagged policies' two tiles
/// of runs (over the 48 KB of static shared memory for some shapes). The other policies keep
/// their one tile in static shared memory, as the kernel did before it could run lagged.
template <class T, class Policy>
inline constexpr int scan_dynamic_bytes =
    Policy::lagged ? 2 * (Policy::block_size / warp_size) * WarpRuns<T, Policy::items>::elements * int(sizeof(T)) : 0;

/// The calling warp's runs of tile buffer 0 (buffer b: b * warps * runs::elements further on).
template <class T, class Policy>
__device__ __forceinline__ T* scan_warp_exchange() {
  using runs = WarpRuns<T, Policy::items>;
  T* base;
  if constexpr (Policy::lagged) {
    extern __shared__ uint4 lagged_exchange[];
    base = reinterpret_cast<T*>(lagged_exchange);
  } else {
    __shared__ Slots<T, (Policy::block_size / warp_size) * runs::elements> exchange;
    base = exchange.data();
  }
  return base + (threadIdx.x / warp_size) * runs::elements;
}

/// Scans source (element i converted to the accumulator T as it is loaded: an Input of any
/// element type, or a functor) into sink (sink.put(i, value): an Output, or a callback). With
/// VectorIn / VectorOut (an Input / Output, contiguous and 16-byte aligned) the tiles move in
/// 16-byte vectors; otherwise each warp reads and writes its elements in index order, 32
/// consecutive indices per instruction. Launched with scan_dynamic_bytes<T, Policy> of dynamic
/// shared memory; the grid is the tiles, or fewer persistent blocks with a lagged policy.
template <class T, class Op, class Policy, class Source, class Sink, bool VectorIn, bool VectorOut>
__global__ void __launch_bounds__(Policy::block_size, Policy::min_blocks_per_sm)
    scan_kernel(Source in, Sink out, std::int64_t n, std::int64_t tiles, bool exclusive, T seed, Op op, T* total,
                TileStates<T> states) {
  constexpr int block_size = Policy::block_size;
  constexpr int warps = block_size / warp_size;
  constexpr int chains = Policy::chains;
  constexpr std::int64_t tile_size = Policy::tile_size;
  static_assert(Policy::items % Vector16<T>::size == 0, "kprim: scan items per thread must fill whole 16-byte vectors");
  using runs = WarpRuns<T, Policy::items>;
  __shared__ BlockStorage<T, block_size> storage;
  __shared__ Slots<T, 1> prefix_storage;
  T* const warp_exchange = scan_warp_exchange<T, Policy>();
  const T identity = identity_of<T>(op);
  const int lane = lane_id();
  const std::int64_t warp_offset = std::int64_t(threadIdx.x / warp_size) * warp_size * Policy::items;

  // A begun tile: the thread's block-local prefix and sub-totals (per chain) of its run, and the tile's aggregate.
  struct Begun {
    std::int64_t tile;
    int buffer;
    T thread_prefix, aggregate;
    T sub_totals[chains];
  };
  // Full aligned tiles move through shared memory warp by warp (WarpRuns): coalesced vector
  // loads, then each lane folds its own run of `items` consecutive elements.
  const auto full_tile = [&](std::int64_t tile) { return (tile + 1) * tile_size <= n; };
  const auto stage = [&](std::int64_t tile, int buffer) {
    stage_tile<T, Policy, VectorIn>(in, tile * tile_size + warp_offset, n, full_tile(tile), identity,
                                    warp_exchange + buffer * warps * runs::elements, lane);
  };
  // A staged tile folded and its aggregate published.
  const auto begin_staged = [&](std::int64_t tile, int buffer) {
    Begun begun{tile, buffer, identity, identity, {}};
    T* const exchange = warp_exchange + buffer * warps * runs::elements;
    runs::fold(exchange, lane, op, begun.sub_totals);
    T thread_total = begun.sub_totals[0];
#pragma unroll
    for (int c = 1; c < chains; ++c) thread_total = op(thread_total, begun.sub_totals[c]);
    begun.thread_prefix = block_exclusive_scan<block_size>(thread_total, op, identity, begun.aggregate, storage);
    if (threadIdx.x == 0 && states.words != nullptr) {
      if (tile == 0) states.publish(0, op(seed, begun.aggregate), tile_inclusive);
      else states.publish(tile, begun.aggregate, tile_aggregate);
    }
    return begun;
  };
  // Warp 0 looks back; with early rescan the other warps rescan their runs from the block-local
  // prefix meanwhile (warp 0 after it), and the tile prefix joins as the runs are stored.
  const auto finish = [&](const Begun& begun) {
    T* const exchange = warp_exchange + begun.buffer * warps * runs::elements;
    if (begun.tile != 0 && threadIdx.x < warp_size) {
      const T exclusive_prefix = look_back(states, begun.tile, op, identity);  // tile 0's prefix holds the seed
      if (threadIdx.x == 0) {
        states.publish(begun.tile, op(exclusive_prefix, begun.aggregate), tile_inclusive);
        prefix_storage[0] = exclusive_prefix;
      }
    }
    constexpr bool early = Policy::scan_before_look_back;
    if constexpr (early) runs::scan_in_place(exchange, lane, begun.thread_prefix, exclusive, op, begun.sub_totals);
    __syncthreads();
    const T tile_prefix = begun.tile == 0 ? seed : prefix_storage[0];
    if constexpr (!early)
      runs::scan_in_place(exchange, lane, op(tile_prefix, begun.thread_prefix), exclusive, op, begun.sub_totals);
    const auto stored = [&](const T& x) {
      if constexpr (early) return op(tile_prefix, x);
      else return x;
    };
    store_tile<T, Policy, VectorOut>(out, begun.tile * tile_size + warp_offset, n, (begun.tile + 1) * tile_size <= n,
                                     exchange, lane, stored);
    if (total != nullptr && begun.tile == tiles - 1 && threadIdx.x == 0) *total = op(tile_prefix, begun.aggregate);
  };
  if constexpr (Policy::fetch_ahead && VectorIn) {
    using In = typename Source::element_type;
    Vector16<In> fetched[Policy::items / Vector16<In>::size];
    const auto fetch = [&](std::int64_t tile) {
      if (tile < tiles && full_tile(tile)) runs::fetch(in.data + tile * tile_size + warp_offset, lane, fetched);
    };
    const auto begin = [&](std::int64_t tile, int buffer, std::int64_t next) {
      if (full_tile(tile)) runs::put_fetched(fetched, warp_exchange + buffer * warps * runs::elements, lane);
      else stage(tile, buffer);  // the last tile, short
      fetch(next);
      return begin_staged(tile, buffer);
    };
    run_tiles_ahead(tiles, states.tickets, fetch, begin, finish);
  } else {
    const auto begin = [&](std::int64_t tile, int buffer) {
      stage(tile, buffer);
      return begin_staged(tile, buffer);
    };
    run_tiles<Policy::lagged>(tiles, states.tickets, begin, finish);
  }
}

/// Tiles `Policy` cuts n elements into (at least one: n = 0 still writes the total).
template <class Policy>
constexpr std::int64_t scan_tiles(std::int64_t n) {
  return n <= Policy::tile_size ? 1 : (n + Policy::tile_size - 1) / Policy::tile_size;
}

/// The tile state of a scan of n elements with words of T, room for any of the `Policies`' tilings:
/// a ticket slot and one word per tile of the finest (none for a single tile).
template <class T, class... Policies>
constexpr TileStateNeed scan_tile_state_for(std::int64_t n) {
  return tile_state_need<T>(std::max({scan_tiles<Policies>(n)...}));
}

/// Whether a `Policy` scan moves its tiles in 16-byte vectors both ways: an Input of whole input
/// vectors per run into an Output of T, both contiguous and 16-byte aligned.
template <class T, class Policy, class Source, class Sink>
bool scan_moves_vectors(const Source& in, const Sink& out) {
  if constexpr (is_input_v<Source> && std::is_same_v<Sink, Output<T>>) {
    using In = typename Source::element_type;
    if constexpr (vectorizable_v<In> && Policy::items % vector_width_v<In> == 0)
      return in.stride == 1 && out.stride == 1 && is_aligned16(in.data) && is_aligned16(out.data);
  }
  return false;
}

/// Enqueues scan_kernel<..., VectorIn, VectorOut> of source into sink on `stream`; `tile_state`
/// holds scan_tile_state_for<T, Policy>(n). A lagged policy runs
/// min(tiles, sm_count * Policy::min_blocks_per_sm) persistent blocks. Returns the launch's error code.
template <class T, class Op, class Policy, bool VectorIn, bool VectorOut, class Source, class Sink>
cudaError_t launch_scan_as(cudaStream_t stream, const Source& in, const Sink& out, std::int64_t n, bool exclusive,
                           T seed, Op op, T* total, TileState tile_state, int sm_count) {
  const std::int64_t tiles = scan_tiles<Policy>(n);
  const auto kernel = scan_kernel<T, Op, Policy, Source, Sink, VectorIn, VectorOut>;
  constexpr int exchange_bytes = scan_dynamic_bytes<T, Policy>;
  if constexpr (exchange_bytes > 48 * 1024) {
    if (const cudaError_t error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, exchange_bytes))
      return error;
  }
  std::int64_t grid = tiles;
  if constexpr (Policy::lagged) grid = std::min(tiles, std::int64_t(sm_count > 0 ? sm_count : 1) * Policy::min_blocks_per_sm);
  kernel<<<unsigned(grid), Policy::block_size, exchange_bytes, stream>>>(in, out, n, tiles, exclusive, seed, op, total,
                                                                       TileStates<T>(tile_state, tiles));
  return cudaGetLastError();
}

/// A `Policy` scan of source into sink (launch_scan_as), in vectors where scan_moves_vectors says
/// so. Vector loads and stores are compiled only for Input / Output of whole 16-byte vectors: a
/// View-to-View scan compiles two kernels (both sides in vectors, or neither); a functor source
/// into an Output, two (vector stores, or not).
template <class T, class Op, class Policy, class Source, class Sink>
cudaError_t launch_scan(cudaStream_t stream, const Source& in, const Sink& out, std::int64_t n, bool exclusive, T seed,
                        Op op, T* total, TileState tile_state, int sm_count) {
  const auto launch = [&]<bool VectorIn, bool VectorOut>() {
    return launch_scan_as<T, Op, Policy, VectorIn, VectorOut>(stream, in, out, n, exclusive, seed, op, total,
                                                              tile_state, sm_count);
  };
  if constexpr (is_input_v<Source>) {
    using In = typename Source::element_type;
    if constexpr (std::is_same_v<Sink, Output<T>> && vectorizable_v<In> && Policy::items % vector_width_v<In> == 0) {
      if (scan_moves_vectors<T, Policy>(in, out)) return launch.template operator()<true, true>();
    }
    return launch.template operator()<false, false>();
  } else {
    if constexpr (std::is_same_v<Sink, Output<T>>) {
      if (out.stride == 1 && is_aligned16(out.data)) return launch.template operator()<false, true>();
    }
    return launch.template operator()<false, false>();
  }
}

}  // namespace kprim::impl::cuda
