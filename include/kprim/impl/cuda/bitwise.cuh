#pragma once
// Device layer, hand-written CUDA: Determinism::bitwise reduce, dot and scan in one pass, in
// the order of impl/team/bitwise_tree.hpp (leaves of 8 elements folded left to right, the
// pairwise tree over aligned power-of-two blocks of leaves, scans from the fold of the nodes
// left of each leaf, largest first). The portable kernels compute the same nodes in passes;
// this one computes them in a single pass, so a scan moves 2n like a copy.
//
// One block per tile of 2048 elements: 256 threads, one leaf each. The block builds its tile's
// tree (warp shuffles for levels 1-5, one thread for the 3 levels over the 8 warps) and
// publishes the tile's root as node (0, t) of the tree over tiles. A tile that is the right
// child of its parent combines its left sibling's node (published earlier by tile t - 2^l's
// chain) with its own and publishes the parent, up as far as it is a right child; the last
// tile goes on to the root (carrying lone left children up), which is the reduce's result.
// A scan's tile t starts from the nodes of t's binary digits, largest first: full blocks of
// earlier tiles, whose nodes their own last tiles publish. No tile ever waits on another's
// prefix (unlike a look-back), only on nearby tiles' roots and on nodes of finished blocks.
// Tiles are handed out in launch order by an atomic counter, so every tile waited on belongs
// to a running block.

#include <kprim/impl/cuda/scan.cuh>
#include <kprim/impl/thread/rounded_product.hpp>

#include <cstdint>

namespace kprim::impl::cuda {

inline constexpr int bitwise_block_size = 256;  // = tile_leaves: one leaf per thread
inline constexpr int bitwise_leaf_size = 8;
inline constexpr std::int64_t bitwise_tile_size = std::int64_t(bitwise_block_size) * bitwise_leaf_size;
inline constexpr int bitwise_warps = bitwise_block_size / warp_size;

/// Index of node (level, index) in the array of every level of the tree over `tiles` tiles.
__host__ __device__ inline std::int64_t node_slot(std::int64_t tiles, int level, std::int64_t index) {
  std::int64_t offset = 0;
  for (int l = 0; l < level; ++l) offset += (tiles + (std::int64_t(1) << l) - 1) >> l;
  return offset + index;
}

/// Every node of every level of the tree over `tiles` tiles.
__host__ __device__ inline std::int64_t node_slots(std::int64_t tiles) {
  std::int64_t total = 0;
  for (int l = 0;; ++l) {
    const std::int64_t count = (tiles + (std::int64_t(1) << l) - 1) >> l;
    total += count;
    if (count == 1) return total;
  }
}

template <class T>
__device__ T wait_node(const TileWord<T>* word) {
  T value;
  unsigned flag;
  TileWord<T>::read(word, value, flag);
  while (flag == tile_empty) TileWord<T>::read(word, value, flag);
  return value;
}

/// Loads the thread's leaf (x, or x * y rounded for a dot) into values[0 .. 8): for full,
/// aligned, contiguous tiles warp by warp through shared memory (each instruction 512
/// contiguous bytes), else element by element.
template <class T, bool Vectorized, bool Dot>
__device__ void load_leaf(T (&values)[bitwise_leaf_size], const Input<T>& x, const Input<T>& y, std::int64_t tile,
                          std::int64_t n, bool full_tile, T* exchange) {
  constexpr int items = bitwise_leaf_size;
  constexpr int width = Vector16<T>::size;
  const int lane = lane_id();
  const std::int64_t first = tile * bitwise_tile_size + std::int64_t(threadIdx.x) * items;
  if (Vectorized && full_tile) {
    const std::int64_t warp_first = tile * bitwise_tile_size + std::int64_t(threadIdx.x / warp_size) * warp_size * items;
#pragma unroll
    for (int v = 0; v < items / width; ++v) {
      const int index = (v * warp_size + lane) * width;
      const Vector16<T> loaded = load_vector(x.data + warp_first + index);
      Vector16<T> factor;
      if constexpr (Dot) factor = load_vector(y.data + warp_first + index);
#pragma unroll
      for (int k = 0; k < width; ++k)
        exchange[exchange_padded(index + k)] = Dot ? rounded_product(loaded.lane[k], factor.lane[k]) : loaded.lane[k];
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < items; ++k) values[k] = exchange[exchange_padded(lane * items + k)];
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const std::int64_t i = first + k;
      if (i < n) {
        const T value = x.data[i * x.stride];
        values[k] = Dot ? rounded_product(value, y.data[i * y.stride]) : value;
      }
    }
  }
}

