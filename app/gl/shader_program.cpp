#include "gl/shader_program.h"

#include <string>

#include "gl/gl_check.h"

namespace cv {

static GLuint compile(const char* name, GLenum stage, const char* src) {
  GLuint s = glCreateShader(stage);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    glDeleteShader(s);
    throw GlError(std::string("compiling ") + name + (stage == GL_VERTEX_SHADER ? " (vertex)" : " (fragment)") +
                  ": " + log);
  }
  return s;
}

GlProgram build_program(const char* name, const char* vertex_src, const char* fragment_src) {
  GLuint vs = compile(name, GL_VERTEX_SHADER, vertex_src);
  GLuint fs = 0;
  try {
    fs = compile(name, GL_FRAGMENT_SHADER, fragment_src);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  GlProgram prog(glCreateProgram());
  glAttachShader(prog.get(), vs);
  glAttachShader(prog.get(), fs);
  glLinkProgram(prog.get());
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(prog.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(prog.get(), sizeof log, nullptr, log);
    throw GlError(std::string("linking ") + name + ": " + log);
  }
  check_gl("build_program");
  return prog;
}

}  // namespace cv
