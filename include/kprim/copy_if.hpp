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
/// copy_if's selection: element i carries in(i) and is kept when pred holds; a kept one is stored
/// at out(position). Positions at or past `room` (out's extent) are never stored.
template <class In, class Out, class Pred>
struct SelectElements {
  using payload_type = typename In::non_const_value_type;
  In in;
  Out out;
  Pred pred;
  std::int64_t room;
  KOKKOS_FUNCTION payload_type load(std::int64_t i) const { return in(i); }
  KOKKOS_FUNCTION bool selected(const payload_type& element) const { return pred(element); }
  KOKKOS_FUNCTION payload_type value(std::int64_t, const payload_type& element) const { return element; }
  KOKKOS_FUNCTION void store(std::int64_t position, const payload_type& element) const { out(position) = element; }
};

/// copy_index_if's selection: index i carries pred(i); a kept one stores i.
template <class Out, class Pred>
struct SelectIndices {
  using index_type = typename Out::non_const_value_type;
  Out out;
  Pred pred;
  std::int64_t room;
  KOKKOS_FUNCTION bool load(std::int64_t i) const { return pred(i); }
  KOKKOS_FUNCTION bool selected(bool kept) const { return kept; }
  KOKKOS_FUNCTION index_type value(std::int64_t i, bool) const { return index_type(i); }
  KOKKOS_FUNCTION void store(std::int64_t position, index_type i) const { out(position) = i; }
};

/// The portable scan's source: 1 where the selection keeps element i, counted in T.
template <class Selection, class T>
struct SelectFlag {
  Selection selection;
  KOKKOS_FUNCTION T operator()(std::int64_t i) const { return selection.selected(selection.load(i)) ? T(1) : T(0); }
};

/// The portable scan's sink: stores a kept element at its position; the last index also writes
/// the count (so the scan needs no total of its own and counts in 32 bits when it can).
template <class Selection, class Count, class T>
struct SelectWrite {
  Selection selection;
  Count count;
  std::int64_t last;
  /// What the write at i needs loaded (kernels may load a batch before writing any).
  KOKKOS_FUNCTION auto prepare(std::int64_t i) const { return selection.load(i); }
  template <class Payload>
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& position, const Payload& payload) const {
    const bool kept = selection.selected(payload);
    if (kept && std::int64_t(position) < selection.room) selection.store(std::int64_t(position), selection.value(i, payload));
    if (i == last) count() = std::int64_t(position) + (kept ? 1 : 0);
  }
  KOKKOS_FUNCTION void operator()(std::int64_t i, const T& position) const { (*this)(i, position, prepare(i)); }

  /// The exclusive scan's outputs for a whole tile [begin, end) from `position` at once (a host
  /// thread's tile, team::LookbackScanTiles). Branch-free: each element is stored at the running
  /// position, which only moves past kept ones, so a dropped element's store is overwritten by the
  /// next kept one, and the stores stop at the tile's last kept element (past it they would land
  /// in the next tile's output). A 50% predicate costs a mispredicted branch per two elements
  /// otherwise.
  KOKKOS_FUNCTION void put_tile(std::int64_t begin, std::int64_t end, const T& position) const {
    std::int64_t stop = end;
    while (stop > begin && !selection.selected(selection.load(stop - 1))) --stop;
    std::int64_t at = std::int64_t(position);
    if (at + (stop - begin) <= selection.room) {
      std::int64_t i = begin;
      for (; i + 4 <= stop; i += 4) {  // four loads and verdicts ahead of their stores
        const auto p0 = selection.load(i), p1 = selection.load(i + 1), p2 = selection.load(i + 2),
                   p3 = selection.load(i + 3);
        const int k0 = selection.selected(p0), k1 = selection.selected(p1), k2 = selection.selected(p2),
                  k3 = selection.selected(p3);
        selection.store(at, selection.value(i, p0));
        selection.store(at + k0, selection.value(i + 1, p1));
        selection.store(at + k0 + k1, selection.value(i + 2, p2));
        selection.store(at + k0 + k1 + k2, selection.value(i + 3, p3));
        at += k0 + k1 + k2 + k3;
      }
      for (; i < stop; ++i) {
        const auto payload = selection.load(i);
        selection.store(at, selection.value(i, payload));
        at += selection.selected(payload) ? 1 : 0;
      }
    } else {
      for (std::int64_t i = begin; i < stop; ++i) {
        const auto payload = selection.load(i);
        if (selection.selected(payload) && at++ < selection.room) selection.store(at - 1, selection.value(i, payload));
      }
    }
    if (end == last + 1) count() = at;
  }
};

