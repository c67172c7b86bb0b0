#pragma once
// GL error reporting: check_gl() after GL calls that can fail, throwing GlError
// with the call and the error's name; KHR_debug output routed to a callback in
// debug builds and tests (CUDAVIZ_GL_DEBUG=1).
#include <glad/gl.h>

#include <stdexcept>
#include <string>

namespace cv {

class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

const char* gl_error_name(GLenum e);

// Throws GlError("<call> failed: GL_INVALID_...") if glGetError reports anything.
void check_gl(const char* call);

// Enables KHR_debug messages when the context offers them; counts errors so
// scripted runs can assert there were none. Returns whether output is on.
bool enable_gl_debug_output();
// Errors seen so far: KHR_debug errors plus check_gl() failures (the
// `gl_errors` field of the --frames summary).
long long gl_error_count();

// Whether to ask for a debug context and debug output is the configuration's
// (Config::gl_debug_on: CUDAVIZ_GL_DEBUG, else on in Debug builds).

}  // namespace cv
