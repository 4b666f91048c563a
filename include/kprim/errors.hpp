#pragma once
/// @file
/// Exceptions thrown by kprim.

#include <new>
#include <stdexcept>
#include <string>

namespace kprim {

/// Thrown for bad arguments (mismatched extents, unallocated or inaccessible Views, overlapping
/// input and output, impossible tuning). The message begins with the API name, e.g.
/// "kprim::inclusive_scan: output extent 9 != input extent 10". Nothing is written when it is thrown.
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Thrown when kprim is called while Kokkos is not initialized (or already finalized).
class not_initialized : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// Thrown when the execution space cannot take work from the calling host thread:
/// Kokkos::Threads runs kernels only from the thread that initialized Kokkos. The message begins
/// with the API name. Nothing was launched and no output was written.
class wrong_thread : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// Thrown when the device runtime reports a failure in a kprim call (a kernel launch or a CUDA
/// runtime call of the hand-written CUDA paths). The message begins with the API name and quotes
/// the runtime's error string.
class device_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// Thrown when kprim cannot get the temporary storage a call needs: the allocation failed (the
/// memory space is full) or it would exceed kprim::set_temporary_storage_limit. The message names
/// the API, the bytes and the memory space. Nothing was launched and no output was written; the
/// next call works (with less data or a higher limit). A std::bad_alloc, so existing
/// out-of-memory handlers catch it.
class allocation_error : public std::bad_alloc {
 public:
  explicit allocation_error(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

}  // namespace kprim

namespace kprim::mpi {

/// Thrown when an MPI call made by kprim::mpi fails (only seen with an error handler other than
/// MPI_ERRORS_ARE_FATAL on the communicator). The message names the kprim function, the MPI call
/// and MPI's error string. (Defined here, with kprim's other exceptions, so code can catch it
/// without including kprim/mpi.hpp; the type needs no MPI.)
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kprim::mpi
