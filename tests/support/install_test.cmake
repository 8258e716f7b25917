# The install tests (tests/CMakeLists.txt), run with `cmake -D... -P`: nampi installed into a
# fresh prefix, tests/support/consumer built against it with find_package(nampi) alone (also
# with the README's precompiled header), and its programs run.
#   MODE=consumer  installs the build tree under test (BUILD_DIR)
#   MODE=package   the README's commands: configures SOURCE_DIR with nothing but the MPI
#                  compiler wrapper and no C compiler (CC names none that exists), builds and
#                  installs it, and checks that nampi-sets and the configured header are there
# Also: WORK (a scratch folder, removed first), CXX (the MPI compiler wrapper), GENERATOR,
# MAKE_PROGRAM, CONSUMER_SOURCE, MPIEXEC (the launch command of one rank, words joined by '|'),
# ABI (ON where the MPI is the MPI 5 standard ABI), PLAIN_CXX (the C++ compiler without the
# wrapper, for the FindMPI route).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "failed (${rc}): ${cmd}")
  endif()
endfunction()

set(prefix "${WORK}/prefix")
file(REMOVE_RECURSE "${WORK}")
if(MODE STREQUAL "consumer")
  run("${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
elseif(MODE STREQUAL "package")
  set(ENV{CC} "/nonexistent/cc")
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK}/b" -G "${GENERATOR}"
      "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_CXX_COMPILER=${CXX}")
  run("${CMAKE_COMMAND}" --build "${WORK}/b")
  run("${CMAKE_COMMAND}" --install "${WORK}/b" --prefix "${prefix}")
  unset(ENV{CC})
  foreach(f bin/nampi-sets include/nampi/nampi.hpp include/nampi/config.h include/nampi/global.hpp)
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "not installed: ${f}")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "MODE must be consumer or package, not '${MODE}'")
endif()
run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE}" -B "${WORK}/consumer" -G "${GENERATOR}"
    "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_CXX_COMPILER=${CXX}"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DNAMPI_EXPECTED_PREFIX=${prefix}"
    "-DNAMPI_CONSUMER_EXPECT_ABI=${ABI}")
run("${CMAKE_COMMAND}" --build "${WORK}/consumer")
string(REPLACE "|" ";" launch "${MPIEXEC}")
foreach(program nampi_consumer nampi_consumer_compiled nampi_consumer_pch nampi_consumer_pch_reused)
  run(${launch} "${WORK}/consumer/${program}")
endforeach()
# The other way a project finds MPI: its own C++ compiler (PLAIN_CXX) and FindMPI pointed at
# the wrapper. With mpicxx_abi, FindMPI drops the wrapper's -DMPI_ABI for C++; the package
# must give it back (the consumer checks that it was built for the ABI: ABI).
if(MODE STREQUAL "consumer" AND PLAIN_CXX)
  run("${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE}" -B "${WORK}/consumer-findmpi" -G "${GENERATOR}"
      "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_CXX_COMPILER=${PLAIN_CXX}"
      "-DMPI_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${prefix}"
      "-DNAMPI_EXPECTED_PREFIX=${prefix}" "-DNAMPI_CONSUMER_EXPECT_ABI=${ABI}")
  run("${CMAKE_COMMAND}" --build "${WORK}/consumer-findmpi" --target nampi_consumer)
  run(${launch} "${WORK}/consumer-findmpi/nampi_consumer")
endif()
file(REMOVE_RECURSE "${WORK}")
