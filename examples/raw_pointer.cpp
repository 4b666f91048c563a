// Data you already own (a raw pointer, e.g. from another library): wrap it in an unmanaged View.
#include <kprim/kprim.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::vector<double> host(1000, 0.25);

  // Host memory: an unmanaged View over the pointer, on a host execution space.
  const Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> on_host(host.data(),
                                                                                                   host.size());
  const double host_sum = kprim::reduce(Kokkos::DefaultHostExecutionSpace(), on_host);
  kprim::inclusive_scan(Kokkos::DefaultHostExecutionSpace(), on_host, on_host);  // in place, into the vector

  // Device memory you allocated yourself works the same way with the device's memory space;
  // here Kokkos allocates it and the raw pointer is handed on.
  Kokkos::View<double*> owned("owned", host.size());
  Kokkos::deep_copy(owned, 2.0);
  double* device_pointer = owned.data();
  const Kokkos::View<double*, Kokkos::MemoryTraits<Kokkos::Unmanaged>> on_device(device_pointer, host.size());
  const double device_sum = kprim::reduce(on_device);

  std::printf("host sum %g, last prefix %g, device sum %g\n", host_sum, host.back(), device_sum);
  return host_sum == 250.0 && host.back() == 250.0 && device_sum == 2000.0 ? 0 : 1;
}
