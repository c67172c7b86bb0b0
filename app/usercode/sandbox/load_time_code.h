#pragma once
// A module a student's file built (a .so of the host compiler) must not run
// code when it is loaded: dlopen runs constructors (`__attribute__((constructor))`,
// global objects' dynamic initialisation, `.init_array` entries however they
// got there) and GNU ifunc resolvers, before the loading process could lock
// itself (cell.h). So the build rewrites the module's DT_INIT / DT_INIT_ARRAY
// entries to private tags the dynamic loader ignores, and the cell runs them
// itself, under its seccomp policy, after loading (run_deferred_init). What
// cannot be deferred (ifunc resolvers: IRELATIVE relocations and
// STT_GNU_IFUNC symbols; libraries beyond the C and C++ runtimes; audit and
// filter entries) is refused with a sentence at build time.
#include <string>
#include <vector>

namespace cv::sandbox {

// Checks and rewrites `so_path` in place; "" or the reason it is refused
// (a sentence to the student, e.g. about target_clones).
std::string defer_load_time_code(const std::string& so_path);

// Its DT_NEEDED libraries ("libstdc++.so.6", ...); {} when unreadable.
std::vector<std::string> needed_libraries(const std::string& so_path);

// Loads each of them (RTLD_NOW), so that loading the module later opens no
// other file. Only the allowed runtimes are ever listed (defer_load_time_code).
void preload_needed(const std::string& so_path);

// Runs a loaded module's deferred DT_INIT then DT_INIT_ARRAY (as the dynamic
// loader would have), once. `dl_handle` from dlopen. False when it has none
// (nothing was deferred: not built by us).
bool run_deferred_init(void* dl_handle);
// The same for every loaded object that carries deferred entries (a cell
// loads one module once, so each runs once); how many had some.
int run_deferred_init_all();

}  // namespace cv::sandbox
