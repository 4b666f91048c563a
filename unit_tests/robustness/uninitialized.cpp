// kprim called before Kokkos::initialize and after Kokkos::finalize: kprim::not_initialized
// naming the call, never a crash. Its own program: Kokkos can be initialized once per process.
// Exit status 0 when every check passed; each failure is printed.

#include <kprim/kprim.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

template <class Call>
void expect_not_initialized(const char* what, const std::string& function, Call call) {
  try {
    call();
    std::printf("FAILED: %s returned without an error\n", what);
    ++failures;
  } catch (const kprim::not_initialized& error) {
    const std::string message = error.what();
    if (message.rfind(function + ": Kokkos is not initialized", 0) != 0) {
      std::printf("FAILED: %s: unexpected message \"%s\"\n", what, message.c_str());
      ++failures;
    } else {
      std::printf("ok: %s -> %s\n", what, message.c_str());
    }
  } catch (const std::exception& error) {
    std::printf("FAILED: %s threw something else: %s\n", what, error.what());
    ++failures;
  }
}

/// Every public entry point through the space-less overloads (which must not construct an
/// execution space instance before checking) on Views of each enabled backend's memory space.
/// The Views are unmanaged and point at memory no kernel may touch: kprim must stop first.
template <class MemorySpace>
void call_everything(const char* when) {
  using view = Kokkos::View<double*, MemorySpace, Kokkos::MemoryUnmanaged>;
  alignas(64) static double never_read[16];
  const view x(never_read, 16), y(never_read, 16);
  const std::string prefix = std::string(when) + ", " + MemorySpace::name() + ": ";
  expect_not_initialized((prefix + "reduce").c_str(), "kprim::reduce", [&] { (void)kprim::reduce(x); });
  expect_not_initialized((prefix + "reduce<Acc>").c_str(), "kprim::reduce",
                         [&] { (void)kprim::reduce<double>(x); });
  expect_not_initialized((prefix + "dot").c_str(), "kprim::dot", [&] { (void)kprim::dot(x, y); });
  expect_not_initialized((prefix + "inclusive_scan").c_str(), "kprim::inclusive_scan",
                         [&] { kprim::inclusive_scan(x, y); });
  expect_not_initialized((prefix + "exclusive_scan").c_str(), "kprim::exclusive_scan",
                         [&] { kprim::exclusive_scan(x, y, 0.0); });
}

void call_everything_everywhere(const char* when) {
  call_everything<Kokkos::HostSpace>(when);
#if defined(KOKKOS_ENABLE_CUDA)
  call_everything<Kokkos::CudaSpace>(when);
#endif
}

}  // namespace

int main(int argc, char* argv[]) {
  call_everything_everywhere("before Kokkos::initialize");
  Kokkos::initialize(argc, argv);
  {
    // Works in between (so the checks above are about initialization, not the Views).
    std::vector<double> data(10, 1.0);
    const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> x(data.data(), data.size());
    const double sum = kprim::reduce(Kokkos::DefaultHostExecutionSpace{}, x);
    if (sum != 10.0) {
      std::printf("FAILED: reduce while initialized gave %g\n", sum);
      ++failures;
    }
  }
  Kokkos::finalize();
  call_everything_everywhere("after Kokkos::finalize");
  std::printf("%s (%d failures)\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
