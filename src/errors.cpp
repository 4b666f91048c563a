#include <kprim/config.hpp>
#include <kprim/impl/validate.hpp>

namespace kprim::impl {

void throw_invalid_argument(const char* function, const std::string& what) {
  throw kprim::invalid_argument(std::string(function) + ": " + what);
}

void throw_not_initialized(const char* function) {
  throw kprim::not_initialized(std::string(function) +
                               ": Kokkos is not initialized (call Kokkos::initialize first, and not after "
                               "Kokkos::finalize)");
}

void throw_device_error(const char* function, const std::string& what) {
  throw kprim::device_error(std::string(function) + ": " + what);
}

void throw_wrong_thread(const char* function, const char* space) {
  throw kprim::wrong_thread(std::string(function) + ": Kokkos::" + space +
                            " runs work only from the host thread that initialized Kokkos; this call came from "
                            "another thread (call kprim from that thread, or use the OpenMP or Serial backend)");
}

void throw_allocation_error(const char* function, std::size_t bytes, const char* memory_space,
                            const std::string& why) {
  throw kprim::allocation_error(std::string(function) + ": cannot allocate " + std::to_string(bytes) +
                                " bytes of temporary storage in " + memory_space + ": " + why);
}

}  // namespace kprim::impl

namespace kprim {

const char* version_string() { return KPRIM_VERSION_STRING; }

}  // namespace kprim
