#pragma once
// Thread layer, hand-written CUDA: the loads the device kernels use. 16-byte vector loads where
// the address allows, scalar loads otherwise, and the element values a kernel combines.

#include <kprim/impl/cuda/api.hpp>
#include <kprim/impl/cuda/warp.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace kprim::impl::cuda {

/// True when whole elements of T fill 16 bytes, so T can move in 16-byte vectors (1, 2, 4, 8 or
/// 16-byte trivially copyable types: the built-in ones, Kokkos::complex<double>, small structs).
template <class T>
inline constexpr bool vectorizable_v = std::is_trivially_copyable_v<T> && sizeof(T) <= 16 && 16 % sizeof(T) == 0;

/// Elements of T per 16-byte vector, 1 for types that do not move in vectors.
template <class T>
inline constexpr int vector_width_v = vectorizable_v<T> ? int(16 / sizeof(T)) : 1;

/// Sixteen bytes of T, loaded and stored in one instruction.
template <class T>
struct alignas(16) Vector16 {
  static_assert(vectorizable_v<T>, "kprim: Vector16 holds whole elements");
  static constexpr int size = 16 / sizeof(T);
  T lane[size];
};

/// `Width` values of T in registers: a vector's elements once converted to the accumulator.
template <class T, int Width>
struct Lanes {
  T lane[Width];
};

/// The lanes of `v` converted to T (a no-op when In is T).
template <class T, class In>
__device__ __forceinline__ Lanes<T, Vector16<In>::size> converted(const Vector16<In>& v) {
  Lanes<T, Vector16<In>::size> out;
#pragma unroll
  for (int k = 0; k < Vector16<In>::size; ++k) out.lane[k] = T(v.lane[k]);
  return out;
}

template <class T>
__device__ __forceinline__ Vector16<T> load_vector(const T* aligned) {
  const int4 raw = __ldg(reinterpret_cast<const int4*>(aligned));
  Vector16<T> v;
  __builtin_memcpy(&v, &raw, 16);
  return v;
}

/// A 16-byte load from shared (or any non-read-only) memory.
template <class T>
__device__ __forceinline__ Vector16<T> load_shared_vector(const T* aligned) {
  const int4 raw = *reinterpret_cast<const int4*>(aligned);
  Vector16<T> v;
  __builtin_memcpy(&v, &raw, 16);
  return v;
}

template <class T>
__device__ __forceinline__ void store_vector(T* aligned, const Vector16<T>& v) {
  int4 raw;
  __builtin_memcpy(&raw, &v, 16);
  *reinterpret_cast<int4*>(aligned) = raw;
}

/// *p read from L2 (bypassing the non-coherent L1), for values other blocks wrote in this launch.
template <class T>
__device__ __forceinline__ T load_from_l2(const T* p) {
  if constexpr (std::is_arithmetic_v<T>) {
    return __ldcg(p);
  } else {
    using Word = std::conditional_t<sizeof(T) % 4 == 0 && alignof(T) >= 4, unsigned, unsigned char>;
    Word words[sizeof(T) / sizeof(Word)];
#pragma unroll
    for (std::size_t w = 0; w < sizeof(T) / sizeof(Word); ++w) words[w] = __ldcg(reinterpret_cast<const Word*>(p) + w);
    T value;
    __builtin_memcpy(&value, words, sizeof(T));
    return value;
  }
}

__host__ __device__ inline bool is_aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0; }

/// Elements before the first 16-byte boundary of a contiguous input (its scalar head), or -1
/// when no element is aligned (T's own alignment broken, never for Kokkos allocations).
template <class T>
__host__ __device__ inline std::int64_t head_elements(const T* p) {
  const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(p);
  if (address % sizeof(T) != 0) return -1;
  return std::int64_t(((16 - address % 16) % 16) / sizeof(T));
}

/// Moves a warp's 32 * Items contiguous elements between global memory, in coalesced 16-byte
/// vectors (lane l takes vectors l, l + 32, ...: every warp instruction covers 512 contiguous
/// bytes), and per-lane runs of Items consecutive elements in `exchange` (shared memory,
/// `elements` T, 16-byte aligned). Each run is padded by one vector so that both
/// sides are 128-bit shared accesses and a quarter-warp's run accesses hit distinct banks (scalar
/// accesses padded every 32 elements cost 4x the shared-memory instructions for 4-byte T).
template <class T, int Items>
struct WarpRuns {
  static constexpr int width = Vector16<T>::size;
  static constexpr int stride = Items + width;  // a padded run
  static constexpr int elements = warp_size * stride;
  static_assert(Items % width == 0, "kprim: runs must be whole 16-byte vectors");

