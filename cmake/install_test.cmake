# Run by CTest (unit_tests/CMakeLists.txt): install kprim from KPRIM_BUILD_DIR into a scratch
# prefix, then configure, build and run the consumer project against it, with kprim and Kokkos
# given through the environment's CMAKE_PREFIX_PATH (as `module load` sets it). Then a decoy Kokkos
# of another version first on CMAKE_PREFIX_PATH: the package must take it (the consumer's environment before the
# build-time location) and refuse it with a message naming both versions. With EXAMPLES_SOURCE_DIR,
# the examples project is built against the installed package too and its programs run.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: '${ARGN}' failed (${rc})")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${KPRIM_BUILD_DIR} --prefix ${prefix})
set(ENV{CMAKE_PREFIX_PATH} "${prefix}:${KOKKOS_PREFIX}")  # what `module load` sets
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(EXISTS ${WORK_DIR}/build/consumer_mpi)
  run(${WORK_DIR}/build/consumer_mpi)  # a singleton MPI process, no mpiexec needed
endif()

# examples/: built against the installed package and run, as a user's project would be.
if(EXAMPLES_SOURCE_DIR)
  get_filename_component(cmake_bin ${CMAKE_COMMAND} DIRECTORY)
  run(${CMAKE_COMMAND} -S ${EXAMPLES_SOURCE_DIR} -B ${WORK_DIR}/examples -G ${GENERATOR}
      -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/examples)
  run(${cmake_bin}/ctest --test-dir ${WORK_DIR}/examples --output-on-failure)
endif()

# The decoy: a Kokkos 99.0.0 config ahead of everything else.
set(decoy ${WORK_DIR}/decoy/lib/cmake/Kokkos)
file(WRITE ${decoy}/KokkosConfigVersion.cmake "set(PACKAGE_VERSION 99.0.0)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n")
file(WRITE ${decoy}/KokkosConfig.cmake "set(Kokkos_VERSION 99.0.0)\nset(Kokkos_DEVICES SERIAL)\n")
set(ENV{CMAKE_PREFIX_PATH} "${WORK_DIR}/decoy:${prefix}")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/decoy-build -G ${GENERATOR}
                        -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "[ \n\t]+" " " said "${out} ${err}")
if(rc EQUAL 0 OR NOT said MATCHES "kprim was built with Kokkos .* but the Kokkos found is 99\\.0\\.0")
  message(FATAL_ERROR "install test: a consumer with another Kokkos first on CMAKE_PREFIX_PATH was not refused "
                      "(rc ${rc}):\n${out}\n${err}")
endif()
