# libclang (the C API, clang-c/Index.h) for the CPU emulator's fast path
# (docs/emulator.md, "Loop fission"). Optional: the header is needed to build
# it in (Debian/Ubuntu: libclang-dev); the library is dlopened at run time by
# its soname (libclang1-NN), so a machine without it still runs every kernel
# (as fibers). Defines CUDAVIZ_LIBCLANG_FOUND, _INCLUDE_DIR and _SONAME.
file(GLOB _cv_llvm_roots /usr/lib/llvm-*)
list(SORT _cv_llvm_roots COMPARE NATURAL ORDER DESCENDING)  # the newest first
set(_cv_llvm_includes "")
set(_cv_llvm_libs "")
foreach(_r IN LISTS _cv_llvm_roots)
  list(APPEND _cv_llvm_includes ${_r}/include)
  list(APPEND _cv_llvm_libs ${_r}/lib)
endforeach()
find_path(CUDAVIZ_LIBCLANG_INCLUDE_DIR clang-c/Index.h HINTS ${_cv_llvm_includes})
find_library(CUDAVIZ_LIBCLANG_LIBRARY NAMES clang libclang HINTS ${_cv_llvm_libs})
set(CUDAVIZ_LIBCLANG_FOUND OFF)
set(CUDAVIZ_LIBCLANG_SONAME "")
if(CUDAVIZ_LIBCLANG_INCLUDE_DIR AND CUDAVIZ_LIBCLANG_LIBRARY)
  # Its soname (libclang-14.so.13): a patch release keeps it, the file name changes.
  get_filename_component(_cv_real ${CUDAVIZ_LIBCLANG_LIBRARY} REALPATH)
  # The dynamic section: readelf -d, else objdump -p (each tool with its own flag).
  set(_cv_dyn "")
  if(CMAKE_READELF)
    execute_process(COMMAND ${CMAKE_READELF} -d ${_cv_real} OUTPUT_VARIABLE _cv_dyn ERROR_QUIET)
  endif()
  if(NOT _cv_dyn AND CMAKE_OBJDUMP)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p ${_cv_real} OUTPUT_VARIABLE _cv_dyn ERROR_QUIET)
  endif()
  string(REGEX MATCH "SONAME[^\n]*" _cv_line "${_cv_dyn}")
  string(REGEX MATCH "libclang[^] \n]*" CUDAVIZ_LIBCLANG_SONAME "${_cv_line}")
  if(NOT CUDAVIZ_LIBCLANG_SONAME)
    get_filename_component(CUDAVIZ_LIBCLANG_SONAME ${_cv_real} NAME)
  endif()
  set(CUDAVIZ_LIBCLANG_FOUND ON)
  message(STATUS "libclang for the emulator's fast path: ${CUDAVIZ_LIBCLANG_INCLUDE_DIR} (${CUDAVIZ_LIBCLANG_SONAME} at run time)")
else()
  message(STATUS "libclang not found (libclang-dev): the emulator's fast path (loop fission) is left out; kernels run as fibers")
endif()
