#pragma once
// Team layer, hand-written CUDA: the public team-level calls (kprim/team.hpp) inside a user's
// TeamPolicy kernel when the team is the whole block, without vector lanes, in whole warps.
//
// The range goes in rounds of team_size x Items elements. Each warp takes 32 x Items consecutive
// elements of a round and reads them in rows of 32 (lane l reads element row * 32 + l: coalesced,
// Items loads in flight), scans every row with shuffles and chains the rows in registers, so the
// warp holds the inclusive scan of its span. The warps' totals meet in the Workspace (one barrier
// a round), each warp folds the totals before its own and stores its rows, again coalesced. The
// source and sink are the user's callables, so there are no vector loads and no shared-memory
// transpose (CUB's BlockLoad/BlockStore WARP_TRANSPOSE need the data's address); operand order is
// kept everywhere, so ops that are not commutative are right too.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <kprim/impl/cuda/load.cuh>
#include <kprim/impl/cuda/warp.cuh>
#include <kprim/ops.hpp>

#include <cstdint>

namespace kprim::impl::cuda {

/// Elements each thread holds per round: 128 bytes of accumulators, at most 16 (CUB's BlockScan
/// tuning for 4-byte types: 16 items per thread in 256-thread blocks).
template <class T>
inline constexpr int team_items_v = sizeof(T) >= 128 ? 1 : (128 / int(sizeof(T)) > 16 ? 16 : 128 / int(sizeof(T)));

/// True when the calling team can take this path: one team per block (Kokkos' blockDim.z),
/// no vector lanes (blockDim.x) and whole warps of team threads (blockDim.y).
__device__ __forceinline__ bool team_is_whole_warps() {
  return blockDim.x == 1 && blockDim.z == 1 && blockDim.y % warp_size == 0;
}

namespace detail {
/// The calling warp's rows of one round: element first + row * 32 (first already holds the lane).
template <bool Whole, int Items, class T, class Read>
__device__ __forceinline__ void load_rows(T (&items)[Items], std::int64_t first, std::int64_t n, const Read& read,
                                          const T& identity) {
#pragma unroll
  for (int row = 0; row < Items; ++row) {
    const std::int64_t i = first + std::int64_t(row) * warp_size;
    items[row] = (Whole || i < n) ? read(i) : identity;
  }
}

template <bool Whole, int Items, class T, class Write>
__device__ __forceinline__ void store_rows(const T (&items)[Items], std::int64_t first, std::int64_t n,
                                           const Write& write) {
#pragma unroll
  for (int row = 0; row < Items; ++row) {
    const std::int64_t i = first + std::int64_t(row) * warp_size;
    if (Whole || i < n) write(i, items[row]);
  }
}

/// Turns the warp's rows into the inclusive (or exclusive) scan of its 32 x Items elements in
/// row order; returns the warp's total to every lane.
template <bool Exclusive, int Items, class T, class Op>
__device__ __forceinline__ T scan_rows(T (&items)[Items], const Op& op, int lane) {
  T running;
#pragma unroll
  for (int row = 0; row < Items; ++row) {
    const T inclusive = warp_inclusive_scan(items[row], op);
    const T row_total = shuffle_index(inclusive, warp_size - 1);
    if constexpr (Exclusive) {
      const T before = shuffle_up(inclusive, 1);
      if (row == 0) items[row] = lane == 0 ? identity_of<T>(op) : before;
      else items[row] = lane == 0 ? running : op(running, before);
    } else {
      items[row] = row == 0 ? inclusive : op(running, inclusive);
    }
    running = row == 0 ? row_total : op(running, row_total);
  }
  return running;
}

/// op(carry, totals[0 .. warps)) into `carry`; returns op(carry, totals[0 .. warp)).
template <class T, class Op>
__device__ __forceinline__ T fold_warp_totals(const T* totals, int warps, int warp, const Op& op, T& carry) {
  T before = carry;
  for (int w = 0; w < warps; ++w) {
    if (w == warp) before = carry;
    carry = op(carry, totals[w]);
  }
  return before;
}
}  // namespace detail

/// Scan of read(0 .. n) by the whole block: write(i, op(carry, read(0), ..., read(i))) for an
/// inclusive scan, op(carry, read(0), ..., read(i - 1)) for an exclusive one; returns
/// op(carry, everything). `slots` is the Workspace: two rounds' warp totals (2 x warps slots).
/// The caller must barrier before reusing it.
template <bool Exclusive, class T, class Read, class Write, class Op>
__device__ T team_scan(std::int64_t n, const Read& read, const Write& write, const Op& op, T carry, T* slots) {
  constexpr int items_per_thread = team_items_v<T>;
  const int lane = int(threadIdx.y) % warp_size, warp = int(threadIdx.y) / warp_size;
  const int warps = int(blockDim.y) / warp_size;
  const std::int64_t round_size = std::int64_t(blockDim.y) * items_per_thread;
  const T identity = identity_of<T>(op);
  int parity = 0;
  for (std::int64_t round = 0; round < n; round += round_size, parity ^= 1) {
    const std::int64_t first = round + std::int64_t(warp) * warp_size * items_per_thread + lane;
    const bool whole = n - round >= round_size;
    T items[items_per_thread];
    if (whole) detail::load_rows<true>(items, first, n, read, identity);
    else detail::load_rows<false>(items, first, n, read, identity);
    const T warp_total = detail::scan_rows<Exclusive>(items, op, lane);
    // Alternate halves of the slots: a round's totals are read before the next round's barrier,
    // so the round after that may overwrite them.
    T* const totals = slots + parity * warps;
    if (lane == 0) totals[warp] = warp_total;
    __syncthreads();
    const T before = detail::fold_warp_totals(totals, warps, warp, op, carry);
#pragma unroll
    for (int row = 0; row < items_per_thread; ++row) items[row] = op(before, items[row]);
    if (whole) detail::store_rows<true>(items, first, n, write);
    else detail::store_rows<false>(items, first, n, write);
  }
  return carry;
}

namespace detail {
/// A sink that drops what it is given: a reduce in range order is a scan that stores nothing.
struct DiscardValues {
  template <class T>
  __device__ void operator()(std::int64_t, const T&) const {}
};
}  // namespace detail

/// op over read(0 .. n) by the whole block, every thread gets it (identity for n <= 0).
/// Commutative ops fold each thread's elements over all rounds and then the lanes; the others go
/// through team_scan's rows (a thread's elements of two rounds are not adjacent in the range).
/// `slots` as for team_scan.
template <class T, class Read, class Op>
__device__ T team_reduce(std::int64_t n, const Read& read, const Op& op, T* slots) {
  if constexpr (!is_commutative_v<Op>) {
    return team_scan<false>(n, read, detail::DiscardValues{}, op, identity_of<T>(op), slots);
  } else {
    constexpr int items_per_thread = team_items_v<T>;
    const int lane = int(threadIdx.y) % warp_size, warp = int(threadIdx.y) / warp_size;
    const int warps = int(blockDim.y) / warp_size;
    const std::int64_t round_size = std::int64_t(blockDim.y) * items_per_thread;
    const T identity = identity_of<T>(op);
    T running = identity;
    for (std::int64_t round = 0; round < n; round += round_size) {
      const std::int64_t first = round + std::int64_t(warp) * warp_size * items_per_thread + lane;
      T items[items_per_thread];
      if (n - round >= round_size) detail::load_rows<true>(items, first, n, read, identity);
      else detail::load_rows<false>(items, first, n, read, identity);
#pragma unroll
      for (int row = 0; row < items_per_thread; ++row) running = op(running, items[row]);
    }
    running = warp_reduce(running, op);
    if (lane == 0) slots[warp] = running;
    __syncthreads();
    T total = identity;
    for (int w = 0; w < warps; ++w) total = op(total, slots[w]);
    return total;
  }
}

// The vector level: the vector lanes of one team thread (Kokkos' ThreadVectorRange: threadIdx.x,
// blockDim.x a power of two <= 32, so a thread's lanes are an aligned group of one warp) go over
// the range in rows of blockDim.x elements, each row scanned with shuffles over the group only.

/// The calling thread's group of vector lanes as a shuffle mask.
__device__ __forceinline__ unsigned vector_lanes_mask() {
  const unsigned width = blockDim.x;
  if (width >= unsigned(warp_size)) return full_warp_mask;
  const unsigned first = unsigned(lane_id()) - threadIdx.x;  // the group's first lane in the warp
  return ((1u << width) - 1u) << first;
}

/// Scan of read(0 .. n) by the calling thread's vector lanes: write(i, op(carry, read(0), ...,
/// read(i))) (inclusive) or op(carry, read(0), ..., read(i - 1)) (exclusive); returns
/// op(carry, everything) to every lane.
template <bool Exclusive, class T, class Read, class Write, class Op>
__device__ T vector_scan(std::int64_t n, const Read& read, const Write& write, const Op& op, T carry) {
  const int width = int(blockDim.x), lane = int(threadIdx.x);
  const unsigned mask = vector_lanes_mask();
  const T identity = identity_of<T>(op);
  for (std::int64_t row = 0; row < n; row += width) {
    const std::int64_t i = row + lane;
    T scanned = i < n ? T(read(i)) : identity;
    for (int offset = 1; offset < width; offset *= 2) {
      const T lower = shuffle_up(scanned, offset, width, mask);
      if (lane >= offset) scanned = op(lower, scanned);
    }
    const T row_total = shuffle_index(scanned, width - 1, width, mask);
    if constexpr (Exclusive) {
      const T before = shuffle_up(scanned, 1, width, mask);
      if (i < n) write(i, lane == 0 ? carry : T(op(carry, before)));
    } else {
      if (i < n) write(i, T(op(carry, scanned)));
    }
    carry = op(carry, row_total);
  }
  return carry;
}

/// op over read(0 .. n) by the calling thread's vector lanes; every lane gets it.
template <class T, class Read, class Op>
__device__ T vector_reduce(std::int64_t n, const Read& read, const Op& op) {
  if constexpr (!is_commutative_v<Op>) {
    return vector_scan<false>(n, read, detail::DiscardValues{}, op, identity_of<T>(op));
  } else {
    const int width = int(blockDim.x), lane = int(threadIdx.x);
    const unsigned mask = vector_lanes_mask();
    T running = identity_of<T>(op);
    for (std::int64_t i = lane; i < n; i += width) running = op(running, T(read(i)));
    for (int offset = 1; offset < width; offset *= 2) running = op(running, shuffle_down(running, offset, width, mask));
    return shuffle_index(running, 0, width, mask);
  }
}

namespace detail {
/// The calling lane's run [begin, end) of an in-order fold of n elements: runs of
/// ceil(n / lanes) elements in lane order (the last lanes may have none).
struct LaneRun {
  std::int64_t begin, end, length;
  __device__ explicit LaneRun(std::int64_t n) : length((n + std::int64_t(blockDim.x) - 1) / std::int64_t(blockDim.x)) {
    const std::int64_t start = std::int64_t(threadIdx.x) * length;
    begin = start < n ? start : n;
    end = begin + length < n ? begin + length : n;
  }
};

/// op over the lanes' run values in lane order (only the first `runs` lanes hold one); every
/// lane gets it.
template <class T, class Op>
__device__ T join_runs_in_order(T value, std::int64_t runs, const Op& op) {
  const int lanes = int(blockDim.x), lane = int(threadIdx.x);
  const unsigned mask = vector_lanes_mask();
  for (int offset = 1; offset < lanes; offset *= 2) {
    const T after = shuffle_down(value, offset, lanes, mask);
    if ((lane & (2 * offset - 1)) == 0 && lane + offset < runs) value = op(value, after);
  }
  return shuffle_index(value, 0, lanes, mask);
}
}  // namespace detail

/// op over read(0 .. n), n >= 1, in range order by the calling thread's vector lanes, for any
/// associative op (no identity needed, commutative or not); every lane gets it. Lane l folds the
/// l-th of blockDim.x contiguous runs (four loads in flight; the sectors a lane reads serve its
/// next loads from L1), and one shuffle tree combines the runs in lane order. H100, 2^26 floats,
/// a lambda `a + b` (results/README.md, "Segmented calls with ops without identity()"): segments
/// of ~1000 0.88-0.89x CUB, ~10^6 1.03-1.09x. Rows of lanes, each row folded by a tree (coalesced),
/// issued 12x the instructions of a strided fold: 0.58x and 1.55x; runs cut into blocks of 128
/// bytes a lane: 0.62x and 1.08x.
template <class T, class Read, class Op>
__device__ T vector_fold_in_order(std::int64_t n, const Read& read, const Op& op) {
  const detail::LaneRun run(n);
  T value{};
  if (run.begin < run.end) {
    value = T(read(run.begin));
    std::int64_t i = run.begin + 1;
    for (; i + 3 < run.end; i += 4) {
      const T a = T(read(i)), b = T(read(i + 1)), c = T(read(i + 2)), d = T(read(i + 3));
      value = T(op(T(op(T(op(T(op(value, a)), b)), c)), d));
    }
    for (; i < run.end; ++i) value = T(op(value, T(read(i))));
  }
  return detail::join_runs_in_order(value, (n + run.length - 1) / run.length, op);
}

/// vector_fold_in_order over the contiguous data[0 .. n), n >= 1: each lane reads its run in
/// 16-byte vectors (its unaligned ends element by element), so a load uses its whole sector where
/// an element at a time needs the line to stay in L1 for the lane's next loads. H100, 2^26 floats
/// in segments of ~1000, a lambda `a + b`: 147-155 us against 202-213 element by element in a
/// kernel of 32 registers (all 64 warps of an SM resident: the L1 thrashed; 180 us at 40).
template <class T, class In, class Op>
__device__ T vector_fold_runs_contiguous(const In* data, std::int64_t n, const Op& op) {
  constexpr int width = vector_width_v<In>;
  const detail::LaneRun run(n);
  T value{};
  if (run.begin < run.end) {
    value = T(data[run.begin]);
    std::int64_t i = run.begin + 1;
    for (; i < run.end && reinterpret_cast<std::uintptr_t>(data + i) % 16 != 0; ++i) value = T(op(value, T(data[i])));
    for (; i + 2 * width <= run.end; i += 2 * width) {  // two loads in flight
      const Vector16<In> first = load_vector(data + i), second = load_vector(data + i + width);
#pragma unroll
      for (int k = 0; k < width; ++k) value = T(op(value, T(first.lane[k])));
#pragma unroll
      for (int k = 0; k < width; ++k) value = T(op(value, T(second.lane[k])));
    }
    for (; i < run.end; ++i) value = T(op(value, T(data[i])));
  }
  return detail::join_runs_in_order(value, (n + run.length - 1) / run.length, op);
}

namespace detail {
/// left op right for values that may be empty (ops without identity): the other one when one is.
template <class T, class Op>
__device__ __forceinline__ T join_in_order(const T& left, bool has_left, const T& right, bool has_right, const Op& op) {
  return has_left && has_right ? T(op(left, right)) : (has_left ? left : right);
}

/// One butterfly step of vector_fold_contiguous_in_order: the lanes `offset` apart, each holding
/// the same Held rows, swap halves; the lower lane keeps the first half of the rows joined over
/// both lanes (its own values on the left), the upper the second half.
template <int Held, class T, int Rows, class Op>
__device__ __forceinline__ void keep_half_of_rows(T (&value)[Rows], bool (&has)[Rows], int lane, int offset,
                                                  const Op& op) {
  const bool upper = (lane & offset) != 0;
#pragma unroll
  for (int j = 0; j < Held / 2; ++j) {
    // Both halves read into scalars before choosing: a choice between two array elements is a choice
    // of address, which keeps the array in local memory.
    const T first_half = value[j], second_half = value[Held / 2 + j];
    const bool first_has = has[j], second_has = has[Held / 2 + j];
    const T received = shuffle_index(upper ? first_half : second_half, lane ^ offset);
    const bool received_has = shuffle_index(int(upper ? first_has : second_has), lane ^ offset) != 0;
    const T own = upper ? second_half : first_half;
    const bool own_has = upper ? second_has : first_has;
    value[j] = upper ? join_in_order(received, received_has, own, own_has, op)
                     : join_in_order(own, own_has, received, received_has, op);
    has[j] = own_has || received_has;
  }
}
}  // namespace detail

/// op over data[0 .. n), n >= 1, in index order (In converted to T), by a warp of 32 vector lanes
/// (blockDim.x == 32), for any associative op. A pass reads 8 rows of 32 16-byte vectors, each
/// row one coalesced 512-byte load (lane l's vector is the row's l-th), and each lane folds its
/// vectors' elements; a butterfly then folds the 32 lanes of every row, halving the rows each lane
/// holds at each step (4 + 2 + 1 shuffles, then 2 joining lanes), and 3 more shuffles fold the 8
/// row totals in row order. Vectors only partly inside [0, n) are read element by element (no
/// byte outside is read).
template <class T, class In, class Op>
__device__ T vector_fold_contiguous_in_order(const In* data, std::int64_t n, const Op& op) {
  constexpr int width = vector_width_v<In>;
  constexpr int rows = 8;
  constexpr std::int64_t per_pass = std::int64_t(rows) * warp_size * width;
  const int lane = int(threadIdx.x);
  // Positions count from the 16-byte boundary at or before data; the elements are [skew, end).
  const std::int64_t skew = std::int64_t((reinterpret_cast<std::uintptr_t>(data) % 16) / sizeof(In));
  const In* const base = data - skew;
  const std::int64_t end = skew + n;
  T total{};
  bool has_total = false;
  for (std::int64_t pass = 0; pass < end; pass += per_pass) {
    T value[rows];
    bool has[rows];
#pragma unroll
    for (int r = 0; r < rows; ++r) {
      const std::int64_t first = pass + (std::int64_t(r) * warp_size + lane) * width;
      T row_value{};
      bool row_has = false;
      if (first >= skew && first + width <= end) {
        const Vector16<In> v = load_vector(base + first);
        row_value = T(v.lane[0]);
#pragma unroll
        for (int k = 1; k < width; ++k) row_value = T(op(row_value, T(v.lane[k])));
        row_has = true;
      } else if (first + width > skew && first < end) {
#pragma unroll
        for (int k = 0; k < width; ++k) {
          if (first + k >= skew && first + k < end) {
            row_value = detail::join_in_order(row_value, row_has, T(base[first + k]), true, op);
            row_has = true;
          }
        }
      }
      value[r] = row_value;
      has[r] = row_has;
    }
    // Lanes 1, 2, 4 apart swap half their rows (the lower lane keeps the first half, its values the
    // left operands): lane l ends with row 4 b0 + 2 b1 + b2 (its bits) over its 8 lanes. Offsets 8
    // then 16 join neighbouring lanes (in that order: 16 first would join lanes 0-7 to 16-23), then
    // offsets 4, 2, 1 join rows r and r + 1, r + 2, r + 4, in order.
    detail::keep_half_of_rows<rows>(value, has, lane, 1, op);
    detail::keep_half_of_rows<rows / 2>(value, has, lane, 2, op);
    detail::keep_half_of_rows<rows / 4>(value, has, lane, 4, op);
    T joined = value[0];
    bool joined_has = has[0];
    constexpr int join_offsets[] = {8, 16, 4, 2, 1};
#pragma unroll
    for (const int offset : join_offsets) {
      const T received = shuffle_index(joined, lane ^ offset);
      const bool received_has = shuffle_index(int(joined_has), lane ^ offset) != 0;
      joined = (lane & offset) != 0 ? detail::join_in_order(received, received_has, joined, joined_has, op)  // partner first
                                    : detail::join_in_order(joined, joined_has, received, received_has, op);
      joined_has = joined_has || received_has;
    }
    total = detail::join_in_order(total, has_total, joined, joined_has, op);
    has_total = has_total || joined_has;
  }
  return total;
}

}  // namespace kprim::impl::cuda

#endif
