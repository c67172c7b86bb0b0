# Which GPUs the binary carries code for (included before project()).
#
# Given CMAKE_CUDA_ARCHITECTURES (or the CUDAARCHS environment variable), that
# wins. Otherwise: `native` when a GPU is visible at configure time (the same
# query nvcc -arch=native runs), else the portable set: SASS for the common
# families of CUDA 13 (7.5 Turing .. 12.0 Blackwell; a cubin also runs on later
# minors of its major, so sm_86 covers 8.7 Jetson Orin, sm_100 covers 10.3 and
# sm_120 covers 12.1) and compute_75 PTX, which the driver JIT-compiles on a
# GPU none of the SASS fits (11.0, and whatever comes next).
set(CUDAVIZ_PORTABLE_ARCHITECTURES "75-real;80-real;86-real;89-real;90-real;100-real;120-real;75-virtual"
    CACHE STRING "CMAKE_CUDA_ARCHITECTURES used when none is given and no GPU is visible")

# -DCUDAVIZ_ARCHITECTURES=portable (the `portable` preset) asks for that set on any machine.
set(CUDAVIZ_ARCHITECTURES "auto" CACHE STRING "auto (native with a GPU, else portable) or portable")
if(CUDAVIZ_ARCHITECTURES STREQUAL "portable" AND NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "${CUDAVIZ_PORTABLE_ARCHITECTURES}")
  message(STATUS "cudaviz: portable CMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}")
elseif(NOT CUDAVIZ_ARCHITECTURES MATCHES "^(auto|portable)$")
  message(FATAL_ERROR "CUDAVIZ_ARCHITECTURES='${CUDAVIZ_ARCHITECTURES}' is not auto or portable")
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(_cv_query "")
  if(DEFINED CMAKE_CUDA_COMPILER)
    get_filename_component(_cv_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    set(_cv_query "${_cv_bin}/__nvcc_device_query")
  endif()
  set(_cv_rc 1)
  if(EXISTS "${_cv_query}")
    execute_process(COMMAND "${_cv_query}" RESULT_VARIABLE _cv_rc OUTPUT_VARIABLE _cv_out
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
  endif()
  if(_cv_rc EQUAL 0 AND _cv_out MATCHES "^[0-9]")
    set(CMAKE_CUDA_ARCHITECTURES native)
    message(STATUS "cudaviz: GPU seen at configure time (${_cv_out}): CMAKE_CUDA_ARCHITECTURES=native")
  else()
    set(CMAKE_CUDA_ARCHITECTURES "${CUDAVIZ_PORTABLE_ARCHITECTURES}")
    message(STATUS "cudaviz: no GPU seen at configure time: portable CMAKE_CUDA_ARCHITECTURES="
                   "${CMAKE_CUDA_ARCHITECTURES}")
  endif()
  unset(_cv_query)
  unset(_cv_bin)
  unset(_cv_rc)
  unset(_cv_out)
endif()
