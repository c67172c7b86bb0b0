#pragma once
// Compiler messages go to the student (on the class server: any browser in
// the room), so no path of the teacher's machine may be in them: the build
// directory, the toolkit's include folders, a home directory. Every absolute
// path becomes its last component ("cmath", "cuda_runtime.h"), the assembled
// source (the prelude's lines before the student's) "the prelude".
#include <string>

namespace cv::sandbox {

// `assembled`: the file the compiler was given ("kernel.cpp"), shown as "the prelude".
std::string scrub_paths(const std::string& text, const std::string& assembled = "kernel.cpp");

}  // namespace cv::sandbox
