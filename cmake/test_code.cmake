# Test code is glue around the code it tests: its compile time is CI's, its run
# time is the tested code's. In an optimised build it compiles at -O1, half the
# time of -O3 (the code under test keeps the build's flags); the sanitizer
# build's flags are -O1 already (scripts/sanitize.sh).
# Under the sanitizers the test code keeps AddressSanitizer but not UBSan's
# checks, which doubled its compile time (37 s against 19 for test_verdict.cpp):
# the undefined behaviour worth finding is in the code under test, which keeps both.
# There it also compiles at -O0 (37% less time than -O1 with ASan: 17.7 -> 11.2 s
# for test_verdict.cpp): ASan's checks are the same, and what runs long in a test
# is the code it calls, which keeps -O1.
function(cudaviz_test_code target)
  if(CUDAVIZ_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize=undefined>
                                             $<$<COMPILE_LANGUAGE:CXX>:-O0>)
  else()
    target_compile_options(${target} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O1>)
  endif()
endfunction()
