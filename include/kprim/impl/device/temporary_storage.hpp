#pragma once
// Device layer: temporary storage kept per execution space instance between calls.
//
// Allocating device memory on every call costs more than a whole reduce of a million elements
// (cudaMalloc/cudaFree take tens of microseconds and synchronise the device). Each execution
// space instance therefore keeps the largest buffer a call has needed. Calls on one instance
// hold its lease while they enqueue work, so two host threads sharing an instance cannot
// interleave their passes; kernels that use the buffer are ordered on the instance, so the
// next call's kernels cannot overwrite it early. Buffers are freed at Kokkos::finalize.
//
// Besides that scratch buffer an instance keeps a zeroed state buffer: counters and tree nodes that
// the kernels using them leave zeroed when they finish (the CUDA reduce's ticket, the CUDA bitwise
// reduce's nodes), so no call pays for a memset. It is allocated zero-filled and grows like the
// scratch buffer. Every byte kprim allocates for a call goes through lease(), and the limit
// (kprim::set_temporary_storage_limit) caps the buffers together.
//
// The third buffer holds the look-back kernels' tile states (TileState). Their tile words are not
// zeroed between calls: each call's flags carry a new epoch, and a word of another epoch reads as
// empty. Only a change of word layout, or the epoch running out, zeroes the words a call has used;
// a memset per call made a 2^24-element scan 3-10% slower (H200, 2026-11-28).

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

/// What a look-back call asks of an instance's tile-state buffer: `bytes` (a 16-byte ticket slot,
/// then one word per tile) of words laid out as `layout` (a key of the word's size and the place
/// of its flag; 0: no tile state).
struct TileStateNeed {
  std::size_t bytes = 0;
  std::uint32_t layout = 0;
};

/// A call's tile state: the buffer (the ticket slot, zero, which the kernels leave zero, then the
/// words) and the epoch the call's tile flags carry: 1 to max_tile_epoch, never the epoch of a
/// word already in the buffer with that layout.
struct TileState {
  unsigned char* data = nullptr;
  unsigned epoch = 0;
};
/// Flags keep two status bits below the epoch in 32 bits, and the top two for a segmented scan's
/// head (cuda::TileWord of a Headed pair of a 4-byte value).
inline constexpr unsigned max_tile_epoch = (1u << 28) - 1;

/// Host memory that devices can write (Kokkos' pinned space where the backend has one).
#ifdef KOKKOS_HAS_SHARED_HOST_PINNED_SPACE
using PinnedHostSpace = Kokkos::SharedHostPinnedSpace;
#else
using PinnedHostSpace = Kokkos::HostSpace;  // no pinned space: value_on_host copies
#endif

/// Buffers in `MemorySpace` (by default the space's own memory), one per instance of `Space`.
/// `Purpose` keeps a separate set of buffers for work that holds its own lease while it runs the
/// scan or reduce engine, which takes the default set's (the segmented calls' head marks).
template <class Space, class MemorySpace = typename Space::memory_space, class Purpose = void>
class TemporaryStorage {
 public:
  using buffer_type = Kokkos::View<unsigned char*, MemorySpace>;

  /// Exclusive use of an instance's buffer of at least `bytes` bytes while it lives.
  class Lease {
   public:
    Lease(std::unique_lock<std::mutex> lock, unsigned char* data, unsigned char* state, TileState tiles)
        : lock_(std::move(lock)), data_(data), state_(state), tiles_(tiles) {}
    template <class T>
    T* as() const {
      return reinterpret_cast<T*>(data_);  // Kokkos allocations are aligned for any value type
    }
    /// The zeroed state buffer (null when the lease asked for none).
    unsigned char* state() const { return state_; }
    /// The tile state (no data when the lease asked for none).
    TileState tile_state() const { return tiles_; }

   private:
    std::unique_lock<std::mutex> lock_;
    unsigned char* data_;
    unsigned char* state_;
    TileState tiles_;
  };

  /// Exclusive use of at least `bytes` bytes of scratch, `state_bytes` bytes of zeroed state and
  /// the tile state `tiles` asks for (with its words zeroed, on `space`, when the layout changed).
  /// Throws kprim::allocation_error (naming `function`) when a buffer cannot grow: the two together
  /// over kprim::temporary_storage_limit(), or the allocation failed. Nothing has been launched
  /// with the buffers then, and a buffer that could not grow is left empty (the next call allocates).
  static Lease lease(const char* function, const Space& space, std::size_t bytes, std::size_t state_bytes = 0,
                     TileStateNeed tiles = {});