  // Runs kept in shared memory instead of registers (the tile is not held in registers across the
  // look-back, so 6 blocks of 128 threads fit on an SM):
  // stage() moves the warp's chunk into the exchange, fold() / scan_in_place() work on the lane's
  // own run there, unstage() writes the chunk back out.

  /// exchange runs = warp_data[0 .. 32 * Items) converted to T, coalesced 16-byte loads of In
  /// (lane l takes input vectors l, l + 32, ...; In may be T or narrower, e.g. int32 counts
  /// scanned into int64 offsets).
  template <class In>
  __device__ __forceinline__ static void stage(const In* warp_data, T* exchange, int lane) {
    constexpr int in_width = Vector16<In>::size;
    static_assert(Items % in_width == 0, "kprim: runs must be whole 16-byte vectors of the input");
#pragma unroll
    for (int v = 0; v < Items / in_width; ++v) {
      const int index = (v * warp_size + lane) * in_width;
      if constexpr (std::is_same_v<In, T>)  // the same-type loop exactly as tuned (ptxas keeps it spill-free)
        store_vector(exchange + slot(index), load_vector(warp_data + index));
      else
        put(exchange + slot(index), converted<T>(load_vector(warp_data + index)));
    }
    __syncwarp();
  }

  /// stage() in two steps, so that a chunk's loads can be in flight while the block works on
  /// another tile: fetch() issues the coalesced 16-byte loads into registers, put_fetched()
  /// writes them into the runs (converted to T) once they are needed.
  template <class In>
  __device__ __forceinline__ static void fetch(const In* warp_data, int lane,
                                               Vector16<In> (&vectors)[Items / Vector16<In>::size]) {
#pragma unroll
    for (int v = 0; v < Items / Vector16<In>::size; ++v)
      vectors[v] = load_vector(warp_data + (v * warp_size + lane) * Vector16<In>::size);
  }
  template <class In>
  __device__ __forceinline__ static void put_fetched(const Vector16<In> (&vectors)[Items / Vector16<In>::size],
                                                     T* exchange, int lane) {
    constexpr int in_width = Vector16<In>::size;
#pragma unroll
    for (int v = 0; v < Items / in_width; ++v) {
      const int index = (v * warp_size + lane) * in_width;
      if constexpr (std::is_same_v<In, T>) store_vector(exchange + slot(index), vectors[v]);
      else put(exchange + slot(index), converted<T>(vectors[v]));
    }
    __syncwarp();
  }

  /// stage() of a chunk that ends early: only warp_data[0 .. count) exists (count may be <= 0);
  /// the rest of the runs is filled with `fill` (the operator's identity). Whole vectors still
  /// move as 16-byte loads, so a short tile costs little more than a full one.
  template <class In>
  __device__ __forceinline__ static void stage_partial(const In* warp_data, std::int64_t count, const T& fill,
                                                       T* exchange, int lane) {
    constexpr int in_width = Vector16<In>::size;
#pragma unroll
    for (int v = 0; v < Items / in_width; ++v) {
      const int index = (v * warp_size + lane) * in_width;
      if constexpr (std::is_same_v<In, T>) {
        Vector16<T> part;
        if (index + width <= count) {
          part = load_vector(warp_data + index);
        } else {
#pragma unroll
          for (int k = 0; k < width; ++k) part.lane[k] = index + k < count ? warp_data[index + k] : fill;
        }
        store_vector(exchange + slot(index), part);
      } else {
        Lanes<T, in_width> part;
        if (index + in_width <= count) {
          part = converted<T>(load_vector(warp_data + index));
        } else {
#pragma unroll
          for (int k = 0; k < in_width; ++k) part.lane[k] = index + k < count ? T(warp_data[index + k]) : fill;
        }
        put(exchange + slot(index), part);
      }
    }
    __syncwarp();
  }

