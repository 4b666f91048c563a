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

inline constexpr int bitwise_block_size = 256;  // = tile_leaves: one leaf of each tile per thread
inline constexpr int bitwise_leaf_size = 8;
inline constexpr std::int64_t bitwise_tile_size = std::int64_t(bitwise_block_size) * bitwise_leaf_size;
inline constexpr int bitwise_warps = bitwise_block_size / warp_size;
/// Tiles per block (a block's tiles form one aligned node of the tree over tiles) and the
/// minimum of resident blocks per SM the compiler must allow (it caps registers). The scan waits
/// for its neighbours' nodes at a block barrier, so it wants many bytes per block; the reduce
/// waits only in warp 0 (on half of the blocks), so it wants many resident blocks.
// H100 80GB HBM3, 2026-11-22, kprim-bench --ladder, n = 2^28, bitwise GB/s by (tiles per
// block, min blocks per SM); automatic scan 2150 (float) / 2350 (double) in the same runs:
//   scan float    (1,6)  962  (1,8) 1053  (2,4) 1290  (2,5) 1408  (4,4) 1603  (4,3) 1616
//   scan double   (1,6) 1474  (1,8) 1173  (2,4) 1905  (2,6) 1230  (4,3) 1704  (4,2) 2020
//   reduce float  (2,1) 1903  (2,4) 2025  (1,6) 1954  (1,8) 2167  (2,6) 2372
//   reduce double (1,1) 2317  (1,4) 2334  (1,6) 2609  (1,8) 2701
// (the reduce rows before the chain's waits ran in parallel; spread between runs ~5-10%).
// Double scans take (2,4) over (4,2): nearly as fast, and twice the blocks at small n.
template <class T, bool Scan>
struct BitwiseShape {
  static constexpr int tiles_per_block = Scan ? (sizeof(T) == 4 ? 4 : 2) : (sizeof(T) == 4 ? 2 : 1);
  static constexpr int min_blocks_per_sm = Scan ? (sizeof(T) == 4 ? 3 : 4) : (sizeof(T) == 4 ? 6 : 8);
  static constexpr std::int64_t block_elements = bitwise_tile_size * tiles_per_block;
};

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

/// Loads the thread's leaf of tile `tile` (x, or x * y rounded for a dot) into values[0 .. 8):
/// for full, aligned, contiguous tiles warp by warp through shared memory (each instruction 512
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
    Vector16<T> loaded[items / width], factor[items / width];
#pragma unroll
    for (int v = 0; v < items / width; ++v) {
      loaded[v] = load_vector(x.data + warp_first + (v * warp_size + lane) * width);
      if constexpr (Dot) factor[v] = load_vector(y.data + warp_first + (v * warp_size + lane) * width);
    }
    __syncwarp();  // the exchange's previous contents have been read
