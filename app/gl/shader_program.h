#pragma once
// Compiles and links a vertex + fragment shader pair; throws GlError with the
// driver's log on failure.
#include "gl/gl_objects.h"

namespace cv {

GlProgram build_program(const char* name, const char* vertex_src, const char* fragment_src);

}  // namespace cv