  /// op over each of the lane's run's `Chains` sub-runs (Items / Chains consecutive elements
  /// each, in order): independent dependency chains the scheduler interleaves, instead of one
  /// chain of Items dependent ops.
  template <int Chains, class Op>
  __device__ __forceinline__ static void fold(const T* exchange, int lane, const Op& op, T (&sub_totals)[Chains]) {
    constexpr int per_chain = Items / Chains;
    static_assert(Items % Chains == 0 && per_chain % width == 0, "kprim: chains must be whole 16-byte vectors");
    const T* run = exchange + lane * stride;
#pragma unroll
    for (int c = 0; c < Chains; ++c) {
      const Vector16<T> part = load_shared_vector(run + c * per_chain);
      sub_totals[c] = part.lane[0];
#pragma unroll
      for (int k = 1; k < width; ++k) sub_totals[c] = op(sub_totals[c], part.lane[k]);
    }
#pragma unroll
    for (int q = 1; q < per_chain / width; ++q) {
#pragma unroll
      for (int c = 0; c < Chains; ++c) {
        const Vector16<T> part = load_shared_vector(run + c * per_chain + q * width);
#pragma unroll
        for (int k = 0; k < width; ++k) sub_totals[c] = op(sub_totals[c], part.lane[k]);
      }
    }
  }

  /// Scans the lane's run in place starting from `running` (exclusive or inclusive), each of
  /// the `Chains` sub-runs from its own start (running op the earlier sub_totals of fold()).
  template <int Chains, class Op>
  __device__ __forceinline__ static void scan_in_place(T* exchange, int lane, T running, bool exclusive, const Op& op,
                                                       const T (&sub_totals)[Chains]) {
    constexpr int per_chain = Items / Chains;
    T* run = exchange + lane * stride;
    T carry[Chains];
    carry[0] = running;
#pragma unroll
    for (int c = 1; c < Chains; ++c) carry[c] = op(carry[c - 1], sub_totals[c - 1]);
#pragma unroll
    for (int q = 0; q < per_chain / width; ++q) {
#pragma unroll
      for (int c = 0; c < Chains; ++c) {
        Vector16<T> part = load_shared_vector(run + c * per_chain + q * width);
#pragma unroll
        for (int k = 0; k < width; ++k) {
          const T value = part.lane[k];
          if (exclusive) {
            part.lane[k] = carry[c];
            carry[c] = op(carry[c], value);
          } else {
            carry[c] = op(carry[c], value);
            part.lane[k] = carry[c];
          }
        }
        store_vector(run + c * per_chain + q * width, part);
      }
    }
  }

  /// unstage()'s default: elements written as they are.
  struct Identity {
    __device__ T operator()(const T& x) const { return x; }
  };

  /// warp_data[0 .. 32 * Items) = exchange runs, coalesced 16-byte stores.
  /// With `transform`, writes transform(x) for each element x (a tile prefix applied on the way out).
  template <class Transform = Identity>
  __device__ __forceinline__ static void unstage(T* warp_data, const T* exchange, int lane,
                                                 const Transform& transform = Transform{}) {
    __syncwarp();
#pragma unroll
    for (int v = 0; v < Items / width; ++v) {
      const int index = (v * warp_size + lane) * width;
      Vector16<T> part = load_shared_vector(exchange + slot(index));
#pragma unroll
      for (int k = 0; k < width; ++k) part.lane[k] = transform(part.lane[k]);
      store_vector(warp_data + index, part);
    }
  }

  /// unstage() of a chunk that ends early: only warp_data[0 .. count) is written.
  template <class Transform = Identity>
  __device__ __forceinline__ static void unstage_partial(T* warp_data, std::int64_t count, const T* exchange, int lane,
                                                         const Transform& transform = Transform{}) {
    __syncwarp();
#pragma unroll
    for (int v = 0; v < Items / width; ++v) {
      const int index = (v * warp_size + lane) * width;
      if (index >= count) break;
      Vector16<T> part = load_shared_vector(exchange + slot(index));
#pragma unroll
      for (int k = 0; k < width; ++k) part.lane[k] = transform(part.lane[k]);
      if (index + width <= count) {
        store_vector(warp_data + index, part);
      } else {
#pragma unroll
        for (int k = 0; k < width; ++k)
          if (index + k < count) warp_data[index + k] = part.lane[k];
      }
    }
  }