  /// Frees every instance's buffers (also run by Kokkos::finalize).
  static void release();

 private:
  struct Entry {
    std::mutex mutex;
    buffer_type buffer;  // scratch: each call writes what it reads
    buffer_type state;   // zeroed between calls
    buffer_type tiles;   // tile states: ticket slot zero, words of older epochs
    std::uint32_t tile_layout = 0;
    unsigned tile_epoch = 0;  // the last call's
    std::size_t tile_bytes_used = 0;  // how far words of tile_layout may lie since the last zeroing
  };

  /// Grows `buffer` to at least `bytes` (by at least 1/8, within the limit less `other_bytes`,
  /// what the instance's other buffers hold), zero-filled on `space` or left uninitialized.
  /// Returns whether it allocated.
  static bool grow(const char* function, const Space& space, buffer_type& buffer, std::size_t bytes,
                   std::size_t other_bytes, std::size_t limit, bool zero_filled, const char* label);
  static Entry& entry_for(const Space& space);
  /// Sets `bytes` bytes at `data` (one of the buffers) to zero, asynchronously on `space`.
  static void zero_memory(const Space& space, unsigned char* data, std::size_t bytes) {
    Kokkos::deep_copy(space, Kokkos::View<unsigned char*, MemorySpace, Kokkos::MemoryUnmanaged>(data, bytes),
                      static_cast<unsigned char>(0));
  }

  static std::mutex& registry_mutex();
  static std::map<std::uint32_t, std::unique_ptr<Entry>>& registry();
};

// Out of the class so that the `extern template` below keeps call sites from compiling them.
template <class Space, class MemorySpace, class Purpose>
typename TemporaryStorage<Space, MemorySpace, Purpose>::Lease TemporaryStorage<Space, MemorySpace, Purpose>::lease(const char* function, const Space& space, std::size_t bytes, std::size_t state_bytes,
                                                      TileStateNeed tiles) {
  Entry& entry = entry_for(space);
  std::unique_lock<std::mutex> lock(entry.mutex);
  const std::size_t limit = temporary_storage_limit();
  const std::size_t state_kept = std::max<std::size_t>(entry.state.extent(0), state_bytes);
  const std::size_t tiles_kept = std::max<std::size_t>(entry.tiles.extent(0), tiles.bytes);
  grow(function, space, entry.buffer, bytes, state_kept + tiles_kept, limit, false, "kprim::temporaries");
  // Zero-filled once; the kernels that use it leave it zeroed.
  grow(function, space, entry.state, state_bytes, entry.buffer.extent(0) + tiles_kept, limit, true,
       "kprim::zeroed state");
  TileState granted;
  if (tiles.bytes > 0) {
    if (grow(function, space, entry.tiles, tiles.bytes, entry.buffer.extent(0) + entry.state.extent(0), limit, true,
             "kprim::tile states"))
      entry.tile_bytes_used = 0;  // all zero
    if (entry.tile_layout != tiles.layout || entry.tile_epoch == max_tile_epoch) {
      // Words of another layout could read as flags of this epoch; so could this layout's once epochs repeat.
      if (entry.tile_bytes_used > 16) zero_memory(space, entry.tiles.data() + 16, entry.tile_bytes_used - 16);
      entry.tile_bytes_used = 0;
      entry.tile_epoch = 0;
      entry.tile_layout = tiles.layout;
    }
    entry.tile_bytes_used = std::max(entry.tile_bytes_used, tiles.bytes);
    granted = TileState{entry.tiles.data(), ++entry.tile_epoch};
  }
  return Lease(std::move(lock), entry.buffer.data(), state_bytes > 0 ? entry.state.data() : nullptr, granted);
}

template <class Space, class MemorySpace, class Purpose>
void TemporaryStorage<Space, MemorySpace, Purpose>::release() {
  std::lock_guard<std::mutex> guard(registry_mutex());
  for (auto& [id, entry] : registry()) {
    std::lock_guard<std::mutex> lock(entry->mutex);
    entry->buffer = buffer_type();
    entry->state = buffer_type();
    entry->tiles = buffer_type();
    entry->tile_layout = 0;
    entry->tile_epoch = 0;
    entry->tile_bytes_used = 0;
  }
  registry().clear();
}

