// Several execution space instances (CUDA streams, OpenMP partitions, Serial instances) driven
// from several host threads at once, each with its own data: every result right, and no
// temporary storage shared between instances. Kokkos::Threads takes work only from the thread
// that initialized Kokkos: there, every entry point must refuse another thread's call by name
// and write nothing.

#include "robustness_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>

using namespace kprim_test;

namespace {

/// Whether Space runs kernels launched from any host thread (every backend but Kokkos::Threads).
template <class Space>
constexpr bool takes_work_from_any_thread() {
#if defined(KOKKOS_ENABLE_THREADS)
  return !std::is_same_v<Space, Kokkos::Threads>;
#else
  return true;
#endif
}

/// One worker's data and the answers it must get; `failures` collects what went wrong (Catch2's
/// assertions are not thread-safe, so the workers only count).
template <class Space>
struct Worker {
  using view = Kokkos::View<double*, typename Space::memory_space>;
  Space space;
  view in, out;
  std::vector<double> inclusive;
  double sum = 0, squares = 0;
  std::string failures;

  Worker(const Space& instance, std::int64_t n, int id) : space(instance) {
    std::vector<double> host(n);
    for (std::int64_t i = 0; i < n; ++i) host[i] = double((i * (id + 2)) % 7) - 3.0;  // exact in any order
    in = to_space(space, host, "in");
    out = view("out", n);
    inclusive = reference_inclusive(host, kprim::Sum{});
    for (const double v : host) sum += v, squares += v * v;
  }

