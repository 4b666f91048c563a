#pragma once
/// @file
/// kprim::copy_if and kprim::copy_index_if — stream compaction in one pass of the single-pass
/// scan: the elements (or the indices) that satisfy a predicate, in their input order.

#include <kprim/impl/concepts.hpp>
#include <kprim/impl/validate.hpp>
#include <kprim/options.hpp>
#include <kprim/transform_scan.hpp>

#include <Kokkos_Core.hpp>

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim {

namespace impl {
/// 1 where pred(in(i)) holds, counted in T.
template <class In, class Pred, class T>
struct SelectFlag {
  In in;
  Pred pred;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const { return pred(in(i)) ? T(1) : T(0); }
};

/// Copies in(i) to out(position) when pred(in(i)) holds and out has room; the last index also
/// writes the count (so the scan needs no total of its own and counts in 32 bits when it can).
template <class In, class Out, class Pred, class Count, class T>
struct SelectWrite {
  In in;
  Out out;
  Pred pred;
  Count count;
  std::int64_t room, last;
  /// What the write at i needs loaded (kernels may load a batch before writing any).
  KOKKOS_FUNCTION typename In::non_const_value_type prepare(std::int64_t i) const { return in(i); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& position,
                                  const typename In::non_const_value_type& value) const {
    const bool selected = pred(value);
    if (selected && std::int64_t(position) < room) out(position) = value;
    if (i == last) count() = std::int64_t(position) + (selected ? 1 : 0);
  }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& position) const { (*this)(i, position, prepare(i)); }
};

/// 1 where pred(i) holds.
template <class Pred, class T>
struct IndexFlag {
  Pred pred;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const { return pred(i) ? T(1) : T(0); }
};

/// Writes i to out(position) when pred(i) holds and out has room; the last index writes the count.
template <class Out, class Pred, class Count, class T>
struct IndexWrite {
  Out out;
  Pred pred;
  Count count;
  std::int64_t room, last;
  KOKKOS_FUNCTION bool prepare(std::int64_t i) const { return pred(i); }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& position, bool selected) const {
    if (selected && std::int64_t(position) < room) out(position) = typename Out::non_const_value_type(i);
    if (i == last) count() = std::int64_t(position) + (selected ? 1 : 0);
  }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& position) const { (*this)(i, position, prepare(i)); }
};

/// The compaction scan of n flags: counted in int32 when n fits (half the scan's shared memory
/// and tile state of int64, twice the elements per tile), in int64 otherwise. The count goes to
/// `count` (a rank-0 View of std::int64_t) from the last index's write, or through a slot the
/// space can write when it cannot write `count` itself.
template <class Space, class Count, class MakeFlag, class MakeWrite>
void compact(const char* function, const Space& space, std::int64_t n, const Count& count, const ScanOptions& options,
             MakeFlag make_flag, MakeWrite make_write) {
  if constexpr (!Kokkos::SpaceAccessibility<Space, typename Count::memory_space>::accessible) {
    const Kokkos::View<std::int64_t, typename Space::memory_space> slot(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kprim::count"));
    compact(function, space, n, slot, options, make_flag, make_write);
    Kokkos::deep_copy(space, count, slot);
  } else {
    if (n == 0) {
      Kokkos::deep_copy(space, count, std::int64_t(0));
      return;
    }
    const auto run = [&](auto zero) {
      using T = decltype(zero);
      using Flag = decltype(make_flag(zero));
      using Write = decltype(make_write(zero, count));
      const T init(0);
      scan_values(function, space, IndexSource<Flag, T>{make_flag(zero), n}, Sink<T, Write>{make_write(zero, count), n},
                  true, &init, Sum{}, options, NoTotal{});
    };
    if (n <= std::int64_t(0x7fffffff)) run(std::int32_t(0));
    else run(std::int64_t(0));
  }
}

template <class Space, class In, class Out, class Pred, class Count>
void copy_if_checked(const Space& space, const In& in, const Out& out, const Pred& pred, const ScanOptions& options,
                     const Count& count) {
  constexpr const char* function = "kprim::copy_if";
  static_assert(In::rank() == 1 && Out::rank() == 1, "kprim::copy_if: in and out must be rank-1 Views");
  static_assert(!std::is_const_v<typename Out::value_type>, "kprim::copy_if: the output View must not be const");
  static_assert(std::is_invocable_r_v<bool, const Pred&, typename In::value_type>,
                "kprim::copy_if: pred must take an element and return bool");
  check_initialized(function);
  check_view<Space>(function, "input", in);
  check_view<Space>(function, "output", out);
  if (in.extent(0) > 0 && out.extent(0) > 0) {
    const auto* in_begin = reinterpret_cast<const char*>(in.data());
    const auto* in_end = reinterpret_cast<const char*>(in.data() + in.span());
    const auto* out_begin = reinterpret_cast<const char*>(out.data());
    const auto* out_end = reinterpret_cast<const char*>(out.data() + out.span());
    if (!(out_end <= in_begin || in_end <= out_begin))
      throw_invalid_argument(function, "input and output Views overlap");
  }
  const std::int64_t n = std::int64_t(in.extent(0)), room = std::int64_t(out.extent(0));
  compact(
      function, space, n, count, options,
      [&](auto zero) { return SelectFlag<In, Pred, decltype(zero)>{in, pred}; },
      [&](auto zero, const auto& target) {
        return SelectWrite<In, Out, Pred, std::remove_cvref_t<decltype(target)>, decltype(zero)>{in,     out,  pred,
                                                                                               target, room, n - 1};
      });
}

template <class Space, class Out, class Pred, class Count>
void copy_index_if_checked(const Space& space, std::int64_t n, const Out& out, const Pred& pred,
                           const ScanOptions& options, const Count& count) {
  constexpr const char* function = "kprim::copy_index_if";
  static_assert(Out::rank() == 1 && !std::is_const_v<typename Out::value_type> &&
                    std::is_integral_v<typename Out::value_type>,
                "kprim::copy_index_if: the output must be a non-const rank-1 View of integers");
  static_assert(std::is_invocable_r_v<bool, const Pred&, std::int64_t>,
                "kprim::copy_index_if: pred must take an index and return bool");
  check_initialized(function);
  check_count(function, n);
  check_view<Space>(function, "output", out);
  const std::int64_t room = std::int64_t(out.extent(0));
  compact(
      function, space, n, count, options, [&](auto zero) { return IndexFlag<Pred, decltype(zero)>{pred}; },
      [&](auto zero, const auto& target) {
        return IndexWrite<Out, Pred, std::remove_cvref_t<decltype(target)>, decltype(zero)>{out, pred, target, room,
                                                                                           n - 1};
      });
}
}  // namespace impl

