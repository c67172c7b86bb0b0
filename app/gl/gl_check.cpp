#include "gl/gl_check.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace cv {

const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    default: return "GL_UNKNOWN_ERROR";
  }
}

static std::atomic<long long> g_check_failures{0};

void check_gl(const char* call) {
  GLenum first = glGetError();
  if (first == GL_NO_ERROR) return;
  ++g_check_failures;
  while (glGetError() != GL_NO_ERROR) {
  }  // drain so the next check starts clean
  throw GlError(std::string(call) + " failed: " + gl_error_name(first));
}

static std::atomic<long long> g_debug_errors{0};

static void GLAD_API_PTR on_debug_message(GLenum, GLenum type, GLuint, GLenum severity, GLsizei,
                                          const GLchar* message, const void*) {
  if (type == GL_DEBUG_TYPE_ERROR) ++g_debug_errors;
  if (type == GL_DEBUG_TYPE_ERROR || severity == GL_DEBUG_SEVERITY_HIGH)
    std::fprintf(stderr, "GL debug: %s\n", message);
}

bool enable_gl_debug_output() {
  if (!GLAD_GL_KHR_debug && !GLAD_GL_VERSION_4_3) return false;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_debug_message, nullptr);
  return true;
}


long long gl_error_count() { return g_debug_errors.load() + g_check_failures.load(); }

}  // namespace cv
