# cmake -DNM=<nm> -DFILES=<program;...> -P no_gnu_unique.cmake: fails where a program defines
# a GNU unique symbol (nm type "u"): SMPI's copies of the program would share it between all
# simulated ranks (runtime/cmake/nampiSmpi.cmake; nampi::nampi adds -fno-gnu-unique for SMPI).
foreach(file IN LISTS FILES)
  execute_process(COMMAND "${NM}" -C "${file}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${file}")
  endif()
  string(REGEX MATCHALL "[0-9a-f]+ u [^\n]+" unique "${symbols}")
  if(unique)
    list(JOIN unique "\n  " lines)
    message(FATAL_ERROR "${file} defines GNU unique symbols, shared by all simulated ranks:\n  ${lines}")
  endif()
  message(STATUS "${file}: no GNU unique symbol")
endforeach()