/// Reduce (Scan = false: *total = the tree's root) or scan in -> out (*total, if given, = the
/// value after the last element) of n elements, `tiles` = max(1, ceil(n / 2048)) blocks.
template <class T, class Op, bool Vectorized, bool Scan, bool Dot>
__global__ void __launch_bounds__(bitwise_block_size, 8)
    bitwise_kernel(Input<T> x, Input<T> y, Output<T> out, std::int64_t n, std::int64_t tiles, bool exclusive, T seed,
                   Op op, T* total, TileWord<T>* nodes, unsigned long long* tile_counter) {
  constexpr int items = bitwise_leaf_size;
  __shared__ T exchange_storage[bitwise_warps * exchange_padded(warp_size * items)];
  __shared__ T warp_roots[bitwise_warps];
  __shared__ T warp_prefixes[bitwise_warps];
  __shared__ std::int64_t tile_slot;

  std::int64_t tile = 0;
  if (tiles > 1) {
    if (threadIdx.x == 0) tile_slot = std::int64_t(atomicAdd(tile_counter, 1ull));
    __syncthreads();
    tile = tile_slot;
  }
  const int lane = lane_id();
  const int warp = int(threadIdx.x) / warp_size;
  const int leaf = int(threadIdx.x);
  const std::int64_t tile_begin = tile * bitwise_tile_size;
  const std::int64_t tile_count = n - tile_begin < bitwise_tile_size ? n - tile_begin : bitwise_tile_size;
  const int leaves = int((tile_count + items - 1) / items);
  const int in_leaf = int(tile_count - std::int64_t(leaf) * items < 0 ? 0
                          : (tile_count - std::int64_t(leaf) * items > items ? items : tile_count - std::int64_t(leaf) * items));
  const bool full_tile = tile_count == bitwise_tile_size;
  T* const exchange = exchange_storage + warp * exchange_padded(warp_size * items);

  T values[items];
  load_leaf<T, Vectorized, Dot>(values, x, y, tile, n, full_tile, exchange);
  T node[6];  // node[l]: this lane's node of level l of the warp's tree (valid where lane % 2^l == 0)
  node[0] = values[0];
#pragma unroll
  for (int k = 1; k < items; ++k)
    if (k < in_leaf) node[0] = op(node[0], values[k]);
#pragma unroll
  for (int l = 1; l <= 5; ++l) {
    const int half = 1 << (l - 1);
    const T right = __shfl_down_sync(full_warp_mask, node[l - 1], half);
    node[l] = ((lane & (2 * half - 1)) == 0 && leaf + half < leaves) ? op(node[l - 1], right) : node[l - 1];
  }
  if (lane == 0) warp_roots[warp] = node[5];
  __syncthreads();

  if (warp == 0) {
    // Levels 6-8 (over the warps) by lane 0; the tree over tiles by warp 0.
    T levels[4][bitwise_warps];
    const int warp_count = (leaves + warp_size - 1) / warp_size;
    int count = warp_count;
    T root{};
    if (lane == 0 && count > 0) {
      for (int w = 0; w < count; ++w) levels[0][w] = warp_roots[w];
      for (int l = 1; l <= 3; ++l) {
        const int below = count;
        count = (count + 1) / 2;
        for (int k = 0; k < count; ++k)
          levels[l][k] = 2 * k + 1 < below ? op(levels[l - 1][2 * k], levels[l - 1][2 * k + 1]) : levels[l - 1][2 * k];
      }
      root = levels[3][0];
    }
    // The chain: publish node (0, tile), then parents while this tile's node is a right child
    // (or, for the last tile, a lone left child), up to the root.
    bool at_root = false;
    if (lane == 0 && leaves > 0 && tiles > 1) {
      T mine = root;
      std::int64_t index = tile;
      int level = 0;
      TileWord<T>::publish(nodes + node_slot(tiles, 0, tile), mine, tile_aggregate);
      for (;;) {
        const std::int64_t level_count = (tiles + (std::int64_t(1) << level) - 1) >> level;
        if (level_count == 1) {
          at_root = true;
          break;
        }
        if (index & 1) {
          mine = op(wait_node(nodes + node_slot(tiles, level, index - 1)), mine);
        } else if (index + 1 >= level_count) {
          // a lone left child: carried up unchanged
        } else {
          break;
        }
        index >>= 1;
        ++level;
        TileWord<T>::publish(nodes + node_slot(tiles, level, index), mine, tile_aggregate);
      }
      if (at_root) root = mine;
    }
    if (!Scan && lane == 0 && (tiles == 1 || at_root)) *total = leaves > 0 ? root : identity_of<T>(op);
    if constexpr (Scan) {
      // The tile's prefix: seed, then node (b, (tile >> b) - 1) for every set bit b of tile,
      // largest first. Lane b waits for its node; the fold runs in order through shuffles.
      bool has = exclusive;
      T prefix = seed;
      if (tile > 0) {
        T wanted{};
        if (lane < 63 && ((tile >> lane) & 1))
          wanted = wait_node(nodes + node_slot(tiles, lane, (tile >> lane) - 1));
        const int top = 63 - __clzll(static_cast<long long>(tile));
        for (int b = top; b >= 0; --b) {
          const T node_value = __shfl_sync(full_warp_mask, wanted, b);
          if ((tile >> b) & 1) {
            prefix = has ? op(prefix, node_value) : node_value;
            has = true;
          }
        }
      }
      if (lane == 0) {
        // Each warp's prefix: the tile's, then the nodes over the warps for the warp's set bits.
        for (int w = 0; w < warp_count; ++w) {
          T warp_prefix = prefix;
          bool warp_has = has;
          for (int l = 2; l >= 0; --l)
            if ((w >> l) & 1) {
              const T& node_value = levels[l][(w >> l) - 1];
              warp_prefix = warp_has ? op(warp_prefix, node_value) : node_value;
              warp_has = true;
            }
          warp_prefixes[w] = warp_prefix;
        }
        if (n == 0 && total != nullptr) *total = has ? seed : identity_of<T>(op);
      }
    }
  }
  if constexpr (Scan) {
    __syncthreads();
    // Tile 0 of an unseeded scan has no prefix on its left edge: warp 0 there, and lane 0 of it.
    bool has = exclusive || tile > 0 || warp > 0;
    T running = has ? warp_prefixes[warp] : identity_of<T>(op);
#pragma unroll
    for (int l = 4; l >= 0; --l) {
      const T node_value = __shfl_sync(full_warp_mask, node[l], (lane >> (l + 1)) << (l + 1));
      if ((lane >> l) & 1) {
        running = has ? op(running, node_value) : node_value;
        has = true;
      }
    }
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (k < in_leaf) {
        const T value = values[k];
        if (exclusive) values[k] = running;
        running = has ? op(running, value) : value;
        has = true;
        if (!exclusive) values[k] = running;
      }
    }
    if (Vectorized && full_tile) {
      __syncwarp();
#pragma unroll
      for (int k = 0; k < items; ++k) exchange[exchange_padded(lane * items + k)] = values[k];
      __syncwarp();
      constexpr int width = Vector16<T>::size;
      const std::int64_t warp_first = tile_begin + std::int64_t(warp) * warp_size * items;
#pragma unroll
      for (int v = 0; v < items / width; ++v) {
        const int index = (v * warp_size + lane) * width;
        Vector16<T> stored;
#pragma unroll
        for (int k = 0; k < width; ++k) stored.lane[k] = exchange[exchange_padded(index + k)];
        store_vector(out.data + warp_first + index, stored);
      }
    } else {
      const std::int64_t first = tile_begin + std::int64_t(leaf) * items;
#pragma unroll
      for (int k = 0; k < items; ++k)
        if (k < in_leaf) out.data[(first + k) * out.stride] = values[k];
    }
    if (total != nullptr && in_leaf > 0 && tile_begin + std::int64_t(leaf) * items + in_leaf == n) *total = running;
  }
}

}  // namespace kprim::impl::cuda
