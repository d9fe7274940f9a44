# ctest test_names: no test case name may hold a ';'. catch_discover_tests
# hands ctest the names as a CMake list, so a ';' splits one test into
# fragments that match nothing, and Catch passes a filter that matches
# nothing: the test would silently never run.
# Usage: cmake -DBINARIES="a;b;..." -P check_test_names.cmake
set(bad "")
string(REPLACE "|" ";" BINARIES "${BINARIES}")
foreach(bin IN LISTS BINARIES)
  execute_process(COMMAND ${bin} --list-test-names-only OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 AND out STREQUAL "")
    message(FATAL_ERROR "${bin} --list-test-names-only failed (${rc})")
  endif()
  string(REPLACE ";" "<semicolon>" out "${out}")
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line IN LISTS lines)
    if(line MATCHES "<semicolon>")
      string(REPLACE "<semicolon>" ";" line "${line}")
      list(APPEND bad "${bin}: ${line}")
    endif()
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "test names with ';' (ctest would never run them):\n  ${bad}")
endif()
message(STATUS "no test name holds a ';'")
