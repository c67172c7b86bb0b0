# Install layout and the Debian package (CPack DEB): `cpack` in a build tree, or
# scripts/package.sh for the portable build (docs/packaging.md).
#
#   bin/cudaviz                                   the app (static CUDA runtime: needs the driver only)
#   lib/cudaviz/cudaviz-runner                    the process student kernels run in (docs/kernels.md)
#   lib/cudaviz/cudaviz-explain                   the process explain runs a kernel in (docs/emulator.md)
#   lib/cudaviz/cudaviz-nvrtc                     a submission's confined NVRTC compile (docs/kernels.md)
#   share/cudaviz/{presets,lessons,kernels}/      found from bin/ as ../share/cudaviz (io/data_dir.h)
#   share/applications/org.cudaviz.cudaviz.desktop, share/icons/hicolor/scalable/apps/cudaviz.svg,
#   share/metainfo/org.cudaviz.cudaviz.metainfo.xml, share/doc/cudaviz/{copyright,changelog.Debian.gz}
#   share/man/man1/cudaviz.1.gz
#   lib/cudaviz/libnvrtc*.so*                     NVRTC for the kernel editor (below)
include(GNUInstallDirs)
set(_cv_pkg ${PROJECT_SOURCE_DIR}/packaging)

install(TARGETS cudaviz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The process student kernels run in, an internal helper: lib/cudaviz (Debian policy), where
# usercode/runner_client looks after the binary's own folder.
install(TARGETS cudaviz-runner RUNTIME DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudaviz)
# The process explain runs a kernel in (docs/emulator.md), found the same way.
install(TARGETS cudaviz-explain RUNTIME DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudaviz)
install(TARGETS cudaviz-nvrtc RUNTIME DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudaviz)
# Strip our binary only (not CPACK_STRIP_FILES, which strips every file: NVIDIA's
# libraries below may be shipped unmodified only).
if(CMAKE_STRIP)
  foreach(_cv_bin ${CMAKE_INSTALL_BINDIR}/cudaviz ${CMAKE_INSTALL_LIBDIR}/cudaviz/cudaviz-runner)
    install(CODE "execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-unneeded
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_cv_bin}\")")
  endforeach()
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cudaviz)
install(FILES ${_cv_pkg}/org.cudaviz.cudaviz.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${_cv_pkg}/cudaviz.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${_cv_pkg}/org.cudaviz.cudaviz.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${_cv_pkg}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/cudaviz)
# Debian wants the changelog compressed with gzip -9n (no name, no timestamp: reproducible).
set(_cv_changelog ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog.Debian.gz)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/packaging)
execute_process(COMMAND gzip -9n -c ${_cv_pkg}/changelog OUTPUT_FILE ${_cv_changelog}
                RESULT_VARIABLE _cv_gzip_rc)
if(NOT _cv_gzip_rc EQUAL 0)
  message(FATAL_ERROR "gzip -9n of ${_cv_pkg}/changelog failed (${_cv_gzip_rc})")
endif()
set(_cv_manpage ${CMAKE_CURRENT_BINARY_DIR}/packaging/cudaviz.1.gz)
execute_process(COMMAND gzip -9n -c ${_cv_pkg}/cudaviz.1 OUTPUT_FILE ${_cv_manpage}
                RESULT_VARIABLE _cv_gzip_rc)
if(NOT _cv_gzip_rc EQUAL 0)
  message(FATAL_ERROR "gzip -9n of ${_cv_pkg}/cudaviz.1 failed (${_cv_gzip_rc})")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_cv_pkg}/changelog ${_cv_pkg}/cudaviz.1)
install(FILES ${_cv_changelog} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/cudaviz)
install(FILES ${_cv_manpage} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# NVRTC (the kernel editor) is a shared library only (this toolkit has no libnvrtc_static.a)
# and a driver-only machine has none, so the package carries the toolkit's libnvrtc.so and
# libnvrtc-builtins.so (distributable unmodified: the CUDA EULA's Attachment A) in a private
# folder. The app dlopens NVRTC (usercode/compile/nvrtc_api.cpp) by soname, which searches the
# executable's RUNPATH first: $ORIGIN/../lib/cudaviz.
option(CUDAVIZ_PACKAGE_NVRTC "Ship libnvrtc*.so in lib/cudaviz for the kernel editor" ON)
if(CUDAVIZ_PACKAGE_NVRTC)
  get_target_property(_cv_nvrtc CUDA::nvrtc IMPORTED_LOCATION)
  get_filename_component(_cv_nvrtc_dir "${_cv_nvrtc}" DIRECTORY)
  # The run-time names only (libnvrtc.so.13, libnvrtc-builtins.so.13.0), not the .so dev links.
  file(GLOB _cv_nvrtc_files ${_cv_nvrtc_dir}/libnvrtc.so.* ${_cv_nvrtc_dir}/libnvrtc-builtins.so.*)
  install(FILES ${_cv_nvrtc_files} DESTINATION ${CMAKE_INSTALL_LIBDIR}/cudaviz)
  set_target_properties(cudaviz PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}/cudaviz")
  message(STATUS "cudaviz: the package carries NVRTC from ${_cv_nvrtc_dir}")
endif()

# The package. Dependencies are written out rather than computed (dpkg-shlibdeps would
# pin libglfw3, but Debian 12's libglfw3 and libglfw3-wayland conflict and either one
# serves); never libcuda: the driver may come from NVIDIA's installer, and the static
# runtime finds it at run time. libgl1: GLFW loads libGL.so.1 with dlopen.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cudaviz)
set(CPACK_PACKAGE_VERSION 0.1.0)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_CONTACT "cudaviz maintainers <cudaviz@lists.cudaviz.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "interactive visualizer of GPU parallelism (CUDA and OpenGL)")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "CUDA kernels write particle fountains, swarms and n-body systems straight into\n"
  "the OpenGL vertex buffer every frame. Panels launch classic teaching demos\n"
  "(Monte-Carlo pi, 3SUM, reductions) with the CPU beside the GPU, and let anyone\n"
  "change the block shape and watch frame and kernel times move. The GPU paths\n"
  "need the NVIDIA driver, not the CUDA toolkit. Without a GPU everything runs\n"
  "on a CPU backend.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6 (>= 2.34), libgcc-s1 (>= 3.0), libstdc++6 (>= 12), libglfw3 (>= 3.3) | libglfw3-wayland (>= 3.3), libgl1, libmicrohttpd12 (>= 0.9.75) | libmicrohttpd12t64, libqrencode4")
# The challenge's editor page serves the packaged CodeMirror 5 (a plain textarea without it).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libjs-codemirror")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
# The CPU emulator's fast path dlopens libclang by the soname the build found
# (cmake/libclang.cmake): libclang-14.so.13 is Debian 12's libclang1-14, Ubuntu
# 24.04's is libclang1-18. Recommended, not required: without it kernels run as fibers.
if(CUDAVIZ_LIBCLANG_SONAME MATCHES "^libclang-([0-9]+)\\.so")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${CPACK_DEBIAN_PACKAGE_RECOMMENDS}, libclang1-${CMAKE_MATCH_1}")  # beside CodeMirror
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_SET_DESTDIR OFF)
include(CPack)
