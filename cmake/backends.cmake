# Which Kokkos backends kprim runs on, checked when kprim is configured (a refusal here, not a
# failure in a user's run). docs/requirements.md lists what each was tested with.
#   tested:   SERIAL, OPENMP (CI), THREADS (recorded runs, docs/validation.md), CUDA (H100/H200 runs)
#   untested: HIP, SYCL — kprim's portable kernels only, never compiled here; a warning says so
#   refused:  any other backend (OPENMPTARGET, HPX, ...): kprim's single-pass scan and reduce wait
#             on other teams of the same launch, which needs teams that run concurrently and make
#             progress on their own; nobody has shown that these backends give that.
function(kprim_check_backends devices)
  set(tested SERIAL OPENMP THREADS CUDA)
  set(untested HIP SYCL)
  foreach(device IN LISTS devices)
    if(device IN_LIST tested)
      continue()
    elseif(device IN_LIST untested)
      message(WARNING "kprim: Kokkos' ${device} backend is untested: kprim runs its portable Kokkos kernels "
                      "there, but they have never been compiled or run on ${device}. Run its test suite "
                      "(ctest) before relying on it.")
    else()
      message(FATAL_ERROR "kprim: Kokkos' ${device} backend is not supported. kprim's single-pass kernels wait "
                          "on other teams of the same launch, which needs teams that run concurrently; kprim "
                          "runs on Serial, OpenMP, Threads and CUDA (tested) and HIP, SYCL (untested). Use a "
                          "Kokkos built with one of those (Kokkos_DEVICES here: ${devices}).")
    endif()
  endforeach()
endfunction()
