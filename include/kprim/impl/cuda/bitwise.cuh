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
/// Tiles per block (a block's tiles form one aligned node of the tree over tiles) and the minimum
/// of resident blocks per SM the compiler must allow (it caps registers). A scan waits at a block
/// barrier with its tiles loaded, so it keeps 32 KB of them in shared memory, filled by cp.async,
/// at 6 blocks per SM (40 registers): twice the bytes in flight of tiles held in registers, whose
/// 85-register cap allowed 3. The reduce waits only in warp 0 (on half of the blocks) and keeps
/// its leaves in registers.
// H100, 2026-11-27: bitwise scan time / default scan time at 2^28 1.68 -> 1.26 (float), 1.45 ->
// 1.25 (double) against tiles in registers at (4 tiles, 3 blocks) / (2, 4); reduce (2, 6) float
// and (1, 8) double were the fastest in 2026-11-22's sweep (perf_tests/results/README.md).
template <class T, bool Scan>
struct BitwiseShape {
  static constexpr int tiles_per_block = Scan ? int(32768 / (bitwise_tile_size * sizeof(T))) : (sizeof(T) == 4 ? 2 : 1);
  static constexpr int min_blocks_per_sm = Scan ? 6 : (sizeof(T) == 4 ? 6 : 8);
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
__device__ T wait_node(const TileWord<T>* word, unsigned epoch) {
  T value;
  unsigned flag;
  TileWord<T>::read(word, value, flag, epoch);
  while (flag == tile_empty) TileWord<T>::read(word, value, flag, epoch);
  return value;
}

/// Writes the calling warp's 32 leaves of full, aligned, contiguous tile `tile` (x, or x * y
/// rounded for a dot) into `exchange`, leaf j of the warp at exchange_padded(j * 8 + e): each load
/// instruction reads 512 contiguous bytes. The caller __syncwarp()s before reading them.
template <class T, bool Dot>
__device__ void stage_full_leaves(const Input<T>& x, const Input<T>& y, std::int64_t tile, T* exchange) {
  constexpr int items = bitwise_leaf_size;
  constexpr int width = Vector16<T>::size;
  const int lane = lane_id();
  const std::int64_t warp_first = tile * bitwise_tile_size + std::int64_t(threadIdx.x / warp_size) * warp_size * items;
  Vector16<T> loaded[items / width], factor[items / width];
#pragma unroll
  for (int v = 0; v < items / width; ++v) {
    loaded[v] = load_vector(x.data + warp_first + (v * warp_size + lane) * width);
    if constexpr (Dot) factor[v] = load_vector(y.data + warp_first + (v * warp_size + lane) * width);
  }
#pragma unroll
  for (int v = 0; v < items / width; ++v) {
    const int index = (v * warp_size + lane) * width;
#pragma unroll
    for (int k = 0; k < width; ++k)
      exchange[exchange_padded(index + k)] = Dot ? rounded_product(loaded[v].lane[k], factor[v].lane[k]) : loaded[v].lane[k];
  }
}

/// Element e of the thread's leaf of tile `tile` (x, or x * y rounded for a dot), loaded alone
/// (partial, unaligned or strided tiles); e must lie before n.
template <class T, bool Dot>
__device__ __forceinline__ T leaf_element(const Input<T>& x, const Input<T>& y, std::int64_t i) {
  const T value = x.data[i * x.stride];
  return Dot ? rounded_product(value, y.data[i * y.stride]) : value;
}

/// A tile held in shared memory while its block waits: each warp's 32 leaves as 16-byte chunks,
/// leaf j in chunks j * LeafChunks ..., chunk c stored at c ^ ((c / 8) % LeafChunks). The
/// swizzle keeps both accesses free of bank conflicts: the warp's copies of 32 consecutive
/// chunks, and each lane's 16-byte reads of its own leaf (8 lanes a phase, 8 distinct bank groups).
template <int LeafChunks>
__device__ __forceinline__ int swizzled_chunk(int chunk) {
  return chunk ^ ((chunk >> 3) & (LeafChunks - 1));
}

/// 16 bytes from global to shared memory without passing through registers (cp.async, sm_80+),
/// so a block keeps all its tiles' loads in flight at no register cost; wait_async_copies()
/// waits for the calling thread's. Older GPUs copy through a register.
template <class T>
__device__ __forceinline__ void copy_async_16(Vector16<T>* shared, const T* global) {
#if __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(address), "l"(global) : "memory");
#else
  *shared = load_vector(global);
#endif
}
__device__ __forceinline__ void wait_async_copies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/// op(a, b), or b alone when a is missing.
template <class T, class Op>
__device__ __forceinline__ T fold_after(bool has, const T& a, const T& b, const Op& op) {
  return has ? op(a, b) : b;
}

/// Reduce (Scan = false: *total = the tree's root) or scan in -> out (*total, if given, = the
/// value after the last element) of n elements in `blocks` = max(1, ceil(n / block elements))
/// blocks of TilesPerBlock tiles (a scan holds them in shared memory, a reduce in registers).
template <class T, class Op, bool Vectorized, bool Scan, bool Dot,
          int TilesPerBlock = BitwiseShape<T, Scan>::tiles_per_block,
          int MinBlocksPerSM = BitwiseShape<T, Scan>::min_blocks_per_sm>
__global__ void __launch_bounds__(bitwise_block_size, MinBlocksPerSM)
    bitwise_kernel(Input<T> x, Input<T> y, Output<T> out, std::int64_t n, std::int64_t blocks, bool exclusive, T seed,
                   Op op, T* total, TileWord<T>* nodes, unsigned* block_counter, unsigned epoch) {
  constexpr int items = bitwise_leaf_size;
  constexpr int tiles_per_block = TilesPerBlock;
  constexpr std::int64_t block_elements = bitwise_tile_size * tiles_per_block;
  constexpr int groups_max = bitwise_warps * tiles_per_block;  // warp-sized groups of leaves per block
  constexpr int group_levels = tiles_per_block == 4 ? 5 : tiles_per_block == 2 ? 4 : 3;  // log2(groups_max)
  static_assert(groups_max <= warp_size && (1 << group_levels) == groups_max);
  constexpr int width = Vector16<T>::size;
  constexpr int leaf_chunks = items / width;
  constexpr int warp_chunks = warp_size * leaf_chunks;
  // A scan keeps every tile's leaves in shared memory, a warp's in warp_chunks swizzled chunks. A
  // reduce keeps them in registers, and one tile at a time passes through each warp's exchange
  // slots (exchange_padded: conflict-free) on its way from global memory.
  constexpr bool tiles_in_shared = Scan;
  constexpr int warp_slots = exchange_padded(warp_size * items);
  __shared__ Vector16<T> tile_chunks[tiles_in_shared ? tiles_per_block * bitwise_warps * warp_chunks : 1];
  __shared__ T exchange_storage[tiles_in_shared ? 1 : bitwise_warps * warp_slots];
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
  T* const exchange = exchange_storage + (tiles_in_shared ? 0 : warp * warp_slots);
  // The warp's chunks of tile k (scans).
  const auto chunks = [&](int k) { return tile_chunks + (k * bitwise_warps + warp) * (tiles_in_shared ? warp_chunks : 0); };

  // Leaf j of tile k of the block is this thread's for j = threadIdx.x; group k * 8 + warp.
  T registers[tiles_in_shared ? 1 : tiles_per_block][items];
  // Element e of this thread's leaf of tile k: in registers, or in shared memory.
  const auto value = [&](int k, int e) -> T& {
    if constexpr (tiles_in_shared) return chunks(k)[swizzled_chunk<leaf_chunks>(lane * leaf_chunks + e / width)].lane[e % width];
    else return registers[k][e];
  };
  // From shared memory, 4-byte leaves are copied to registers and back in 16-byte vectors (element
  // by element, 4 lanes would share each bank); 8-byte ones are read and written in place (a
  // copy in registers pushed the kernel past its 40 registers: ptxas spilled 200 bytes).
  constexpr bool leaf_copies = tiles_in_shared && sizeof(T) == 4;
  const auto read_leaf = [&](int k, T (&leaf)[items]) {
#pragma unroll
    for (int h = 0; h < leaf_chunks; ++h) {
      const Vector16<T> chunk = chunks(k)[swizzled_chunk<leaf_chunks>(lane * leaf_chunks + h)];
#pragma unroll
      for (int e = 0; e < width; ++e) leaf[h * width + e] = chunk.lane[e];
    }
  };
  const auto write_leaf = [&](int k, const T (&leaf)[items]) {
#pragma unroll
    for (int h = 0; h < leaf_chunks; ++h) {
      Vector16<T> chunk;
#pragma unroll
      for (int e = 0; e < width; ++e) chunk.lane[e] = leaf[h * width + e];
      chunks(k)[swizzled_chunk<leaf_chunks>(lane * leaf_chunks + h)] = chunk;
    }
  };
  // Elements in this thread's leaf of tile k (0-8); whether tile k is whole and moved in vectors.
  // Recomputed where used: arrays of them would cost registers (scans run at 40).
  const auto in_leaf = [&](int k) {
    const std::int64_t rest = block_count - std::int64_t(k) * bitwise_tile_size - std::int64_t(threadIdx.x) * items;
    return int(rest <= 0 ? 0 : (rest > items ? items : rest));
  };
  const auto full_tile = [&](int k) {
    return Vectorized && block_count - std::int64_t(k) * bitwise_tile_size >= bitwise_tile_size;
  };
#pragma unroll
  for (int k = 0; k < tiles_per_block; ++k) {
    const std::int64_t tile = block * tiles_per_block + k;
    if (full_tile(k)) {
      if constexpr (tiles_in_shared) {
        const T* const warp_data = x.data + tile * bitwise_tile_size + std::int64_t(warp) * warp_size * items;
#pragma unroll
        for (int v = 0; v < leaf_chunks; ++v) {
          const int c = v * warp_size + lane;
          copy_async_16(chunks(k) + swizzled_chunk<leaf_chunks>(c), warp_data + c * width);
        }
        continue;
      } else {
        __syncwarp();  // the previous tile has been read from the slots
        stage_full_leaves<T, Dot>(x, y, tile, exchange);
        __syncwarp();
#pragma unroll
        for (int e = 0; e < items; ++e) value(k, e) = exchange[exchange_padded(lane * items + e)];
      }
    } else {
      const std::int64_t leaf_first = block_begin + std::int64_t(k) * bitwise_tile_size + std::int64_t(threadIdx.x) * items;
      T copy[items];
#pragma unroll
      for (int e = 0; e < items; ++e)
        if (e < in_leaf(k)) (leaf_copies ? copy[e] : value(k, e)) = leaf_element<T, Dot>(x, y, leaf_first + e);
      if (leaf_copies) write_leaf(k, copy);
    }
  }
  if constexpr (tiles_in_shared) {
    wait_async_copies();
    __syncwarp();  // every lane's copies and leaves are visible to the warp
  }
  // node[l]: this lane's node of level l of the tree over its group of 32 leaves (where lane %
  // 2^l == 0), for tile k. Recomputed by a scan after its wait rather than held in registers.
  const auto group_tree = [&](int k, T (&node)[6]) {
    const int leaf_index = k * bitwise_block_size + int(threadIdx.x);
    T copy[items];
    if (leaf_copies && in_leaf(k) > 0) read_leaf(k, copy);
    const auto element = [&](int e) -> const T& { return leaf_copies ? copy[e] : value(k, e); };
    node[0] = in_leaf(k) > 0 ? element(0) : T{};
#pragma unroll
    for (int e = 1; e < items; ++e)
      if (e < in_leaf(k)) node[0] = op(node[0], element(e));
#pragma unroll
    for (int l = 1; l <= 5; ++l) {
      const int half = 1 << (l - 1);
      const T right = __shfl_down_sync(full_warp_mask, node[l - 1], half);
      node[l] = ((lane & (2 * half - 1)) == 0 && leaf_index + half < leaves) ? op(node[l - 1], right) : node[l - 1];
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
    // A scan's nodes have many readers: its flags carry the call's epoch instead (epoch 0 for a reduce).
    const auto has_reader = [&](int level, std::int64_t index) {
      return Scan || ((index & 1) == 0 && index + 1 < ((blocks + (std::int64_t(1) << level) - 1) >> level));
    };
    if (chained && lane == 0 && has_reader(0, block))
      TileWord<T>::publish(nodes + node_slot(blocks, 0, block), root, tile_aggregate, epoch);
    const std::int64_t chain_bits = block == blocks - 1 ? block : (block & ~(block + 1));
    T wanted{};
    if ((chain_bits >> lane) & 1) {
      TileWord<T>* const word = nodes + node_slot(blocks, lane, (block >> lane) - 1);
      wanted = wait_node(word, epoch);
      if (!Scan) TileWord<T>::publish(word, T{}, tile_empty, epoch);
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
          TileWord<T>::publish(nodes + node_slot(blocks, level + 1, index), root, tile_aggregate, epoch);
      }
    }
    if (!Scan && lane == 0 && at_root) *total = leaves > 0 ? root : identity_of<T>(op);
    if constexpr (Scan) {
      // The block's prefix: seed, then node (b, (block >> b) - 1) for every set bit b of block,
      // largest first, folded in order through shuffles.
      bool has = exclusive;
      T prefix = seed;
      if (((block & ~chain_bits) >> lane) & 1) wanted = wait_node(nodes + node_slot(blocks, lane, (block >> lane) - 1), epoch);
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
    // One tile at a time (its leaves are in shared memory): unrolled, the scan went past its 40
    // registers (ptxas spilled 84-260 bytes).
#pragma unroll 1
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
      T copy[items];
      if (leaf_copies && in_leaf(k) > 0) read_leaf(k, copy);
      const auto element = [&](int e) -> T& { return leaf_copies ? copy[e] : value(k, e); };
#pragma unroll
      for (int e = 0; e < items; ++e) {
        if (e < in_leaf(k)) {
          const T before = element(e);
          if (exclusive) element(e) = running;
          running = fold_after(has, running, before, op);
          has = true;
          if (!exclusive) element(e) = running;
        }
      }
      const std::int64_t tile_begin = block_begin + std::int64_t(k) * bitwise_tile_size;
      const std::int64_t warp_first = tile_begin + std::int64_t(warp) * warp_size * items;
      if (full_tile(k)) {
        if (leaf_copies) write_leaf(k, copy);
        __syncwarp();  // every lane's scanned leaf is in the chunks
#pragma unroll
        for (int v = 0; v < leaf_chunks; ++v) {
          const int c = v * warp_size + lane;
          store_vector(out.data + warp_first + c * width, chunks(k)[swizzled_chunk<leaf_chunks>(c)]);
        }
      } else {
        const std::int64_t first = tile_begin + std::int64_t(threadIdx.x) * items;
#pragma unroll
        for (int e = 0; e < items; ++e)
          if (e < in_leaf(k)) out.data[(first + e) * out.stride] = element(e);
      }
      if (total != nullptr && in_leaf(k) > 0 && tile_begin + std::int64_t(threadIdx.x) * items + in_leaf(k) == n)
        *total = running;
    }
  }
}

}  // namespace kprim::impl::cuda