  /// Writes one input vector's elements, converted to T, at `to` (consecutive in one run): as
  /// 16-byte stores when they fill whole vectors of T, element by element otherwise.
  template <int InWidth>
  __device__ __forceinline__ static void put(T* to, const Lanes<T, InWidth>& values) {
    if constexpr (InWidth % width == 0) {
#pragma unroll
      for (int q = 0; q < InWidth / width; ++q) {
        Vector16<T> part;
#pragma unroll
        for (int k = 0; k < width; ++k) part.lane[k] = values.lane[q * width + k];
        store_vector(to + q * width, part);
      }
    } else {
#pragma unroll
      for (int k = 0; k < InWidth; ++k) to[k] = values.lane[k];
    }
  }

  /// stage() from any source: element warp_first + index is read(warp_first + index) for
  /// index < 32 * Items, `fill` past n. Lane l reads indices l, l + 32, ... (each warp read is
  /// contiguous in i: coalesced for a View, and in the order a lambda's own loads coalesce), eight
  /// reads in flight before they are stored.
  template <class Read>
  __device__ __forceinline__ static void stage_indexed(const Read& read, std::int64_t warp_first, std::int64_t n,
                                                       const T& fill, T* exchange, int lane) {
    constexpr int batch = Items % 8 == 0 ? 8 : 1;
#pragma unroll
    for (int k = 0; k < Items; k += batch) {
      T values[batch];
#pragma unroll
      for (int b = 0; b < batch; ++b) {
        const std::int64_t i = warp_first + (k + b) * warp_size + lane;
        values[b] = i < n ? T(read(i)) : fill;
      }
#pragma unroll
      for (int b = 0; b < batch; ++b) exchange[slot((k + b) * warp_size + lane)] = values[b];
    }
    __syncwarp();
  }

  /// unstage() into any sink: write(warp_first + index, transform(x)) for the indices below n,
  /// lane l taking indices l, l + 32, ...
  template <class Write, class Transform = Identity>
  __device__ __forceinline__ static void unstage_indexed(const Write& write, std::int64_t warp_first, std::int64_t n,
                                                         const T* exchange, int lane,
                                                         const Transform& transform = Transform{}) {
    __syncwarp();
#pragma unroll 8
    for (int k = 0; k < Items; ++k) {
      const int index = k * warp_size + lane;
      if (warp_first + index < n) write(warp_first + index, transform(exchange[slot(index)]));
    }
  }

  /// unstage() into a sink whose writes first load something per index (sink.put.prepare(i):
  /// the element a compaction copies, the value a callback is handed): eight prepares are issued
  /// before their eight writes, so the loads are in flight together instead of each waiting
  /// behind the previous write (which the compiler must assume may alias it).
  template <class Sink, class Transform = Identity>
  __device__ __forceinline__ static void unstage_prepared(const Sink& sink, std::int64_t warp_first, std::int64_t n,
                                                          const T* exchange, int lane,
                                                          const Transform& transform = Transform{}) {
    __syncwarp();
    constexpr int batch = Items % 8 == 0 ? 8 : 1;
    using Payload = decltype(sink.put.prepare(std::int64_t(0)));
#pragma unroll 1
    for (int k = 0; k < Items; k += batch) {
      Payload payload[batch];
#pragma unroll
      for (int b = 0; b < batch; ++b) {
        const std::int64_t i = warp_first + (k + b) * warp_size + lane;
        if (i < n) payload[b] = sink.put.prepare(i);
      }
#pragma unroll
      for (int b = 0; b < batch; ++b) {
        const int index = (k + b) * warp_size + lane;
        if (warp_first + index < n) sink.put(warp_first + index, transform(exchange[slot(index)]), payload[b]);
      }
    }
  }

  /// The lane's run in the exchange (for element-wise staging of partial tiles).
  __device__ __forceinline__ static T* run_of(T* exchange, int lane) { return exchange + lane * stride; }

 private:
  /// Where element `index` of the warp's chunk lives in the exchange.
  __device__ __forceinline__ static int slot(int index) { return (index / Items) * stride + index % Items; }
};

}  // namespace kprim::impl::cuda
