# CUDAVIZ_VIEW_OBJECTS_FROM=<a main build> (sanitizer builds only; scripts/sanitize.sh):
# the drawing code of a target (GL resources, renderers, panels, views, the window
# and its frame loop) is linked from that build's objects instead of compiled
# again with the sanitizers. Those files run only in a window, and the sanitizer
# run leaves the window tests out, so instrumenting them checked nothing that
# ran; they were a sixth of the sanitizer build. What reads input (lessons,
# presets, the class server, the command line), runs a student's kernel or is
# tested on its own stays instrumented. Mixing is safe with GCC: both builds
# define the same macros (NDEBUG, the project's), and libstdc++ annotates no
# containers unless _GLIBCXX_SANITIZE_VECTOR is defined (it is not), so an
# uninstrumented push_back cannot make an instrumented read look out of range.
set(CUDAVIZ_VIEW_OBJECTS_FROM "" CACHE PATH "a main build whose drawing-code objects a sanitizer build links")

# cudaviz_view_objects(<target> <source>...): each listed source of <target>
# (relative to this folder) replaced by the main build's object of it.
function(cudaviz_view_objects target)
  if(NOT CUDAVIZ_SANITIZE OR NOT CUDAVIZ_VIEW_OBJECTS_FROM)
    return()
  endif()
  file(RELATIVE_PATH _cv_dir ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  get_target_property(_cv_sources ${target} SOURCES)
  foreach(_cv_src IN LISTS ARGN)
    get_filename_component(_cv_abs ${_cv_src} ABSOLUTE)
    file(RELATIVE_PATH _cv_rel ${CMAKE_CURRENT_SOURCE_DIR} ${_cv_abs})
    set(_cv_obj ${CUDAVIZ_VIEW_OBJECTS_FROM}/${_cv_dir}/CMakeFiles/${target}.dir/${_cv_rel}.o)
    if(NOT EXISTS ${_cv_obj})
      message(FATAL_ERROR "CUDAVIZ_VIEW_OBJECTS_FROM: ${_cv_obj} is missing: build the ${target} "
                          "target of ${CUDAVIZ_VIEW_OBJECTS_FROM} first")
    endif()
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
  message(STATUS "cudaviz: ${_cv_count} drawing-code objects of ${target} linked from ${CUDAVIZ_VIEW_OBJECTS_FROM}")
endfunction()
