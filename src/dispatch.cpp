#include <kprim/impl/device/dispatch.hpp>

#include <string>

namespace kprim::impl::detail {

void push_path_region(const char* function, const char* path) {
  Kokkos::Profiling::pushRegion(std::string(function) + " [" + path + "]");
}

void throw_run_time_algorithm(const char* function, const char* algorithm, bool scan) {
  const std::string with = scan ? "ScanWith<kprim::ScanAlgorithm::" : "ReduceWith<kprim::ReduceAlgorithm::";
  throw_invalid_argument(function, std::string("algorithm = ") + algorithm +
                                       " in run-time options: options compile only automatic; name the algorithm "
                                       "at compile time (kprim::" + with + algorithm +
                                       ">{.tuning = ...}) or wrap the options in kprim::any_algorithm(), which "
                                       "compiles every algorithm");
}

}  // namespace kprim::impl::detail
