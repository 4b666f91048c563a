#pragma once
// Device layer: temporary storage kept per execution space instance between calls.
//
// Allocating device memory on every call costs more than a whole reduce of a million elements
// (cudaMalloc/cudaFree take tens of microseconds and synchronise the device). Each execution
// space instance therefore keeps the largest buffer a call has needed. Calls on one instance
// hold its lease while they enqueue work, so two host threads sharing an instance cannot
// interleave their passes; kernels that use the buffer are ordered on the instance, so the
// next call's kernels cannot overwrite it early. Buffers are freed at Kokkos::finalize.

#include <kprim/impl/validate.hpp>
#include <kprim/memory.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace kprim::impl {

/// Buffers in `MemorySpace` (by default the space's own memory), one per instance of `Space`.
template <class Space, class MemorySpace = typename Space::memory_space>
class TemporaryStorage {
 public:
  using buffer_type = Kokkos::View<unsigned char*, MemorySpace>;

  /// Exclusive use of an instance's buffer of at least `bytes` bytes while it lives.
  class Lease {
   public:
    Lease(std::unique_lock<std::mutex> lock, unsigned char* data) : lock_(std::move(lock)), data_(data) {}
    template <class T>
    T* as() const {
      return reinterpret_cast<T*>(data_);  // Kokkos allocations are aligned for any value type
    }

   private:
    std::unique_lock<std::mutex> lock_;
    unsigned char* data_;
  };

  /// Throws kprim::allocation_error (naming `function`) when the buffer cannot grow to `bytes`:
  /// over kprim::temporary_storage_limit(), or the allocation failed. Nothing has been launched
  /// with the buffer then, and the instance is left with no buffer (the next call allocates).
  static Lease lease(const char* function, const Space& space, std::size_t bytes) {
    Entry& entry = entry_for(space);
    std::unique_lock<std::mutex> lock(entry.mutex);
    if (entry.buffer.extent(0) < bytes) {
      const std::size_t limit = temporary_storage_limit();
      if (bytes > limit)
        throw_allocation_error(function, bytes, MemorySpace::name(),
                               "over the limit of " + std::to_string(limit) +
                                   " bytes set with kprim::set_temporary_storage_limit");
      if (entry.buffer.extent(0) > 0) space.fence("kprim: retire a smaller temporary buffer");
      entry.buffer = buffer_type();  // free before allocating the larger one
      // Grow by at least 1/8 so slowly growing sizes do not reallocate on every call.
      const std::size_t size = std::max(bytes, std::min(limit, bytes + bytes / 8));
      try {
        entry.buffer =
            buffer_type(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kprim::temporaries"), size);
      } catch (const std::exception& failure) {  // Kokkos reports a failed allocation as std::bad_alloc or runtime_error
        throw_allocation_error(function, size, MemorySpace::name(), failure.what());
      }
    }
    return Lease(std::move(lock), entry.buffer.data());
  }

  /// Frees every instance's buffer (also run by Kokkos::finalize).
  static void release() {
    std::lock_guard<std::mutex> guard(registry_mutex());
    for (auto& [id, entry] : registry()) {
      std::lock_guard<std::mutex> lock(entry->mutex);
      entry->buffer = buffer_type();
    }
    registry().clear();
  }

 private:
  struct Entry {
    std::mutex mutex;
    buffer_type buffer;
  };

  static Entry& entry_for(const Space& space) {
    std::lock_guard<std::mutex> guard(registry_mutex());
    auto& entries = registry();
    if (entries.empty()) Kokkos::push_finalize_hook([] { release(); });
    auto& slot = entries[Kokkos::Tools::Experimental::device_id(space)];
    if (!slot) slot = std::make_unique<Entry>();
    return *slot;
  }

  static std::mutex& registry_mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::map<std::uint32_t, std::unique_ptr<Entry>>& registry() {
    static std::map<std::uint32_t, std::unique_ptr<Entry>> entries;
    return entries;
  }
};

}  // namespace kprim::impl
