#pragma once
// Finding a program to start: a tool on PATH (ffmpeg, the host compiler), or
// one of our own helper processes (cudaviz-runner, cudaviz-explain), which
// live beside the app, or in lib/cudaviz when installed.
#include <optional>
#include <string>
#include <vector>

namespace cv {

// The first executable file called `name` in the directories of `path_env`
// (PATH's format: ':'-separated; an empty entry is the current directory).
std::optional<std::string> find_on_path(const std::string& name, const char* path_env);

// The helper program `name`: `override_path` when given and executable, else
// `name` beside the running binary, else in ../lib/cudaviz from it (an
// internal helper is installed there, Debian policy), else `build_path` (the
// build tree's, compiled in). "" when none is; `tried` gets every path looked at.
std::string find_helper(const std::string& name, const std::string& override_path,
                        const std::string& build_path, std::vector<std::string>* tried = nullptr);

}  // namespace cv
