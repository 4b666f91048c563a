# Run by CTest (unit_tests/CMakeLists.txt): install kprim from KPRIM_BUILD_DIR into a scratch
# prefix, then configure, build and run the consumer project against it.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: '${ARGN}' failed (${rc})")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${KPRIM_BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(EXISTS ${WORK_DIR}/build/consumer_mpi)
  run(${WORK_DIR}/build/consumer_mpi)  # a singleton MPI process, no mpiexec needed
endif()