#pragma unroll
    for (int v = 0; v < items / width; ++v) {
      const int index = (v * warp_size + lane) * width;
#pragma unroll
      for (int k = 0; k < width; ++k)
        exchange[exchange_padded(index + k)] = Dot ? rounded_product(loaded[v].lane[k], factor[v].lane[k]) : loaded[v].lane[k];
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

/// op(a, b), or b alone when a is missing.
template <class T, class Op>
__device__ __forceinline__ T fold_after(bool has, const T& a, const T& b, const Op& op) {
  return has ? op(a, b) : b;
}

/// Reduce (Scan = false: *total = the tree's root) or scan in -> out (*total, if given, = the
/// value after the last element) of n elements in `blocks` = max(1, ceil(n / block elements))
/// blocks of TilesPerBlock tiles.
template <class T, class Op, bool Vectorized, bool Scan, bool Dot,
          int TilesPerBlock = BitwiseShape<T, Scan>::tiles_per_block,
          int MinBlocksPerSM = BitwiseShape<T, Scan>::min_blocks_per_sm>
__global__ void __launch_bounds__(bitwise_block_size, MinBlocksPerSM)
    bitwise_kernel(Input<T> x, Input<T> y, Output<T> out, std::int64_t n, std::int64_t blocks, bool exclusive, T seed,
                   Op op, T* total, TileWord<T>* nodes, unsigned* block_counter) {
  constexpr int items = bitwise_leaf_size;
  constexpr int tiles_per_block = TilesPerBlock;
  constexpr std::int64_t block_elements = bitwise_tile_size * tiles_per_block;
  constexpr int groups_max = bitwise_warps * tiles_per_block;  // warp-sized groups of leaves per block
  constexpr int group_levels = tiles_per_block == 4 ? 5 : tiles_per_block == 2 ? 4 : 3;  // log2(groups_max)
  static_assert(groups_max <= warp_size && (1 << group_levels) == groups_max);
  __shared__ T exchange_storage[bitwise_warps * exchange_padded(warp_size * items)];
  __shared__ T group_roots[groups_max];
  __shared__ T group_prefixes[groups_max];
  __shared__ std::int64_t block_slot;

  std::int64_t block = 0;
  if (blocks > 1) {
    // atomicInc wraps to 0 after the last block: the counter is ready for the next launch.
    if (threadIdx.x == 0) block_slot = std::int64_t(atomicInc(block_counter, unsigned(blocks - 1)));
    __syncthreads();
    block = block_slot;
  }
  const int lane = lane_id();
  const int warp = int(threadIdx.x) / warp_size;
  const std::int64_t block_begin = block * block_elements;
  const std::int64_t block_count = n - block_begin < block_elements ? n - block_begin : block_elements;
  const int leaves = int((block_count + items - 1) / items);
  T* const exchange = exchange_storage + warp * exchange_padded(warp_size * items);

  // Leaf j of tile k of the block is this thread's for j = threadIdx.x; group k * 8 + warp.
  T values[tiles_per_block][items];
  int in_leaf[tiles_per_block];
#pragma unroll
  for (int k = 0; k < tiles_per_block; ++k) {
    const std::int64_t tile = block * tiles_per_block + k;
    const std::int64_t leaf_first = std::int64_t(k) * bitwise_tile_size + std::int64_t(threadIdx.x) * items;
    in_leaf[k] = int(block_count - leaf_first <= 0 ? 0 : (block_count - leaf_first > items ? items : block_count - leaf_first));
    load_leaf<T, Vectorized, Dot>(values[k], x, y, tile, n, block_count - std::int64_t(k) * bitwise_tile_size >= bitwise_tile_size,
                                  exchange);
  }
  // node[l]: this lane's node of level l of the tree over its group of 32 leaves (where lane %
  // 2^l == 0), for tile k. Recomputed by a scan after its wait rather than held in registers.
  const auto group_tree = [&](int k, T (&node)[6]) {
    const int leaf = k * bitwise_block_size + int(threadIdx.x);
    node[0] = values[k][0];
#pragma unroll
    for (int e = 1; e < items; ++e)
      if (e < in_leaf[k]) node[0] = op(node[0], values[k][e]);
#pragma unroll
    for (int l = 1; l <= 5; ++l) {
      const int half = 1 << (l - 1);
      const T right = __shfl_down_sync(full_warp_mask, node[l - 1], half);
      node[l] = ((lane & (2 * half - 1)) == 0 && leaf + half < leaves) ? op(node[l - 1], right) : node[l - 1];
    }
  };
#pragma unroll
  for (int k = 0; k < tiles_per_block; ++k) {
    T node[6];
    group_tree(k, node);
    if (lane == 0) group_roots[k * bitwise_warps + warp] = node[5];
  }
  __syncthreads();

  if (warp == 0) {
    // The levels over the groups, by shuffles: lane i holds group i's node of each level.
    const int groups = (leaves + warp_size - 1) / warp_size;
    T group_node[group_levels + 1];
    group_node[0] = lane < groups ? group_roots[lane] : T{};
#pragma unroll
    for (int l = 1; l <= group_levels; ++l) {
      const int half = 1 << (l - 1);
      const T right = __shfl_down_sync(full_warp_mask, group_node[l - 1], half);
      group_node[l] = ((lane & (2 * half - 1)) == 0 && lane + half < groups) ? op(group_node[l - 1], right)
                                                                              : group_node[l - 1];
    }
    T root = __shfl_sync(full_warp_mask, group_node[group_levels], 0);  // the block's node, in every lane
    // Every node this block needs from the others is node (b, (block >> b) - 1) for a set bit b
    // of its index: the chain's left siblings (the trailing ones; every set bit for the last
    // block) and the scan's prefix (every set bit). The block publishes its own node first
    // (others may be waiting on it), then lane b waits for node b: the chain's waits at once,
    // and the prefix's other waits only after the chain is published (waiting for them first
    // would hold back the chain's nodes, which later blocks wait for: a serial prefix chain).
    const bool chained = leaves > 0 && blocks > 1;
    // A reduce publishes only nodes that have a reader (left children with a right sibling), and
    // the reader empties the word again: the nodes stay zeroed for the next launch, no memset.
    // A scan's nodes have many readers and are zeroed before each launch.
    const auto has_reader = [&](int level, std::int64_t index) {
      return Scan || ((index & 1) == 0 && index + 1 < ((blocks + (std::int64_t(1) << level) - 1) >> level));
    };
    if (chained && lane == 0 && has_reader(0, block))
      TileWord<T>::publish(nodes + node_slot(blocks, 0, block), root, tile_aggregate);
    const std::int64_t chain_bits = block == blocks - 1 ? block : (block & ~(block + 1));
    T wanted{};
    if ((chain_bits >> lane) & 1) {
      TileWord<T>* const word = nodes + node_slot(blocks, lane, (block >> lane) - 1);
      wanted = wait_node(word);
      if (!Scan) TileWord<T>::publish(word, T{}, tile_empty);
    }
    bool at_root = blocks == 1;
    if (chained) {
      std::int64_t index = block;
      for (int level = 0;; ++level) {
        const std::int64_t level_count = (blocks + (std::int64_t(1) << level) - 1) >> level;
        if (level_count == 1) {
          at_root = true;
          break;
        }
        if (index & 1) root = op(__shfl_sync(full_warp_mask, wanted, level), root);
        else if (index + 1 < level_count) break;  // a left child with a right sibling: its chain goes on
        index >>= 1;
        if (lane == 0 && has_reader(level + 1, index))
          TileWord<T>::publish(nodes + node_slot(blocks, level + 1, index), root, tile_aggregate);
      }
    }
    if (!Scan && lane == 0 && at_root) *total = leaves > 0 ? root : identity_of<T>(op);
    if constexpr (Scan) {
      // The block's prefix: seed, then node (b, (block >> b) - 1) for every set bit b of block,
      // largest first, folded in order through shuffles.
      bool has = exclusive;
      T prefix = seed;
      if (((block & ~chain_bits) >> lane) & 1) wanted = wait_node(nodes + node_slot(blocks, lane, (block >> lane) - 1));
      if (block > 0) {
        const int top = 63 - __clzll(static_cast<long long>(block));
        for (int b = top; b >= 0; --b) {
          const T node_value = __shfl_sync(full_warp_mask, wanted, b);
          if ((block >> b) & 1) {
            prefix = fold_after(has, prefix, node_value, op);
            has = true;
          }
        }
      }
      // Group i's prefix: the block's, then the group-level nodes of i's set bits.
#pragma unroll
      for (int l = group_levels - 1; l >= 0; --l) {
        const T node_value = __shfl_sync(full_warp_mask, group_node[l], (lane >> (l + 1)) << (l + 1));
        if ((lane >> l) & 1) {
          prefix = fold_after(has, prefix, node_value, op);
          has = true;
        }
      }
      if (lane < groups) group_prefixes[lane] = prefix;
      if (lane == 0 && n == 0 && total != nullptr) *total = exclusive ? seed : identity_of<T>(op);
    }
  }
  if constexpr (Scan) {
    __syncthreads();
#pragma unroll
    for (int k = 0; k < tiles_per_block; ++k) {
      const int group = k * bitwise_warps + warp;
      T node[6];
      group_tree(k, node);
      // Only group 0 of block 0 of an unseeded scan starts with nothing.
      bool has = exclusive || block > 0 || group > 0;
      T running = has ? group_prefixes[group] : identity_of<T>(op);
#pragma unroll
      for (int l = 4; l >= 0; --l) {
        const T node_value = __shfl_sync(full_warp_mask, node[l], (lane >> (l + 1)) << (l + 1));
        if ((lane >> l) & 1) {
          running = fold_after(has, running, node_value, op);
          has = true;
        }
      }
#pragma unroll
      for (int e = 0; e < items; ++e) {
        if (e < in_leaf[k]) {
          const T value = values[k][e];
          if (exclusive) values[k][e] = running;
          running = fold_after(has, running, value, op);
          has = true;
          if (!exclusive) values[k][e] = running;
        }
      }
      const std::int64_t tile_begin = block_begin + std::int64_t(k) * bitwise_tile_size;
      if (Vectorized && block_count - std::int64_t(k) * bitwise_tile_size >= bitwise_tile_size) {
        constexpr int width = Vector16<T>::size;
        __syncwarp();
#pragma unroll
        for (int e = 0; e < items; ++e) exchange[exchange_padded(lane * items + e)] = values[k][e];
        __syncwarp();
        const std::int64_t warp_first = tile_begin + std::int64_t(warp) * warp_size * items;
#pragma unroll
        for (int v = 0; v < items / width; ++v) {
          const int index = (v * warp_size + lane) * width;
          Vector16<T> stored;
#pragma unroll
          for (int e = 0; e < width; ++e) stored.lane[e] = exchange[exchange_padded(index + e)];
          store_vector(out.data + warp_first + index, stored);
        }
      } else {
        const std::int64_t first = tile_begin + std::int64_t(threadIdx.x) * items;
#pragma unroll
        for (int e = 0; e < items; ++e)
          if (e < in_leaf[k]) out.data[(first + e) * out.stride] = values[k][e];
      }
      if (total != nullptr && in_leaf[k] > 0 && tile_begin + std::int64_t(threadIdx.x) * items + in_leaf[k] == n)
        *total = running;
    }
  }
}

}  // namespace kprim::impl::cuda
