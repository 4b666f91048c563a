#pragma once
// The cases of the CUDA algorithm tests (test_cuda_reduce_algorithms.cpp, test_cuda_scan_algorithms.cpp):
// every named algorithm (the ladder rungs and the portable single-pass kernels) on Kokkos::Cuda
// for a few types x ops, at sizes around warps, teams and tiles, with the default shape and with
// odd teams of 33 threads (complete_unroll_warps8 must refuse those). A GPU-sized companion of the
// rung axis in the main suite, kept small and split in two so nvcc builds it quickly.

#include "../test_support.hpp"

#include <cstdint>
#include <tuple>
#include <vector>

namespace kprim_test {

using CudaAlgorithmCases =
    typename cases<std::tuple<Kokkos::Cuda>, std::tuple<std::int32_t, float, double>,
                   std::tuple<kprim::Sum, kprim::Max>>::type;

inline const std::vector<std::int64_t> algorithm_sizes{0,    1,    2,    31,   32,    33,    255,      256,
                                                       257,  2047, 2049, 4095, 4097,  65537, 1'000'003};

inline std::vector<kprim::Tuning> algorithm_tunings() { return {{}, {33, 2, 5}}; }

/// complete_unroll_warps8 refuses the odd team of the second tuning.
inline bool refuses_tuning(kprim::ReduceAlgorithm algorithm, const kprim::Tuning& tuning) {
  return algorithm == kprim::ReduceAlgorithm::complete_unroll_warps8 && tuning.team_size == 33;
}

}  // namespace kprim_test
