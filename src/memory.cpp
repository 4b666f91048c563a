#include <kprim/memory.hpp>

#include <atomic>

namespace kprim {

namespace {
std::atomic<std::size_t> limit{unlimited_temporary_storage};
}  // namespace

void set_temporary_storage_limit(std::size_t bytes) { limit.store(bytes, std::memory_order_relaxed); }

std::size_t temporary_storage_limit() { return limit.load(std::memory_order_relaxed); }

}  // namespace kprim
