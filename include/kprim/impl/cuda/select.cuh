#pragma once
// Device layer, hand-written CUDA: stream compaction (copy_if, copy_index_if) in one pass, on the
// scan's decoupled look-back (scan.cuh: TileWord, look_back).
//
// The scan kernel scans values each lane holds as a run of consecutive elements, which costs two
// shared-memory transposes and keeps the tile in shared memory. A compaction scans 0/1 flags, and
// a warp counts 32 of them with one ballot. So here lane l of a warp holds elements l, l + 32, ...
// of the warp's chunk in registers (each load instruction reads 32 consecutive elements, all of a
// thread's loads in flight at once), and a kept element's place among its 32 is the popcount of
// the ballot below its lane. Staged policies then compact the tile in shared memory while warp 0
// looks back (the other warps have nothing else to do), and the block stores the tile's kept
// elements as one contiguous run (CUB's two-phase scatter); unstaged ones store each warp's kept
// elements straight from registers after the look-back. Every input is read once.

#include <kprim/impl/cuda/block.cuh>
#include <kprim/impl/cuda/scan.cuh>
#include <kprim/ops.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// A tuning of select_kernel: threads per block, elements per thread, minimum resident blocks
/// per SM (a register cap for the compiler), and whether the kept elements are first compacted
/// in shared memory and stored as one contiguous run per tile (Staged).
template <int BlockSize, int Items, int MinBlocksPerSM, bool Staged = true>
struct SelectPolicy {
  static constexpr int block_size = BlockSize;
  static constexpr int items = Items;
  static constexpr int min_blocks_per_sm = MinBlocksPerSM;
  static constexpr bool staged = Staged;
  static constexpr std::int64_t tile_size = std::int64_t(BlockSize) * Items;
  static_assert(BlockSize % 32 == 0 && BlockSize <= 32 * 32, "kprim: select blocks are 1 to 32 whole warps");
};

// 4-byte payloads: 128 x 32, 8 blocks/SM, staged: 1.00-1.04x CUB DeviceSelect::If (float, half
// kept, 2^24-2^28, H100); 8-byte: 256 x 24, 4 blocks/SM, stored from registers: 1.01-1.05x (staged
// tiles of 32 spill). Sweeps and what was dropped: perf_tests/results/README.md, "copy_if on its own kernel".
template <class Payload>
using default_select_policy =
    std::conditional_t<sizeof(Payload) <= 4, SelectPolicy<128, 32, 8>,
                       std::conditional_t<sizeof(Payload) <= 8, SelectPolicy<256, 24, 4, false>,
                                          SelectPolicy<128, 16, 6, false>>>;

