#pragma once
// Argument checks shared by every public entry point. They run on the host before any kernel
// is launched, so a failed check leaves every output untouched.

#include <kprim/errors.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace kprim::impl {

[[noreturn]] void throw_invalid_argument(const char* function, const std::string& what);
[[noreturn]] void throw_not_initialized(const char* function);
[[noreturn]] void throw_device_error(const char* function, const std::string& what);
[[noreturn]] void throw_wrong_thread(const char* function, const char* space);
[[noreturn]] void throw_allocation_error(const char* function, std::size_t bytes, const char* memory_space,
                                         const std::string& why);

inline void check_initialized(const char* function) {
  if (!Kokkos::is_initialized() || Kokkos::is_finalized()) throw_not_initialized(function);
}

/// Kokkos is initialized, and Space takes work from the calling host thread: Kokkos::Threads
/// runs kernels only when they are launched from the thread that initialized it (any other
/// thread gets a Kokkos runtime error from inside the launch, possibly after kprim has written).
template <class Space>
void check_initialized(const char* function) {
  check_initialized(function);
#if defined(KOKKOS_ENABLE_THREADS)
  if constexpr (std::is_same_v<Space, Kokkos::Threads>)
    if (!Kokkos::Impl::ThreadsInternal::is_process()) throw_wrong_thread(function, Space::name());
#endif
}

/// The View's default execution space instance, once Kokkos is known to be initialized
/// (constructing an instance before Kokkos::initialize aborts inside Kokkos).
template <class View>
typename View::execution_space default_instance(const char* function) {
  check_initialized<typename View::execution_space>(function);
  return typename View::execution_space{};
}

/// A View that owns nothing and points nowhere: default-constructed (or moved-from).
template <class V>
bool is_unallocated(const V& view) {
  return view.data() == nullptr && view.use_count() == 0;
}

template <class V>
void check_allocated(const char* function, const char* role, const V& view) {
  if (is_unallocated(view)) throw_invalid_argument(function, std::string(role) + " View is not allocated");
}

/// The View must be allocated and its memory reachable from kernels of Space.
template <class Space, class V>
void check_view(const char* function, const char* role, const V& view) {
  check_allocated(function, role, view);
  if constexpr (!Kokkos::SpaceAccessibility<Space, typename V::memory_space>::accessible) {
    throw_invalid_argument(function, std::string(role) + " View's memory space " + V::memory_space::name() +
                                         " is not accessible from execution space " + Space::name());
  }
}

/// The two inputs of a dot: each checked as check_view, and of the same extent.
template <class Space, class X, class Y>
void check_pair(const char* function, const X& x, const Y& y) {
  check_view<Space>(function, "x", x);
  check_view<Space>(function, "y", y);
  if (x.extent(0) != y.extent(0))
    throw_invalid_argument(function, "extent of y " + std::to_string(y.extent(0)) + " != extent of x " +
                                         std::to_string(x.extent(0)));
}

template <class In, class Out>
void check_same_extent(const char* function, const In& in, const Out& out) {
  if (out.extent(0) != in.extent(0))
    throw_invalid_argument(function, "output extent " + std::to_string(out.extent(0)) + " != input extent " +
                                         std::to_string(in.extent(0)));
}

/// Input and output may be the very same elements (in-place), or disjoint memory; anything in
/// between would make the result depend on the order in which threads run.
template <class In, class Out>
void check_overlap(const char* function, const In& in, const Out& out) {
  if (in.extent(0) == 0 || out.extent(0) == 0) return;
  const auto* in_begin = reinterpret_cast<const char*>(in.data());
  const auto* in_end = reinterpret_cast<const char*>(in.data() + in.span());
  const auto* out_begin = reinterpret_cast<const char*>(out.data());
  const auto* out_end = reinterpret_cast<const char*>(out.data() + out.span());
  if (out_end <= in_begin || in_end <= out_begin) return;
  const bool same_elements =
      std::is_same_v<std::remove_cv_t<typename In::value_type>, typename Out::value_type> &&
      in_begin == out_begin && in.stride(0) == out.stride(0) && in.extent(0) == out.extent(0);
  if (!same_elements)
    throw_invalid_argument(function,
                           "input and output Views overlap without being the same elements "
                           "(in-place needs the same data, stride and extent)");
}

}  // namespace kprim::impl