  void run(int rounds) {
    for (int round = 0; round < rounds; ++round) {
      const auto determinism = round % 2 ? kprim::Determinism::bitwise : kprim::Determinism::fastest;
      const std::string where = "round " + std::to_string(round) + " (" + kprim::to_string(determinism) + "): ";
      try {
        // Not initialized: that would run a kernel on the default host space, which may be a
        // backend that takes no work from this thread (Kokkos::Threads beside Serial).
        Kokkos::View<double, Kokkos::HostSpace> reduced(Kokkos::view_alloc(Kokkos::WithoutInitializing, "reduced")),
            dotted(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dotted"));
        Kokkos::deep_copy(space, out, 0.0);
        kprim::reduce(space, in, reduced, kprim::Sum{}, {.determinism = determinism});
        kprim::dot(space, in, in, dotted, {.determinism = determinism});
        kprim::inclusive_scan(space, in, out, kprim::Sum{}, {.determinism = determinism});
        space.fence();
        if (reduced() != sum) failures += where + "reduce " + std::to_string(reduced()) + "\n";
        if (dotted() != squares) failures += where + "dot " + std::to_string(dotted()) + "\n";
        if (to_host(out) != inclusive) failures += where + "inclusive_scan\n";
      } catch (const std::exception& error) {
        failures += where + error.what() + "\n";
      }
    }
  }
};

}  // namespace

TEMPLATE_LIST_TEST_CASE("instances on several host threads at once each get their own right answers",
                        "[concurrency]", SpaceOnly) {
  using Space = typename TestType::space;
  if constexpr (!takes_work_from_any_thread<Space>()) SKIP(Space::name() << " takes work from one thread only");
  const Space space;
  const auto instances = Kokkos::Experimental::partition_space(space, 1, 1, 1, 1);
  const std::int64_t n = std::min<std::int64_t>(300'007, max_test_size());
  std::vector<Worker<Space>> workers;
  for (int id = 0; id < int(instances.size()); ++id) workers.emplace_back(instances[id], n + 1000 * id, id);
  INFO(Space::name() << ": " << instances.size() << " instances");

  std::vector<std::thread> threads;
  for (auto& worker : workers) threads.emplace_back([&worker] { worker.run(6); });
  for (auto& thread : threads) thread.join();
  for (std::size_t id = 0; id < workers.size(); ++id) {
    INFO("worker " << id);
    CHECK(workers[id].failures == "");
  }
}

TEMPLATE_LIST_TEST_CASE("several host threads sharing one instance serialize safely", "[concurrency]", SpaceOnly) {
  using Space = typename TestType::space;
  if constexpr (!takes_work_from_any_thread<Space>()) SKIP(Space::name() << " takes work from one thread only");
  const Space space;
  const std::int64_t n = std::min<std::int64_t>(100'003, max_test_size());
  std::vector<Worker<Space>> workers;
  for (int id = 0; id < 3; ++id) workers.emplace_back(space, n + 77 * id, id);
  std::vector<std::thread> threads;
  for (auto& worker : workers) threads.emplace_back([&worker] { worker.run(4); });
  for (auto& thread : threads) thread.join();
  for (std::size_t id = 0; id < workers.size(); ++id) {
    INFO("worker " << id);
    CHECK(workers[id].failures == "");
  }
}

#if defined(KOKKOS_ENABLE_THREADS)
TEST_CASE("Kokkos::Threads: a call from another host thread is refused by name and writes nothing", "[concurrency]") {
  using Space = Kokkos::Threads;
  const Space space;
  const std::int64_t n = 5000;
  std::vector<double> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = double(i % 7) - 3.0;
  const auto in = to_space(space, host, "in");
  const Kokkos::View<double*, Kokkos::HostSpace> out("out", n);
  const Kokkos::View<std::int64_t*, Kokkos::HostSpace> indices("indices", n);
  const Kokkos::View<double, Kokkos::HostSpace> result("result");
  const double sentinel = -12345.0;
  Kokkos::deep_copy(out, sentinel);
  Kokkos::deep_copy(indices, -1);
  Kokkos::deep_copy(result, sentinel);
  const auto twice = [=](std::int64_t i) { return 2.0 * in(i); };
  const auto positive = [](double v) { return v > 0; };

  // Each call, made from a second thread, must throw kprim::wrong_thread naming it. Catch2's
  // assertions are not thread-safe, so the thread only records what happened.
  std::vector<std::pair<std::string, std::function<void()>>> calls{
      {"kprim::reduce", [&] { (void)kprim::reduce(space, in); }},
      {"kprim::reduce", [&] { kprim::reduce(space, in, result); }},
      {"kprim::reduce", [&] { (void)kprim::reduce(in, 0.0, [](double a, double b) { return a + b; }); }},
      {"kprim::dot", [&] { (void)kprim::dot(space, in, in); }},
      {"kprim::inclusive_scan", [&] { kprim::inclusive_scan(space, in, out); }},
      {"kprim::exclusive_scan", [&] { kprim::exclusive_scan(space, in, out, 0.0, kprim::Sum{}); }},
      {"kprim::transform_reduce", [&] { (void)kprim::transform_reduce(space, n, twice, kprim::Sum{}); }},
      {"kprim::transform_inclusive_scan", [&] { kprim::transform_inclusive_scan(space, n, twice, out); }},
      {"kprim::exclusive_scan_each",
       [&] { (void)kprim::exclusive_scan_each(space, n, twice, [=](std::int64_t i, double p) { out(i) = p; }, 0.0); }},
      {"kprim::parallel_scan", [&] {
         kprim::parallel_scan(Kokkos::RangePolicy<Space>(space, 0, n), [=](std::int64_t i, double& partial, bool final) {
           if (final) out(i) = partial;
           partial += in(i);
         });
       }},
      {"kprim::copy_if", [&] { (void)kprim::copy_if(space, in, out, positive); }},
      {"kprim::copy_index_if", [&] { (void)kprim::copy_index_if(space, n, [=](std::int64_t i) { return in(i) > 0; }, indices); }},
  };
  std::vector<std::string> outcomes(calls.size());
  std::thread other([&] {
    for (std::size_t c = 0; c < calls.size(); ++c) {
      try {
        calls[c].second();
        outcomes[c] = "returned";
      } catch (const kprim::wrong_thread& error) {
        outcomes[c] = error.what();
      } catch (const std::exception& error) {
        outcomes[c] = std::string("another exception: ") + error.what();
      }
    }
  });
  other.join();
  for (std::size_t c = 0; c < calls.size(); ++c) {
    INFO("call " << c << ": " << outcomes[c]);
    CHECK(outcomes[c].rfind(calls[c].first + ": Kokkos::Threads runs work only from", 0) == 0);
  }
  CHECK(std::all_of(out.data(), out.data() + n, [&](double v) { return v == sentinel; }));
  CHECK(std::all_of(indices.data(), indices.data() + n, [](std::int64_t v) { return v == -1; }));
  CHECK(result() == sentinel);

  // The thread that initialized Kokkos still gets every answer.
  double sum = 0;
  for (const double v : host) sum += v;
  CHECK(kprim::reduce(space, in) == sum);
  kprim::inclusive_scan(space, in, out);
  space.fence();
  CHECK(out(n - 1) == sum);
}
#endif
