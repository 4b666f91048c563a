// Several execution space instances (CUDA streams, OpenMP partitions, Serial instances) driven
// from several host threads at once, each with its own data: every result right, and no
// temporary storage shared between instances.

#include "robustness_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <atomic>
#include <thread>

using namespace kprim_test;

namespace {

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
        Kokkos::View<double, Kokkos::HostSpace> reduced("reduced"), dotted("dotted");
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
