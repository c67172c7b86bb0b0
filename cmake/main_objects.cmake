# CUDAVIZ_OBJECTS_FROM=<a main build> (scripts/sanitize.sh): objects a sanitizer
# build links from that build instead of compiling them again.
# - The kernels' .cu objects (kernels/CMakeLists.txt): their device code is not
#   instrumented, and their host side runs only with a GPU, which CI lacks.
# - The app's drawing code (app/CMakeLists.txt, cudaviz_view_objects: GL
#   resources, renderers, panels, views, the window and its frame loop): it runs
#   only in a window, and the sanitizer run leaves the window tests out, so
#   instrumenting it checked nothing that ran; it was a sixth of the sanitizer
#   build. What reads input (lessons, presets, the class server, the command
#   line), runs a student's kernel or is tested on its own stays instrumented.
#   Mixing is safe with GCC: both builds define the same macros (NDEBUG, the
#   project's), and libstdc++ annotates no containers unless
#   _GLIBCXX_SANITIZE_VECTOR is defined (it is not), so an uninstrumented
#   push_back cannot make an instrumented read look out of range.
set(CUDAVIZ_OBJECTS_FROM "" CACHE PATH "a main build whose CUDA and drawing-code objects a sanitizer build links")

# cudaviz_main_object(<out> <target> <source>): the main build's object of
# <source> (relative to this folder or absolute) in <target>; an error naming
# the object when that build lacks it.
function(cudaviz_main_object out target source)
  file(RELATIVE_PATH _cv_dir ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  get_filename_component(_cv_abs ${source} ABSOLUTE)
  file(RELATIVE_PATH _cv_rel ${CMAKE_CURRENT_SOURCE_DIR} ${_cv_abs})
  set(_cv_obj ${CUDAVIZ_OBJECTS_FROM}/${_cv_dir}/CMakeFiles/${target}.dir/${_cv_rel}.o)
  if(NOT EXISTS ${_cv_obj})
    message(FATAL_ERROR "CUDAVIZ_OBJECTS_FROM: ${_cv_obj} is missing: build the ${target} "
                        "target of ${CUDAVIZ_OBJECTS_FROM} first")
  endif()
  set(${out} ${_cv_obj} PARENT_SCOPE)
endfunction()

# cudaviz_view_objects(<target> <source>...): in a sanitizer build, each listed
# source of the object library <target> replaced by the main build's object.
function(cudaviz_view_objects target)
  if(NOT CUDAVIZ_SANITIZE OR NOT CUDAVIZ_OBJECTS_FROM)
    return()
  endif()
  get_target_property(_cv_sources ${target} SOURCES)
  foreach(_cv_src IN LISTS ARGN)
    cudaviz_main_object(_cv_obj ${target} ${_cv_src})
    get_filename_component(_cv_abs ${_cv_src} ABSOLUTE)
    file(RELATIVE_PATH _cv_rel ${CMAKE_CURRENT_SOURCE_DIR} ${_cv_abs})
    list(FIND _cv_sources ${_cv_abs} _cv_at)
    if(_cv_at LESS 0)
      list(FIND _cv_sources ${_cv_rel} _cv_at)
    endif()
    if(_cv_at LESS 0)
      message(FATAL_ERROR "cudaviz_view_objects: ${_cv_src} is not a source of ${target}")
    endif()
    list(REMOVE_AT _cv_sources ${_cv_at})
    list(APPEND _cv_objects ${_cv_obj})
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${_cv_sources})
  # An object library hands its consumers only what it compiled: the objects go
  # to them as their own sources.
  target_sources(${target} INTERFACE ${_cv_objects})
  list(LENGTH ARGN _cv_count)
  message(STATUS "cudaviz: ${_cv_count} drawing-code objects of ${target} linked from ${CUDAVIZ_OBJECTS_FROM}")
endfunction()
