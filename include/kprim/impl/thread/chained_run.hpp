#pragma once
// Thread layer: fold and scan of one thread's contiguous run of elements, split into several
// independent chains so consecutive ops do not wait on each other (and, for long host runs,
// into blocks combined pairwise, so rounding errors grow with log n).
//
// A single running value makes every op wait for the one before (4 cycles per float add on
// current CPUs); with 8 chains the CPU keeps several ops in flight. Commutative ops fold with
// interleaved lanes (chain c takes elements c, c + 8, ...): two input streams for a dot instead
// of sixteen, and loops the compiler turns into SIMD adds. Other ops fold 8 contiguous segments
// combined in order (segment 0, then 1, ...), so associative ops that are not commutative stay
// exact. Floating-point scans go 8 elements at a time (an in-order scan of the 8, then one op with
// the running prefix); other scans run one chain (integer ops take one cycle; user ops are
// usually throughput-bound).
//
// Measured on the 2-core AMD EPYC VM (OpenMP, 2 threads, Kokkos 5.2.2, GB/s at 2^24, 2026-11-23,
// kprim-bench): segments everywhere: reduce float 23.5, dot float 5.5, inclusive scan int32 11.0
// (Kokkos 9.6, 18.2, 17.3). Scan of a 16 KiB tile in L1, one thread, g++ -O3, ns per element:
// float sequential 0.81, 8 segment chains (with their extra folds) 0.92, blocks of 8 0.39; double
// 0.80 / 0.86 / 0.41; int32 sequential 0.28-0.54, blocks of 8 0.34.
#include <kprim/ops.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kprim::impl::thread {

/// A chain's start: op's identity, or for an op without one the chain's first element, which the
/// chain then skips (chain_skip elements).
template <class T, class Op, class Get>
KOKKOS_FORCEINLINE_FUNCTION T chain_start(const Op& op, const Get& get, std::int64_t first) {
  if constexpr (HasIdentity<Op, T>) return identity_of<T>(op);
  else return T(get(first));
}
template <class Op, class T>
inline constexpr std::int64_t chain_skip = HasIdentity<Op, T> ? 0 : 1;

/// Chains of a fold unless a caller asks for more.
inline constexpr int default_fold_chains = 8;

/// op(get(begin), ..., get(end - 1)) with `Chains` independent chains when each gets at least 64
/// elements, else one; identity for an empty run (which an op without identity must not be given).
template <class T, int Chains = default_fold_chains, class Get, class Op>
KOKKOS_FUNCTION T fold_chains(std::int64_t begin, std::int64_t end, const Get& get, const Op& op) {
  constexpr int chains = Chains;
  constexpr std::int64_t skip = chain_skip<Op, T>;
  if (end - begin >= std::int64_t(chains) * 64) {
    const std::int64_t length = (end - begin) / chains;
    T acc[chains];
    if constexpr (is_commutative_v<Op>) {
      for (int c = 0; c < chains; ++c) acc[c] = chain_start<T>(op, get, begin + c);
      for (std::int64_t j = skip; j < length; ++j)
        for (int c = 0; c < chains; ++c) acc[c] = op(acc[c], get(begin + j * chains + c));
    } else {
      for (int c = 0; c < chains; ++c) acc[c] = chain_start<T>(op, get, begin + c * length);
      for (std::int64_t j = skip; j < length; ++j)
        for (int c = 0; c < chains; ++c) acc[c] = op(acc[c], get(begin + c * length + j));
    }
    T total = acc[0];
    for (int c = 1; c < chains; ++c) total = op(total, acc[c]);
    for (std::int64_t i = begin + chains * length; i < end; ++i) total = op(total, get(i));
    return total;
  }
  T total = chain_start<T>(op, get, begin);
  for (std::int64_t i = begin + skip; i < end; ++i) total = op(total, get(i));
  return total;
}

/// Elements per block of a host fold: 8 chains of 256 (or 16 of 128). A floating-point sum's
/// rounding error then grows with 256 + log2(n / 2048) additions instead of n / 16 per thread.
/// 2^24 uniform floats, OpenMP on 2 threads, 2026-11-24: relative error 8.4e-6 unblocked, 3.7e-8
/// blocked (pairwise 2.2e-8), for one extra op per block; kprim-bench speed unchanged within the
/// VM's noise.
inline constexpr std::int64_t fold_block = 2048;