/// Compacts [0, n): `selection.load(i)` is what element i carries (an input element, or the
/// predicate's verdict for an index), `selection.selected(payload)` says whether it is kept,
/// `selection.value(i, payload)` is what a kept one puts in the output (the element, or i), and
/// `selection.store(position, value)` puts it at `position` (only below `selection.room`, the
/// output's extent). The number kept goes to *count from
/// the last tile. Staged policies compact a tile in shared memory when its values fit in 40 KiB
/// (static shared memory is at most 48 KiB a block); others store from registers.
template <class Policy, class Selection>
__global__ void __launch_bounds__(Policy::block_size, Policy::min_blocks_per_sm)
    select_kernel(Selection selection, std::int64_t n, std::int64_t* count, TileStates<std::int64_t> states,
                  std::int64_t tiles) {
  constexpr int warps = Policy::block_size / warp_size;
  constexpr int items = Policy::items;
  using Payload = decltype(selection.load(std::int64_t(0)));
  using Value = decltype(selection.value(std::int64_t(0), selection.load(std::int64_t(0))));
  constexpr bool staged = Policy::staged && sizeof(Value) * Policy::tile_size <= 40 * 1024;
  __shared__ Slots<Value, staged ? Policy::tile_size : 1> staging;
  __shared__ std::int64_t tile_slot;
  __shared__ int warp_counts[warps];
  __shared__ std::int64_t prefix_slot;
  const int lane = lane_id(), warp = int(threadIdx.x) / warp_size;

  std::int64_t tile = 0;
  if (tiles > 1) {
    // atomicInc wraps to 0 after the last of the `tiles` tickets: the slot is ready for the next launch.
    if (threadIdx.x == 0) tile_slot = atomicInc(states.tickets, unsigned(tiles - 1));
    __syncthreads();
    tile = tile_slot;
  }
  const std::int64_t first = tile * Policy::tile_size + std::int64_t(warp) * (warp_size * items) + lane;
  const bool full_tile = (tile + 1) * Policy::tile_size <= n;
  const auto kept = [&](int k, const Payload& p) {
    return __ballot_sync(full_warp_mask, (full_tile || first + std::int64_t(k) * warp_size < n) && selection.selected(p));
  };

  // All loads first: `items` of them in flight per thread.
  Payload payload[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const std::int64_t i = first + std::int64_t(k) * warp_size;
    if (full_tile || i < n) payload[k] = selection.load(i);
  }
  int warp_count = 0;
#pragma unroll
  for (int k = 0; k < items; ++k) warp_count += __popc(kept(k, payload[k]));

  // The tile's count and this warp's place in it.
  if (lane == 0) warp_counts[warp] = warp_count;
  __syncthreads();
  int warp_prefix = 0, aggregate = 0;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    warp_prefix += w < warp ? warp_counts[w] : 0;
    aggregate += warp_counts[w];
  }

  // The ballots are taken again below: cheaper than holding `items` of them in registers.
  const unsigned lanes_below = (1u << lane) - 1u;
  const auto stage = [&] {  // the tile's kept values, in order, into shared memory
    int local = warp_prefix;
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const unsigned ballot = kept(k, payload[k]);
      if ((ballot >> lane) & 1u)
        staging[local + __popc(ballot & lanes_below)] = selection.value(first + std::int64_t(k) * warp_size, payload[k]);
      local += __popc(ballot);
    }
  };
  const bool looks_back = tiles > 1 && tile > 0;
  if constexpr (staged) {
    if (warp != 0 || !looks_back) stage();  // warp 0 looks back first
  }

  std::int64_t tile_prefix = 0;
  if (tiles > 1 && tile == 0) {
    if (threadIdx.x == 0) states.publish(0, aggregate, tile_inclusive);
  } else if (looks_back) {
    if (warp == 0) {
      if (lane == 0) states.publish(tile, aggregate, tile_aggregate);
      const std::int64_t exclusive_prefix = look_back(states, tile, Sum{}, std::int64_t(0));
      if (lane == 0) {
        states.publish(tile, exclusive_prefix + aggregate, tile_inclusive);
        prefix_slot = exclusive_prefix;
      }
      if constexpr (staged) stage();
    }
  }
  if (looks_back || staged) __syncthreads();  // the prefix and the staging are complete
  if (looks_back) tile_prefix = prefix_slot;

  if constexpr (staged) {
    const std::int64_t stored = tile_prefix + aggregate <= selection.room ? aggregate : selection.room - tile_prefix;
    for (int j = int(threadIdx.x); j < stored; j += Policy::block_size) selection.store(tile_prefix + j, staging[j]);
  } else {
    std::int64_t position = tile_prefix + warp_prefix;
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const unsigned ballot = kept(k, payload[k]);
      const std::int64_t at = position + __popc(ballot & lanes_below);
      if (((ballot >> lane) & 1u) && at < selection.room)
        selection.store(at, selection.value(first + std::int64_t(k) * warp_size, payload[k]));
      position += __popc(ballot);
    }
  }
  if (count != nullptr && tile == tiles - 1 && threadIdx.x == 0) *count = tile_prefix + aggregate;
}

/// Tiles of a `Policy` select of n elements.
template <class Policy>
constexpr std::int64_t select_tiles(std::int64_t n) {
  return (n + Policy::tile_size - 1) / Policy::tile_size;
}

/// The tile state of a `Policy` select of n elements: a ticket slot and one word per tile.
template <class Policy>
constexpr TileStateNeed select_tile_state_for(std::int64_t n) {
  return tile_state_need<std::int64_t>(select_tiles<Policy>(n));
}

/// Enqueues the compaction of [0, n) (n > 0) on `stream` with `Policy`; the count goes to *count
/// (device-writable). `tile_state` holds select_tile_state_for<Policy>(n).
template <class Policy, class Selection>
cudaError_t launch_select(cudaStream_t stream, const Selection& selection, std::int64_t n, std::int64_t* count,
                          TileState tile_state) {
  const std::int64_t tiles = select_tiles<Policy>(n);
  select_kernel<Policy, Selection><<<unsigned(tiles), Policy::block_size, 0, stream>>>(
      selection, n, count, TileStates<std::int64_t>(tile_state, tiles), tiles);
  return cudaGetLastError();
}

}  // namespace kprim::impl::cuda