template <class Space, class MemorySpace, class Purpose>
bool TemporaryStorage<Space, MemorySpace, Purpose>::grow(const char* function, const Space& space, buffer_type& buffer, std::size_t bytes,
                 std::size_t other_bytes, std::size_t limit, bool zero_filled, const char* label) {
  if (buffer.extent(0) >= bytes) return false;
  const std::size_t room = limit - std::min(limit, other_bytes);
  if (bytes > room)
    throw_allocation_error(function, bytes, MemorySpace::name(),
                           "over the limit of " + std::to_string(limit) +
                               " bytes set with kprim::set_temporary_storage_limit" +
                               (other_bytes > 0 ? " (" + std::to_string(other_bytes) + " of them kept already)" : ""));
  if (buffer.extent(0) > 0) space.fence("kprim: retire a smaller temporary buffer");
  buffer = buffer_type();  // free before allocating the larger one
  const std::size_t size = std::max(bytes, std::min(room, bytes + bytes / 8));
  try {
    if (zero_filled)
      buffer = buffer_type(Kokkos::view_alloc(space, std::string(label)), size);
    else
      buffer = buffer_type(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string(label)), size);
  } catch (const std::exception& failure) {  // Kokkos reports a failed allocation as std::bad_alloc or runtime_error
    throw_allocation_error(function, size, MemorySpace::name(), failure.what());
  }
  return true;
}

template <class Space, class MemorySpace, class Purpose>
typename TemporaryStorage<Space, MemorySpace, Purpose>::Entry& TemporaryStorage<Space, MemorySpace, Purpose>::entry_for(const Space& space) {
  std::lock_guard<std::mutex> guard(registry_mutex());
  auto& entries = registry();
  if (entries.empty()) Kokkos::push_finalize_hook([] { release(); });
  auto& slot = entries[Kokkos::Tools::Experimental::device_id(space)];
  if (!slot) slot = std::make_unique<Entry>();
  return *slot;
}

template <class Space, class MemorySpace, class Purpose>
std::mutex& TemporaryStorage<Space, MemorySpace, Purpose>::registry_mutex() {
  static std::mutex mutex;
  return mutex;
}
template <class Space, class MemorySpace, class Purpose>
std::map<std::uint32_t, std::unique_ptr<typename TemporaryStorage<Space, MemorySpace, Purpose>::Entry>>&
TemporaryStorage<Space, MemorySpace, Purpose>::registry() {
  static std::map<std::uint32_t, std::unique_ptr<Entry>> entries;
  return entries;
}

/// Sets `bytes` bytes at `data` (in Space's memory) to zero, asynchronously on `space`.
template <class Space>
void zero_bytes(const Space& space, unsigned char* data, std::size_t bytes) {
  Kokkos::deep_copy(space, Kokkos::View<unsigned char*, typename Space::memory_space, Kokkos::MemoryUnmanaged>(data, bytes),
                    static_cast<unsigned char>(0));
}

// The temporaries of Kokkos' execution spaces are compiled once, in libkprim
// (src/temporary_storage.cpp): a call site does not compile the allocation code again.
#define KPRIM_IMPL_PRECOMPILED_SPACE(Space)                                                   \
  extern template class TemporaryStorage<Space>;                                                \
  extern template void zero_bytes<Space>(const Space&, unsigned char*, std::size_t);
#ifdef KOKKOS_ENABLE_SERIAL
KPRIM_IMPL_PRECOMPILED_SPACE(Kokkos::Serial)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
KPRIM_IMPL_PRECOMPILED_SPACE(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_THREADS
KPRIM_IMPL_PRECOMPILED_SPACE(Kokkos::Threads)
#endif
#ifdef KOKKOS_ENABLE_CUDA
KPRIM_IMPL_PRECOMPILED_SPACE(Kokkos::Cuda)
#ifdef KOKKOS_HAS_SHARED_HOST_PINNED_SPACE
extern template class TemporaryStorage<Kokkos::Cuda, PinnedHostSpace>;
#endif
#endif
#undef KPRIM_IMPL_PRECOMPILED_SPACE

}  // namespace kprim::impl