/// Copies the elements of `in` for which pred(element) is true to out(0), out(1), ... in input
/// order, and returns how many there are (blocks until the count is on the host). Only the first
/// out.extent(0) of them are written: a count above out's extent says `out` was too small, and
/// nothing past its end is touched. One pass: each element is read, flagged, scanned and written
/// in the same kernel (`pred` is evaluated twice per element).
/// @throws kprim::invalid_argument for overlapping Views, or a View that is unallocated or not
///         accessible from `space`. Nothing is written then.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, class Pred>
  requires(!impl::AnyView<Pred>)
std::int64_t copy_if(const Space& space, const In& in, const Out& out, const Pred& pred,
                     const ScanOptions& options = {}) {
  return impl::value_on_host<std::int64_t>("kprim::copy_if", space, [&](const auto& count) {
    impl::copy_if_checked(space, in, out, pred, options, count);
  });
}

/// As above without blocking: the count goes to the rank-0 View `count` (std::int64_t, any
/// memory space).
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::AnyView Count, class Pred>
void copy_if(const Space& space, const In& in, const Out& out, const Count& count, const Pred& pred,
             const ScanOptions& options = {}) {
  static_assert(Count::rank() == 0 && std::is_same_v<typename Count::value_type, std::int64_t>,
                "kprim::copy_if: the count must be a non-const rank-0 View of std::int64_t");
  impl::check_allocated("kprim::copy_if", "count", count);
  impl::copy_if_checked(space, in, out, pred, options, count);
}

/// Writes the indices i in [0, n) for which pred(i) is true to out(0), out(1), ... in increasing
/// order, and returns how many there are (blocks). As copy_if, only the first out.extent(0) are
/// written.
template <impl::ExecutionSpace Space, std::integral N, class Pred, impl::AnyView Out>
std::int64_t copy_index_if(const Space& space, N n, const Pred& pred, const Out& out,
                           const ScanOptions& options = {}) {
  return impl::value_on_host<std::int64_t>("kprim::copy_index_if", space, [&](const auto& count) {
    impl::copy_index_if_checked(space, std::int64_t(n), out, pred, options, count);
  });
}

/// As above without blocking: the count goes to the rank-0 View `count`.
template <impl::ExecutionSpace Space, std::integral N, class Pred, impl::AnyView Out, impl::AnyView Count>
void copy_index_if(const Space& space, N n, const Pred& pred, const Out& out, const Count& count,
                   const ScanOptions& options = {}) {
  static_assert(Count::rank() == 0 && std::is_same_v<typename Count::value_type, std::int64_t>,
                "kprim::copy_index_if: the count must be a non-const rank-0 View of std::int64_t");
  impl::check_allocated("kprim::copy_index_if", "count", count);
  impl::copy_index_if_checked(space, std::int64_t(n), out, pred, options, count);
}

}  // namespace kprim
