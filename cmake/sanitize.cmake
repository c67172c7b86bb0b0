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

# scripts/sanitize.sh compiles at -O0: about 40% less compile time than -O1, every
# check kept. The libraries whose speed the sanitized tests wait on (the kernels'
# CPU twins, the emulator, the guard's PTX passes) stay at -O1.
function(cudaviz_sanitize_keep_optimised target)
  if(CUDAVIZ_SANITIZE)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-O1>
                                             $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-O1>)
  endif()
endfunction()
