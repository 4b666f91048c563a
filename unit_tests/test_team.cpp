// The team-level reduce and scans (kprim/team.hpp) inside a user's TeamPolicy kernel that also
// keeps its own data in team scratch.

#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>

#include <functional>

using namespace kprim_test;

namespace {

/// Team sizes a body runs: 1, 2, odd ones, a warp and more, up to the largest the space allows.
template <class Space>
std::vector<int> team_sizes(const Space& space) {
  const int most = max_team_size(space);
  std::vector<int> list{1, 2, 3, 7, 32, 33, 128, most};
  std::erase_if(list, [most](int t) { return t > most; });
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  return list;
}

/// Elements per team: none, one, around the team size and a warp, longer than every thread's run.
inline std::vector<std::int64_t> team_lengths(int team) {
  std::vector<std::int64_t> list{0, 1, 2, 31, 33, team - 1, team, team + 1, 1000, 4097};
  std::erase_if(list, [](std::int64_t n) { return n < 0; });
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  return list;
}

/// What one launch returns: each team's scans (its `length` outputs then one guard element),
/// the three totals as every thread of every team saw them, and how many times the kernel's own
/// scratch data was found changed.
template <class T>
struct TeamRun {
  std::vector<T> inclusive, exclusive, reduce_totals, inclusive_totals, exclusive_totals;
  int scratch_changed = 0;
  int team = 0;  ///< the team size it ran with
};

/// `league` teams of `team` threads (fewer where the kernel cannot run so many: its registers
/// cap it below the space's maximum on GPUs); team l reduces and scans in(l * length .. (l + 1) *
/// length) with kprim::team, the source as a lambda or a View, the output through a callback or a View.
template <class Space, class T, class Op>
TeamRun<T> run_team_calls(const Space& space, int team, int league, std::int64_t length,
                          const Kokkos::View<T*, typename Space::memory_space>& in, const Op& op, const T& init,
                          const T& guard) {
  using policy = Kokkos::TeamPolicy<Space>;
  using memory_space = typename Space::memory_space;
  using own_view = Kokkos::View<std::int64_t*, typename Space::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const std::int64_t stride = length + 1;  // each team's outputs, then a guard element
  Kokkos::View<T*, memory_space> inclusive("inclusive", league * stride), exclusive("exclusive", league * stride);
  Kokkos::deep_copy(space, inclusive, guard);
  Kokkos::deep_copy(space, exclusive, guard);
  Kokkos::View<T*, memory_space> reduce_totals("reduce_totals", league * team),
      inclusive_totals("inclusive_totals", league * team), exclusive_totals("exclusive_totals", league * team);
  Kokkos::View<int, memory_space> scratch_changed("scratch_changed");
  const auto kernel = KOKKOS_LAMBDA(const typename policy::member_type& member) {
        const std::int64_t l = member.league_rank();
        own_view own(member.team_scratch(0), 4);  // the kernel's own scratch comes first
        if (member.team_rank() == 0)
          for (int k = 0; k < 4; ++k) own(k) = 1000 * l + k;
        member.team_barrier();
        const kprim::team::Workspace<T> workspace(member);
        const std::int64_t first = l * length, out_first = l * stride;
        const auto value = [&](std::int64_t i) { return in(first + i); };
        const T total = kprim::team::reduce(member, workspace, length, value, op);
        const T inclusive_total = kprim::team::inclusive_scan(
            member, workspace, length, value, [&](std::int64_t i, const T& v) { inclusive(out_first + i) = v; }, op);
        const T exclusive_total = kprim::team::exclusive_scan(
            member, workspace, length, Kokkos::subview(in, Kokkos::make_pair(first, first + length)),
            Kokkos::subview(exclusive, Kokkos::make_pair(out_first, out_first + length)), init, op);
        const std::int64_t slot = l * member.team_size() + member.team_rank();
        reduce_totals(slot) = total;
        inclusive_totals(slot) = inclusive_total;
        exclusive_totals(slot) = exclusive_total;
        for (int k = 0; k < 4; ++k)
          if (own(k) != 1000 * l + k) Kokkos::atomic_add(&scratch_changed(), 1);
      };
  team = std::min(team, policy(space, 1, 1).team_size_max(kernel, Kokkos::ParallelForTag{}));
  const std::size_t bytes = own_view::shmem_size(4) + kprim::team::scratch_bytes<T>(team);
  Kokkos::parallel_for("kprim_test::team_calls",
                       policy(space, league, team).set_scratch_size(0, Kokkos::PerTeam(bytes)), kernel);
  auto per_thread = [&](const Kokkos::View<T*, memory_space>& totals) {  // the threads that ran
    std::vector<T> all = to_host(totals);
    all.resize(std::size_t(league) * team);
    return all;
  };
  TeamRun<T> run{to_host(inclusive), to_host(exclusive), per_thread(reduce_totals), per_thread(inclusive_totals),
                 per_thread(exclusive_totals)};
  run.team = team;
  Kokkos::deep_copy(run.scratch_changed, scratch_changed);
  return run;
}

/// The sequential answers for run_team_calls' outputs (guards included) and per-thread totals.
template <class T, class Op>
TeamRun<T> expected_team_calls(const std::vector<T>& in, int team, int league, std::int64_t length, const Op& op,
                               const T& init, const T& guard) {
  TeamRun<T> run;
  for (int l = 0; l < league; ++l) {
    T running = kprim::identity_of<T>(op);
    for (std::int64_t i = 0; i < length; ++i) {
      run.exclusive.push_back(op(init, running));
      running = op(running, in[l * length + i]);
      run.inclusive.push_back(running);
    }
    run.inclusive.push_back(guard);
    run.exclusive.push_back(guard);
    for (int t = 0; t < team; ++t) {
      run.reduce_totals.push_back(running);
      run.inclusive_totals.push_back(running);
      run.exclusive_totals.push_back(op(init, running));
    }
  }
  return run;
}

template <class T>
void check_team_run(const TeamRun<T>& got, const TeamRun<T>& expected) {
  CHECK(first_mismatch(got.inclusive, expected.inclusive) == -1);
  CHECK(first_mismatch(got.exclusive, expected.exclusive) == -1);
  CHECK(first_mismatch(got.reduce_totals, expected.reduce_totals) == -1);
  CHECK(first_mismatch(got.inclusive_totals, expected.inclusive_totals) == -1);
  CHECK(first_mismatch(got.exclusive_totals, expected.exclusive_totals) == -1);
  CHECK(got.scratch_changed == 0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("team reduce and scans inside a user kernel", "[team]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  const Space space;
  const Op op;
  const T init = exact_init<T, Op>();
  const T guard = T(99);
  const int league = 5;
  for (const int team : team_sizes(space)) {
    for (const std::int64_t length : team_lengths(team)) {
      INFO(case_name<TestType>() << ", team size " << team << ", " << length << " elements per team");
      const std::vector<T> host = exact_input<T, Op>(league * length, 20261126 + length);
      const auto in = to_space(space, host, "in");
      const auto got = run_team_calls(space, team, league, length, in, op, init, guard);
      check_team_run(got, expected_team_calls(host, got.team, league, length, op, init, guard));
    }
  }
}

TEMPLATE_LIST_TEST_CASE("team scans keep the order of a non-commutative op", "[team]", SpaceOnly) {
  using Space = typename TestType::space;
  const Space space;
  const MatMulMod op;
  const Mat2 init{2, 1, 1, 1};
  const Mat2 guard{7, 7, 7, 7};
  const int league = 3;
  for (const int team : team_sizes(space)) {
    for (const std::int64_t length : team_lengths(team)) {
      INFO(Space::name() << ", team size " << team << ", " << length << " matrices per team");
      const std::vector<Mat2> host = random_matrices(league * length, 7 + length);
      const auto in = to_space(space, host, "in");
      const auto got = run_team_calls(space, team, league, length, in, op, init, guard);
      check_team_run(got, expected_team_calls(host, got.team, league, length, op, init, guard));
    }
  }
}

TEMPLATE_LIST_TEST_CASE("team scan in place and calls repeated on one workspace", "[team]", SpaceOnly) {
  using Space = typename TestType::space;
  using policy = Kokkos::TeamPolicy<Space>;
  const Space space;
  for (const int wanted : team_sizes(space)) {
    const std::int64_t length = 1000;
    const int league = 4, rounds = 3;
    std::vector<double> host(league * length);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = double(i % 5);
    const auto data = to_space(space, host, "data");
    const auto kernel = KOKKOS_LAMBDA(const typename policy::member_type& member) {
      const kprim::team::Workspace<double> workspace(member);
      const auto segment =
          Kokkos::subview(data, Kokkos::make_pair(member.league_rank() * length, (member.league_rank() + 1) * length));
      for (int r = 0; r < rounds; ++r) kprim::team::inclusive_scan(member, workspace, length, segment, segment);
    };
    const int team = std::min(wanted, policy(space, 1, 1).team_size_max(kernel, Kokkos::ParallelForTag{}));
    INFO(Space::name() << ", team size " << team);
    Kokkos::parallel_for(
        "kprim_test::team_in_place",
        policy(space, league, team).set_scratch_size(0, Kokkos::PerTeam(kprim::team::scratch_bytes<double>(team))),
        kernel);
    // Three inclusive scans in place: the running sum's running sum's running sum.
    std::vector<double> expected = host;
    for (int l = 0; l < league; ++l)
      for (int r = 0; r < rounds; ++r)
        for (std::int64_t i = 1; i < length; ++i) expected[l * length + i] += expected[l * length + i - 1];
    CHECK(first_mismatch(to_host(data), expected) == -1);
  }
}

namespace {

/// Vector lengths a body runs: 1 and powers of two up to what the space allows.
template <class Space>
std::vector<int> vector_lengths() {
  const int most = Kokkos::TeamPolicy<Space>::vector_length_max();
  std::vector<int> list;
  for (const int v : {1, 2, 4, 8, 32})
    if (v <= most) list.push_back(v);
  return list;
}

/// Each team thread takes rows of a CSR array (lengths 0 .. 70) and reduces and scans each with
/// its vector lanes (kprim::team::vector_*); every lane's totals are kept; the inclusive scan
/// runs in place on a copy of the input, the exclusive one into a View, guards after both.
template <class Space, class T, class Op>
void check_vector_calls(const Space& space, const Op& op, const T& init, const T& guard,
                        const std::function<std::vector<T>(std::int64_t)>& make_input) {
  using policy = Kokkos::TeamPolicy<Space>;
  using memory_space = typename Space::memory_space;
  const std::int64_t rows = 45;
  std::vector<std::int64_t> row_map{0};
  for (std::int64_t r = 0; r < rows; ++r) row_map.push_back(row_map.back() + (r * 37) % 71);
  const std::int64_t n = row_map.back();
  const std::vector<T> host = make_input(n);
  std::vector<T> padded = host;
  padded.push_back(guard);
  const auto in = to_space(space, host, "in");
  const auto map = to_space(space, row_map, "row_map");
  for (const int vector : vector_lengths<Space>()) {
    INFO(Space::name() << ", vector length " << vector);
    const auto inclusive = to_space(space, padded, "inclusive");  // scanned in place
    Kokkos::View<T*, memory_space> exclusive("exclusive", n + 1);
    Kokkos::deep_copy(space, exclusive, guard);
    Kokkos::View<T*, memory_space> totals("totals", 3 * rows * vector);
    const auto kernel = KOKKOS_LAMBDA(const typename policy::member_type& member) {
      // Two teams: team l takes rows l, l + 2, ...
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, (rows + 1) / 2), [&](std::int64_t k) {
        const std::int64_t r = 2 * k + member.league_rank();
        if (r >= rows) return;
        const std::int64_t first = map(r), length = map(r + 1) - first;
        const auto row = Kokkos::subview(inclusive, Kokkos::make_pair(first, first + length));
        const T total = kprim::team::vector_reduce(member, length, [&](std::int64_t i) { return in(first + i); }, op);
        const T exclusive_total = kprim::team::vector_exclusive_scan(
            member, length, [&](std::int64_t i) { return in(first + i); },
            [&](std::int64_t i, const T& v) { exclusive(first + i) = v; }, init, op);
        const T inclusive_total = kprim::team::vector_inclusive_scan(member, length, row, row, op);
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, vector), [&](int lane) {
          const std::int64_t slot = 3 * (r * vector + lane);
          totals(slot) = total;
          totals(slot + 1) = inclusive_total;
          totals(slot + 2) = exclusive_total;
        });
      });
    };
    Kokkos::parallel_for("kprim_test::vector_calls", policy(space, 2, Kokkos::AUTO, vector), kernel);
    std::vector<T> expected_inclusive, expected_exclusive, expected_totals;
    for (std::int64_t r = 0; r < rows; ++r) {
      T running = kprim::identity_of<T>(op);
      for (std::int64_t i = row_map[r]; i < row_map[r + 1]; ++i) {
        expected_exclusive.push_back(op(init, running));
        running = op(running, host[i]);
        expected_inclusive.push_back(running);
      }
      for (int lane = 0; lane < vector; ++lane)
        for (const T& t : {running, running, T(op(init, running))}) expected_totals.push_back(t);
    }
    expected_inclusive.push_back(guard);
    expected_exclusive.push_back(guard);
    CHECK(first_mismatch(to_host(inclusive), expected_inclusive) == -1);
    CHECK(first_mismatch(to_host(exclusive), expected_exclusive) == -1);
    CHECK(first_mismatch(to_host(totals), expected_totals) == -1);
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("vector-level reduce and scans inside a team thread", "[team]", SpaceValueOp) {
  using Space = typename TestType::space;
  using T = typename TestType::value;
  using Op = typename TestType::op;
  check_vector_calls<Space, T, Op>(Space(), Op(), exact_init<T, Op>(), T(99),
                                   [](std::int64_t n) { return exact_input<T, Op>(n, 20261127 + n); });
}

TEMPLATE_LIST_TEST_CASE("vector-level scans keep the order of a non-commutative op", "[team]", SpaceOnly) {
  using Space = typename TestType::space;
  check_vector_calls<Space, Mat2, MatMulMod>(Space(), MatMulMod(), Mat2{2, 1, 1, 1}, Mat2{7, 7, 7, 7},
                                             [](std::int64_t n) { return random_matrices(n, 11 + n); });
}
