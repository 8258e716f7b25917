# MPI functions that an MPI library links but does not implement: calling one stops the
# program at run time. SimGrid's SMPI (3.32) has 88 such functions: their PMPI_ entry points
# only call xbt_die (or, for 4 of them, only warn and return) with the message
# "Not yet implemented: %s. Please contact the SimGrid team ..." (src/smpi/bindings/
# smpi_pmpi*.cpp, NOT_YET_IMPLEMENTED). The symbol probe of CMakeLists.txt finds them all, so
# they are taken out of its result here: their NAMPI_HAVE_<NAME> stays undefined, and a
# program using one gets nampi's compile-time message instead of an abort in the simulation.
#
# The list is derived from the library itself, not written down: the functions whose machine
# code loads the address of such a message (objdump -d), read once per configured MPI (about
# 1.5 s for libsimgrid) and cached with the probe. A library without the message is not
# disassembled.

# The libraries a compiler wrapper links, for MPIs where FindMPI lists none (the wrapper is
# the compiler itself, as smpicxx is for SMPI): its -show line's -l names in its -L
# directories. Empty where the wrapper shows nothing usable.
function(nampi_wrapper_libraries wrapper out_var)
  set(libs "")
  if(wrapper)
    execute_process(COMMAND "${wrapper}" -show OUTPUT_VARIABLE shown ERROR_QUIET
      RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      separate_arguments(words UNIX_COMMAND "${shown}")
      set(dirs "")
      set(names "")
      foreach(w IN LISTS words)
        if(w MATCHES "^-L(.+)$")
          list(APPEND dirs "${CMAKE_MATCH_1}")
        elseif(w MATCHES "^-l(.+)$")
          list(APPEND names "${CMAKE_MATCH_1}")
        endif()
      endforeach()
      foreach(name IN LISTS names)
        foreach(dir IN LISTS dirs)
          if(EXISTS "${dir}/lib${name}.so")
            get_filename_component(real "${dir}/lib${name}.so" REALPATH)
            list(APPEND libs "${real}")
            break()
          endif()
        endforeach()
      endforeach()
    endif()
  endif()
  set(${out_var} "${libs}" PARENT_SCOPE)
endfunction()

# Sets out_var to the MPI_ names (MPI_Improbe, ...) whose PMPI_ or MPI_ function in one of
# `libs` refers to a "Not yet implemented: " message. Cached under `key` (the configured MPI).
function(nampi_mpi_stub_functions libs key out_var)
  string(SHA256 key "v1|${libs}|${key}")
  if(DEFINED CACHE{NAMPI_STUB_KEY} AND NAMPI_STUB_KEY STREQUAL key)
    set(${out_var} "${NAMPI_STUB_FOUND}" PARENT_SCOPE)
    return()
  endif()
  set(stubs "")
  find_program(NAMPI_STRINGS_EXECUTABLE strings)
  find_program(NAMPI_GREP_EXECUTABLE grep)
  if(NOT CMAKE_OBJDUMP OR NOT NAMPI_STRINGS_EXECUTABLE OR NOT NAMPI_GREP_EXECUTABLE)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  foreach(lib IN LISTS libs)
    if(NOT IS_ABSOLUTE "${lib}" OR NOT EXISTS "${lib}" OR lib MATCHES "\\.a$")
      continue()
    endif()
    file(STRINGS "${lib}" marker REGEX "^Not yet implemented: " LIMIT_COUNT 1)
    if(NOT marker)
      continue()
    endif()
    # File offsets of the messages, then their addresses through the section table
    # ("Idx Name Size VMA LMA File-off Algn" lines of objdump -h).
    execute_process(COMMAND "${NAMPI_STRINGS_EXECUTABLE}" -a -t x "${lib}"
      COMMAND "${NAMPI_GREP_EXECUTABLE}" "Not yet implemented: "
      OUTPUT_VARIABLE found_strings ERROR_QUIET)
    execute_process(COMMAND "${CMAKE_OBJDUMP}" -h "${lib}" OUTPUT_VARIABLE sections ERROR_QUIET)
    string(REGEX MATCHALL "\n +[0-9]+ [^ ]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+" rows "${sections}")
    string(REGEX MATCHALL "(^|\n) *[0-9a-f]+ Not yet implemented: " offsets "${found_strings}")
    set(addresses "")
    foreach(o IN LISTS offsets)
      string(REGEX REPLACE "^\n? *([0-9a-f]+) .*" "\\1" o "${o}")
      math(EXPR offset "0x${o}")
      foreach(row IN LISTS rows)
        string(REGEX REPLACE "^\n +" "" row "${row}")
        string(REGEX REPLACE " +" ";" row "${row}")
        list(GET row 2 size)
        list(GET row 3 vma)
        list(GET row 5 file_off)
        math(EXPR begin "0x${file_off}")
        math(EXPR end "0x${file_off} + 0x${size}")
        if(offset GREATER_EQUAL begin AND offset LESS end)
          math(EXPR address "${offset} - ${begin} + 0x${vma}" OUTPUT_FORMAT HEXADECIMAL)
          string(REGEX REPLACE "^0x0*" "" address "${address}")
          list(APPEND addresses "${address}")
          break()
        endif()
      endforeach()
    endforeach()
    if(NOT addresses)
      continue()
    endif()
    # The function headers and the instructions that refer to a message ("# <address> <...>"),
    # in order: each reference belongs to the function above it.
    list(JOIN addresses "|" alternatives)
    execute_process(COMMAND "${CMAKE_OBJDUMP}" -d --no-show-raw-insn "${lib}"
      COMMAND "${NAMPI_GREP_EXECUTABLE}" -E "^[0-9a-f]+ <[^>]+>:$|# (${alternatives}) "
      OUTPUT_VARIABLE lines ERROR_QUIET)
    string(REPLACE "\n" ";" lines "${lines}")
    set(function "")
    foreach(line IN LISTS lines)
      if(line MATCHES "^[0-9a-f]+ <([^@>]+)(@[^>]*)?>:$")
        set(function "${CMAKE_MATCH_1}")
      elseif(function MATCHES "^P?(MPIX?_[A-Za-z0-9_]+)$")
        list(APPEND stubs "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES stubs)
  list(SORT stubs)
  set(NAMPI_STUB_KEY "${key}" CACHE INTERNAL "inputs of the cached stub scan")
  set(NAMPI_STUB_FOUND "${stubs}" CACHE INTERNAL "MPI functions linked but not implemented")
  set(${out_var} "${stubs}" PARENT_SCOPE)
endfunction()
