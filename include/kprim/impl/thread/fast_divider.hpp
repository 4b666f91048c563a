#pragma once
// Thread layer: division of 64-bit indices by a divisor fixed for a whole call, as a multiply-high
// and shifts (Granlund and Montgomery, "Division by invariant integers using multiplication",
// 1994, figure 4.1). A 64-bit `/` is a ~70-instruction routine on GPUs and a 40-90 cycle divide on
// CPUs; the fixed-size segmented calls need i / size for every element.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kprim::impl::thread {

/// q = n / d for any 64-bit unsigned n and a divisor d >= 1 fixed at construction (on the host).
class FastDivider {
  __extension__ typedef unsigned __int128 wide;  // g++, clang and nvcc's host compilers have it

 public:
  FastDivider() = default;
  explicit FastDivider(std::uint64_t divisor) : divisor_(divisor) {
    int log2_ceiling = 0;  // l = ceil(log2 d)
    while (log2_ceiling < 64 && (std::uint64_t(1) << log2_ceiling) < divisor) ++log2_ceiling;
    // m = floor(2^64 (2^l - d) / d) + 1, which fits in 64 bits because 2^l < 2d.
    const wide power = wide(1) << log2_ceiling;
    multiplier_ = std::uint64_t((((power - divisor) << 64) / divisor) + 1);
    shift_first_ = log2_ceiling < 1 ? log2_ceiling : 1;
    shift_second_ = log2_ceiling > 1 ? log2_ceiling - 1 : 0;
  }

  KOKKOS_INLINE_FUNCTION std::uint64_t divisor() const { return divisor_; }

  KOKKOS_INLINE_FUNCTION std::uint64_t quotient(std::uint64_t n) const {
    const std::uint64_t high = multiply_high(multiplier_, n);
    return (high + ((n - high) >> shift_first_)) >> shift_second_;
  }

 private:
  KOKKOS_INLINE_FUNCTION static std::uint64_t multiply_high(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __umul64hi(a, b);
#else
    return std::uint64_t((wide(a) * b) >> 64);
#endif
  }

  std::uint64_t divisor_ = 1;
  std::uint64_t multiplier_ = 1;
  int shift_first_ = 0;
  int shift_second_ = 0;
};

}  // namespace kprim::impl::thread
