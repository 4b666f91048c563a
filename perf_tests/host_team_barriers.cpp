// Experiment (not built by CMake): what a host team pays for barriers, and kprim::team::inclusive_scan
// against Kokkos' parallel_scan(TeamThreadRange) doing the same work (each team scans its own 4096
// elements, a lambda in and a callback out, every result checked), for teams of 2 (the OpenMP
// space's largest on 2 cores) and of 1 (Kokkos::AUTO on OpenMP). Median of 30 calls, us per team.
// Results: perf_tests/results/README.md ("Host team calls with one barrier fewer" and "What the
// memory allows a host team call", 2026-11-27). Also times the same traffic without a scan: each
// thread of a team copies its share through the same lambda and callback, and one deep_copy.
//   g++ -std=c++20 -O3 -DNDEBUG -fopenmp -I include -I <build>/include -isystem <kokkos>/include
//       perf_tests/host_team_barriers.cpp -lkokkoscore -ldl -o team-barriers
//   OMP_PROC_BIND=spread OMP_PLACES=threads ./team-barriers
#include <kprim/team.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

namespace {

using policy = Kokkos::TeamPolicy<Kokkos::DefaultHostExecutionSpace>;
using member = policy::member_type;
constexpr std::int64_t per_team = 4096;

template <class F>
double median_us(F f, int reps = 30) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class In, class T>
void run(std::int64_t n, int team, const char* type) {
  const int league = int(n / per_team);
  Kokkos::View<In*, Kokkos::HostSpace> x("x", n);
  Kokkos::View<T*, Kokkos::HostSpace> out("out", n), reference("reference", n);
  for (std::int64_t i = 0; i < n; ++i) x(i) = In(i % 7);
  for (int t = 0; t < league; ++t) {
    T running = 0;
    for (std::int64_t i = t * per_team; i < (t + 1) * per_team; ++i) reference(i) = running += T(x(i));
  }
  // Prints a run's time and checks out(i) == expected(i), then clears out for the next run.
  const auto report_against = [&](const char* name, double us, const auto& expected) {
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < n; ++i) wrong += out(i) != expected(i);
    std::printf("%-14s %-28s n=%9lld team=%d %9.1f us %6.2f us/team%s\n", type, name, (long long)n, team, us,
                us / league, wrong ? "  WRONG" : "");
    Kokkos::deep_copy(out, T(0));
  };
  const auto report = [&](const char* name, double us) {
    report_against(name, us, [&](std::int64_t i) { return reference(i); });
  };
  const auto bytes = kprim::team::scratch_bytes<T>(team);
  report("kprim::team::inclusive_scan", median_us([&] {
    Kokkos::parallel_for(policy(league, team).set_scratch_size(0, Kokkos::PerTeam(bytes)), [=](const member& m) {
      const kprim::team::Workspace<T> workspace(m);
      const std::int64_t first = m.league_rank() * per_team;
      kprim::team::inclusive_scan(m, workspace, per_team, [&](std::int64_t i) { return T(x(first + i)); },
                                  [&](std::int64_t i, const T& prefix) { out(first + i) = prefix; });
    });
  }));
  // The same team-shaped traffic without a scan: each thread copies its share through the same
  // lambda and callback (what the memory allows a team call), and one deep_copy of the whole array.
  const auto report_copy = [&](const char* name, double us) {
    report_against(name, us, [&](std::int64_t i) { return T(x(i)); });
  };
  report_copy("team copy (TeamThreadRange)", median_us([&] {
    Kokkos::parallel_for(policy(league, team), [=](const member& m) {
      const std::int64_t first = m.league_rank() * per_team;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, per_team), [&](std::int64_t i) { out(first + i) = T(x(first + i)); });
    });
  }));
  if constexpr (std::is_same_v<In, T>) report_copy("Kokkos::deep_copy", median_us([&] { Kokkos::deep_copy(out, x); }));
  report("Kokkos TeamThreadRange scan", median_us([&] {
    Kokkos::parallel_for(policy(league, team), [=](const member& m) {
      const std::int64_t first = m.league_rank() * per_team;
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(m, per_team), [&](std::int64_t i, T& partial, bool final) {
        partial += T(x(first + i));
        if (final) out(first + i) = partial;
      });
    });
  }));
}

}  // namespace

int main(int argc, char** argv) {
  const Kokkos::ScopeGuard guard(argc, argv);
  const int most = std::min(256, policy(1, 1).team_size_max([](const member&) {}, Kokkos::ParallelForTag{}));
  const int league = 4096;
  for (const int barriers : {0, 2, 4}) {
    const double us = median_us([&] {
      Kokkos::parallel_for(policy(league, most), [=](const member& m) {
        for (int b = 0; b < barriers; ++b) m.team_barrier();
      });
    });
    std::printf("empty kernel, teams of %d, %d barriers: %.3f us/team\n", most, barriers, us / league);
  }
  for (const std::int64_t n : {std::int64_t(1) << 20, std::int64_t(1) << 24})
    for (const int team : {most, 1}) {
      run<float, float>(n, team, "float");
      run<std::int32_t, std::int64_t>(n, team, "int32->int64");
    }
}
