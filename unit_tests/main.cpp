// Catch2 session inside a Kokkos scope: Kokkos takes its own flags (--kokkos-num-threads, ...)
// first, Catch2 gets the rest.
#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  return Catch::Session().run(argc, argv);
}
