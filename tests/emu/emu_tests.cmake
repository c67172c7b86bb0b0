# emu_tests (label cpu): the emulator library alone, with the shipped kernels
# (assets/kernels) built against the app's prelude (embedded here, as the app does).
set(EMU_TEST_PRELUDE ${CMAKE_CURRENT_BINARY_DIR}/generated/emu_test_prelude.h)
file(GLOB EMU_TEST_PRELUDE_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/app/usercode/prelude/*.h)
add_custom_command(
  OUTPUT ${EMU_TEST_PRELUDE}
  COMMAND ${CMAKE_COMMAND} -DOUT=${EMU_TEST_PRELUDE} -DNS=cv::emu_test::prelude
          -DDIR=${PROJECT_SOURCE_DIR}/app/usercode/prelude -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  DEPENDS ${EMU_TEST_PRELUDE_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
  COMMENT "Embedding the usercode prelude for emu_tests")
file(GLOB EMU_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/emu/*.cpp)
add_executable(emu_tests ${EMU_TEST_SOURCES} ${EMU_TEST_PRELUDE})
target_link_libraries(emu_tests PRIVATE cudaviz_emu GTest::gtest_main)
cudaviz_test_code(emu_tests)
target_include_directories(emu_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/generated)
target_compile_definitions(emu_tests PRIVATE CUDAVIZ_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
gtest_discover_tests(emu_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cpu
  SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
