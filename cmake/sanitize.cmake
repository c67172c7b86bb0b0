# CUDAVIZ_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer on all host
# code (C, C++, and the host side of .cu files through nvcc's host compiler).
# Device code is not instrumented: compute-sanitizer covers it on a GPU.
# Used by scripts/sanitize.sh; see there for the ASAN_OPTIONS the tests run with.
option(CUDAVIZ_SANITIZE "Build host code with -fsanitize=address,undefined" OFF)

if(CUDAVIZ_SANITIZE)
  # Any UB report is fatal (non-zero exit), so a test run cannot pass over one.
  # One sanitizer per flag: nvcc's -Xcompiler splits its value at commas.
  set(_cv_san_flags -fsanitize=address -fsanitize=undefined -fno-omit-frame-pointer
                    -fno-sanitize-recover=undefined)
  foreach(_flag IN LISTS _cv_san_flags)
    add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:${_flag}>
                        $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_flag}>)
    # Executables link through g++ (they all have C++ sources), which pulls in
    # libasan/libubsan; nvcc never links here.
    add_link_options($<$<LINK_LANGUAGE:C,CXX>:${_flag}>)
  endforeach()
  message(STATUS "cudaviz: host code built with AddressSanitizer + UndefinedBehaviorSanitizer")
endif()

# The app's own objects (cudaviz_core: windows, panels, scenes; a quarter of the
# sanitizer build) compile at -O0 there: about 40% less time than -O1, every
# check kept. What the sanitized tests spend their time in keeps -O1: the
# sources given after the target, and everything outside it (the
# student-kernel libraries, the kernels' CPU twins, the tests). At -O0 the
# data generators made the corpus tests seven times slower, and the class
# server took 95 s for the 10,000 bad requests it answers in 8.
function(cudaviz_sanitize_quick_compile target)
  if(CUDAVIZ_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-O0>)
    if(ARGN)
      set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS -O1)  # after the target's: wins
    endif()
  endif()
endfunction()
