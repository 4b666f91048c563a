// Every algorithm, tuning and determinism mode writes exactly its output: nothing before it,
// after it, or between the elements of a strided output; n = 0 and n = 1 included.

#include "robustness_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <numeric>

using namespace kprim_test;

TEMPLATE_LIST_TEST_CASE("scans write exactly their output, for every algorithm and n = 0, 1, ...", "[hostile]",
                        SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  for (const std::int64_t n : robustness_sizes()) {
    std::vector<double> host(n);
    for (std::int64_t i = 0; i < n; ++i) host[i] = double(i % 5) - 1.0;  // small integers: exact in any order
    const auto in = to_space(space, host, "in");
    double expected_total = 0;
    const auto inclusive = reference_inclusive(host, kprim::Sum{});
    const auto exclusive = reference_exclusive(host, kprim::Sum{}, 2.5, expected_total);
    for (const auto& options : scan_variants(space)) {
      INFO("n = " << n << ", " << describe(options));
      Guarded<double, Space> out(n, -777.25), total(1, -777.25);
      kprim::inclusive_scan(space, in, out.window(), total.slot(), kprim::Sum{}, options);
      space.fence();
      CHECK(out.values() == inclusive);
      CHECK(total.values()[0] == (n ? inclusive.back() : 0.0));
      CHECK(out.untouched());
      CHECK(total.untouched());

      Guarded<double, Space> ex(n, -777.25), ex_total(1, -777.25);
      kprim::exclusive_scan(space, in, ex.window(), 2.5, ex_total.slot(), kprim::Sum{}, options);
      space.fence();
      CHECK(ex.values() == exclusive);
      CHECK(ex_total.values()[0] == expected_total);
      CHECK(ex.untouched());
      CHECK(ex_total.untouched());

      // In place inside a guarded array.
      Guarded<double, Space> data(n, -777.25);
      Kokkos::deep_copy(data.window(), in);
      kprim::inclusive_scan(space, data.window(), data.window(), kprim::Sum{}, options);
      space.fence();
      CHECK(data.values() == inclusive);
      CHECK(data.untouched());
    }
  }
}

TEMPLATE_LIST_TEST_CASE("reduce and dot write exactly their result, for every algorithm and n = 0, 1, ...",
                        "[hostile]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  for (const std::int64_t n : robustness_sizes()) {
    std::vector<double> host(n);
    for (std::int64_t i = 0; i < n; ++i) host[i] = double(i % 5) - 1.0;
    const auto x = to_space(space, host, "x");
    double sum = 0, squares = 0;
    for (const double v : host) sum += v, squares += v * v;
    for (const auto& options : reduce_variants(space)) {
      INFO("n = " << n << ", " << describe(options));
      Guarded<double, Space> result(1, -777.25);
      kprim::reduce(space, x, result.slot(), kprim::Sum{}, options);
      space.fence();
      CHECK(result.values()[0] == sum);
      CHECK(result.untouched());
      kprim::dot(space, x, x, result.slot(), options);
      space.fence();
      CHECK(result.values()[0] == squares);
      CHECK(result.untouched());
      // Rank-0 results in host memory, written from the device through a staging slot.
      Kokkos::View<double[3], Kokkos::HostSpace> host_guard("host_guard");
      Kokkos::deep_copy(host_guard, -777.25);
      kprim::reduce(space, x, Kokkos::subview(host_guard, 1), kprim::Max{}, options);
      space.fence();
      CHECK(host_guard(0) == -777.25);
      CHECK(host_guard(1) == (n ? *std::max_element(host.begin(), host.end()) : -std::numeric_limits<double>::infinity()));
      CHECK(host_guard(2) == -777.25);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("strided subviews at odd offsets: right values, the elements in between untouched",
                        "[hostile]", SpaceOnly) {
  using Space = typename TestType::space;
  using memory_space = typename Space::memory_space;
  using strided = Kokkos::View<std::int32_t*, Kokkos::LayoutStride, memory_space>;
  const Space space;
  for (const std::int64_t n : robustness_sizes()) {
    for (const std::int64_t offset : {1, 2, 3}) {
      INFO("n = " << n << ", offset " << offset);
      // Input: every third element from `offset` (the rest is noise that must not be read).
      std::vector<std::int32_t> source(3 * n + 4);
      for (std::int64_t i = 0; i < std::int64_t(source.size()); ++i)
        source[i] = i >= offset && (i - offset) % 3 == 0 ? std::int32_t(i % 11) - 5 : 1000;
      const auto source_view = to_space(space, source, "source");
      const strided in(source_view.data() + offset, Kokkos::LayoutStride(n, 3));
      std::vector<std::int32_t> host(n);
      for (std::int64_t i = 0; i < n; ++i) host[i] = source[offset + 3 * i];
      // A second input of stride 2 at another offset, for dot.
      std::vector<std::int32_t> other(2 * n + 4, -3);
      const auto other_view = to_space(space, other, "other");
      const strided y(other_view.data() + (offset + 1) % 3, Kokkos::LayoutStride(n, 2));

      CHECK(kprim::reduce(space, in) == std::accumulate(host.begin(), host.end(), std::int32_t(0)));
      CHECK(kprim::reduce(space, in, kprim::Min{}) ==
            (n ? *std::min_element(host.begin(), host.end()) : std::numeric_limits<std::int32_t>::max()));
      CHECK(kprim::dot(space, in, y) == -3 * std::accumulate(host.begin(), host.end(), std::int32_t(0)));

      // Output: every second element of a guarded array, from `offset`.
      Guarded<std::int32_t, Space> storage(2 * n + 4, -99);
      const strided out(storage.window().data() + offset, Kokkos::LayoutStride(n, 2));
      for (const auto& options : scan_variants(space)) {
        INFO(describe(options));
        Kokkos::deep_copy(storage.storage, -99);
        kprim::inclusive_scan(space, in, out, kprim::Max{}, options);
        space.fence();
        const auto written = storage.values();
        const auto expected = reference_inclusive(host, kprim::Max{});
        bool same = true;
        for (std::int64_t i = 0; i < std::int64_t(written.size()); ++i) {
          const bool is_output = i >= offset && (i - offset) % 2 == 0 && (i - offset) / 2 < n;
          const std::int32_t want = is_output ? expected[(i - offset) / 2] : -99;
          if (written[i] != want) {
            UNSCOPED_INFO("element " << i << " of the storage: got " << written[i] << ", expected " << want);
            same = false;
            break;
          }
        }
        CHECK(same);
        CHECK(storage.untouched());
      }
    }
  }
}