/// op(get(begin), ..., get(end - 1)) for get(i) returning T; identity for an empty run. On the
/// host, runs longer than fold_block fold block by block (fold_chains) and the blocks combine
/// pairwise in order (a binary counter: level k holds the fold of 2^k consecutive blocks), so
/// the order is kept for ops that are not commutative and long runs stay accurate; each block in
/// HostChains chains (more pay where g++ keeps them in vectors: contiguous loads of floating
/// point, whose adds take several cycles). GPU threads fold short runs, in chains only.
template <class T, int HostChains = default_fold_chains, class Get, class Op>
KOKKOS_FUNCTION T fold_run(std::int64_t begin, std::int64_t end, const Get& get, const Op& op) {
  KOKKOS_IF_ON_HOST((
    if (end - begin > fold_block) {
      constexpr int max_levels = 64;  // 2^64 blocks: any run
      T levels[max_levels];
      std::uint64_t occupied = 0;  // bit k: levels[k] holds a fold
      for (std::int64_t block = begin; block < end; block += fold_block) {
        T value = fold_chains<T, HostChains>(block, Kokkos::min(end, block + fold_block), get, op);
        int level = 0;
        for (; occupied & (std::uint64_t(1) << level); ++level) {
          value = op(levels[level], value);  // the higher level holds the earlier blocks
          occupied &= ~(std::uint64_t(1) << level);
        }
        levels[level] = value;
        occupied |= std::uint64_t(1) << level;
      }
      int level = max_levels - 1;
      while (!(occupied & (std::uint64_t(1) << level))) --level;
      T total = levels[level];
      while (level-- > 0)
        if (occupied & (std::uint64_t(1) << level)) total = op(total, levels[level]);
      return total;
    }
  ))
  return fold_chains<T>(begin, end, get, op);
}

/// Elements first .. first + Width scanned from `prefix` into values (Exclusive: each the value
/// before its element); returns op(prefix, all Width). Floating point: an in-order
/// (Hillis-Steele) scan of the block, then one op with the running prefix, so consecutive blocks
/// wait on one op instead of Width. Other types: one chain (integer ops take one cycle). Always
/// inlined: called out of line (g++ 16 did so in the look-back scan's kernel) its block goes
/// through memory, 3x slower.
template <int Width, bool Exclusive, class T, class Get, class Op>
KOKKOS_FORCEINLINE_FUNCTION T scan_block(std::int64_t first, const Get& get, T prefix, const Op& op, T (&values)[Width]) {
  if constexpr (std::is_floating_point_v<T>) {
    T x[Width];
    for (int k = 0; k < Width; ++k) x[k] = get(first + k);
    for (int d = 1; d < Width; d *= 2) {
      T y[Width];
      for (int k = 0; k < Width; ++k) y[k] = k >= d ? op(x[k - d], x[k]) : x[k];
      for (int k = 0; k < Width; ++k) x[k] = y[k];
    }
    if constexpr (Exclusive) {
      values[0] = prefix;
      for (int k = 1; k < Width; ++k) values[k] = op(prefix, x[k - 1]);
    } else {
      for (int k = 0; k < Width; ++k) values[k] = op(prefix, x[k]);
    }
    return op(prefix, x[Width - 1]);
  } else {
    for (int k = 0; k < Width; ++k) {
      const T value = get(first + k);
      if constexpr (Exclusive) {
        values[k] = prefix;
        prefix = op(prefix, value);
      } else {
        prefix = op(prefix, value);
        values[k] = prefix;
      }
    }
    return prefix;
  }
}

/// scan_run() with `exclusive` fixed at compile time.
template <bool Exclusive, class T, class Get, class Put, class Op>
KOKKOS_FUNCTION T scan_run_as(std::int64_t begin, std::int64_t end, const Get& get, const Put& put, T prefix,
                              const Op& op) {
  if constexpr (std::is_floating_point_v<T>) {
    constexpr int width = 8;
    if (end - begin >= 8 * width) {
      for (; begin + width <= end; begin += width) {
        T values[width];
        prefix = scan_block<width, Exclusive>(begin, get, prefix, op, values);
        for (int k = 0; k < width; ++k) put(begin + k, values[k]);
      }
    }
  }
  for (std::int64_t i = begin; i < end; ++i) {
    const T value = get(i);
    if constexpr (Exclusive) {
      put(i, prefix);
      prefix = op(prefix, value);
    } else {
      prefix = op(prefix, value);
      put(i, prefix);
    }
  }
  return prefix;
}

/// Scans get(begin .. end) into put(i, value) starting from `prefix` (exclusive: put gets the
/// value before element i; inclusive: after it). Every element is read before it is written,
/// so get and put may address the same memory. Returns op(prefix, whole run).
// `exclusive` becomes a compile-time constant here: tested inside the loops, it kept g++ 16 from
// vectorizing the floating-point blocks (float tile in L1, one thread: 1.10 ns per element
// against 0.40; 2-core Intel Xeon VM, 2026-11-26, perf_tests/results/README.md).
template <class T, class Get, class Put, class Op>
KOKKOS_FUNCTION T scan_run(std::int64_t begin, std::int64_t end, const Get& get, const Put& put, T prefix,
                           bool exclusive, const Op& op) {
  if (exclusive) return scan_run_as<true, T>(begin, end, get, put, prefix, op);
  return scan_run_as<false, T>(begin, end, get, put, prefix, op);
}

}  // namespace kprim::impl::thread