/// Compacts [0, n) by `selection` (SelectElements / SelectIndices); the count goes to `count` (a
/// rank-0 View of std::int64_t), through a slot the space can write when it cannot write `count`
/// itself. CUDA runs the ballot kernel (impl/cuda/select.cuh); the portable kernels scan n flags,
/// counted in int32 when n fits (half the scan's scratch and tile state of int64, twice the
/// elements per tile), in int64 otherwise.
template <class Space, class Count, class Selection, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void compact(const char* function, const Space& space, std::int64_t n, const Count& count, const Options& options,
             const Selection& selection) {
  if constexpr (!Kokkos::SpaceAccessibility<Space, typename Count::memory_space>::accessible) {
    const Kokkos::View<std::int64_t, typename Space::memory_space> slot(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kprim::count"));
    compact(function, space, n, slot, options, selection);
    Kokkos::deep_copy(space, count, slot);
  } else {
    if (n == 0) {
      Kokkos::deep_copy(space, count, std::int64_t(0));
      return;
    }
    run_select(function, space, n, selection, count, options, [&] {
      const auto run = [&](auto zero) {
        using T = decltype(zero);
        const T init(0);
        scan_values(function, space, IndexSource<SelectFlag<Selection, T>, T>{{selection}, n},
                    Sink<T, SelectWrite<Selection, Count, T>>{{selection, count, n - 1}, n}, true, &init, Sum{},
                    options, NoTotal{});
      };
      if (n <= std::int64_t(0x7fffffff)) run(std::int32_t(0));
      else run(std::int64_t(0));
    });
  }
}

template <class Space, class In, class Out, class Pred, class Count, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void copy_if_checked(const Space& space, const In& in, const Out& out, const Pred& pred, const Options& options,
                     const Count& count) {
  constexpr const char* function = "kprim::copy_if";
  static_assert(In::rank() == 1 && Out::rank() == 1, "kprim::copy_if: in and out must be rank-1 Views");
  static_assert(!std::is_const_v<typename Out::value_type>, "kprim::copy_if: the output View must not be const");
  static_assert(std::is_invocable_r_v<bool, const Pred&, typename In::value_type>,
                "kprim::copy_if: pred must take an element and return bool");
  check_initialized<Space>(function);
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
  compact(function, space, n, count, options, SelectElements<In, Out, Pred>{in, out, pred, room});
}

template <class Space, class Out, class Pred, class Count, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void copy_index_if_checked(const Space& space, std::int64_t n, const Out& out, const Pred& pred,
                           const Options& options, const Count& count) {
  constexpr const char* function = "kprim::copy_index_if";
  static_assert(Out::rank() == 1 && !std::is_const_v<typename Out::value_type> &&
                    std::is_integral_v<typename Out::value_type>,
                "kprim::copy_index_if: the output must be a non-const rank-1 View of integers");
  static_assert(std::is_invocable_r_v<bool, const Pred&, std::int64_t>,
                "kprim::copy_index_if: pred must take an index and return bool");
  check_initialized<Space>(function);
  check_count(function, n);
  check_view<Space>(function, "output", out);
  const std::int64_t room = std::int64_t(out.extent(0));
  compact(function, space, n, count, options, SelectIndices<Out, Pred>{out, pred, room});
}
}  // namespace impl

/// Copies the elements of `in` for which pred(element) is true to out(0), out(1), ... in input
/// order, and returns how many there are (blocks until the count is on the host). Only the first
/// out.extent(0) of them are written: a count above out's extent says `out` was too small, and
/// nothing past its end is touched. One pass: each element is read, flagged, counted and written
/// in the same kernel (on CUDA each element is read once; the portable kernels read it and
/// evaluate `pred` twice, the second time from cache).
/// @throws kprim::invalid_argument for overlapping Views, or a View that is unallocated or not
///         accessible from `space`. Nothing is written then.
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, class Pred, kprim::impl::ScanOptionsArgument Options = ScanOptions>
  requires(!impl::AnyView<Pred>)
std::int64_t copy_if(const Space& space, const In& in, const Out& out, const Pred& pred,
                     const Options& options = {}) {
  return impl::value_on_host<std::int64_t>("kprim::copy_if", space, [&](const auto& count) {
    impl::copy_if_checked(space, in, out, pred, options, count);
  });
}

/// As above without blocking: the count goes to the rank-0 View `count` (std::int64_t, any
/// memory space).
template <impl::ExecutionSpace Space, impl::AnyView In, impl::AnyView Out, impl::AnyView Count, class Pred, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void copy_if(const Space& space, const In& in, const Out& out, const Count& count, const Pred& pred,
             const Options& options = {}) {
  static_assert(Count::rank() == 0 && std::is_same_v<typename Count::value_type, std::int64_t>,
                "kprim::copy_if: the count must be a non-const rank-0 View of std::int64_t");
  impl::check_allocated("kprim::copy_if", "count", count);
  impl::copy_if_checked(space, in, out, pred, options, count);
}

/// Writes the indices i in [0, n) for which pred(i) is true to out(0), out(1), ... in increasing
/// order, and returns how many there are (blocks). As copy_if, only the first out.extent(0) are
/// written.
template <impl::ExecutionSpace Space, std::integral N, class Pred, impl::AnyView Out, kprim::impl::ScanOptionsArgument Options = ScanOptions>
std::int64_t copy_index_if(const Space& space, N n, const Pred& pred, const Out& out,
                           const Options& options = {}) {
  return impl::value_on_host<std::int64_t>("kprim::copy_index_if", space, [&](const auto& count) {
    impl::copy_index_if_checked(space, std::int64_t(n), out, pred, options, count);
  });
}

/// As above without blocking: the count goes to the rank-0 View `count`.
template <impl::ExecutionSpace Space, std::integral N, class Pred, impl::AnyView Out, impl::AnyView Count, kprim::impl::ScanOptionsArgument Options = ScanOptions>
void copy_index_if(const Space& space, N n, const Pred& pred, const Out& out, const Count& count,
                   const Options& options = {}) {
  static_assert(Count::rank() == 0 && std::is_same_v<typename Count::value_type, std::int64_t>,
                "kprim::copy_index_if: the count must be a non-const rank-0 View of std::int64_t");
  impl::check_allocated("kprim::copy_index_if", "count", count);
  impl::copy_index_if_checked(space, std::int64_t(n), out, pred, options, count);
}

}  // namespace kprim
