#include "config/config.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace cv {
namespace {

// Set and non-empty.
bool given(const char* v) { return v && *v; }
// Set, non-empty and not starting with '0' (the switches' old reading).
bool switched_on(const char* v) { return given(v) && *v != '0'; }
std::string text(const char* v) { return v ? v : ""; }

void read_paths(const EnvLookup& env, PathConfig& p) {
  p.assets = text(env("CUDAVIZ_ASSETS"));
  p.kernel_dir = text(env("CUDAVIZ_KERNEL_DIR"));
  p.runner = text(env("CUDAVIZ_RUNNER"));
  if (const char* cm = env("CUDAVIZ_CODEMIRROR_DIR")) p.codemirror_dir = cm;
  if (const char* path = env("PATH")) p.path = path;
  p.cxx = text(env("CXX"));
  if (const char* tmp = env("TMPDIR"); given(tmp)) p.tmpdir = tmp;
  const char* xdg = env("XDG_CONFIG_HOME");
  const char* home = env("HOME");
  p.config_home = given(xdg) ? xdg
                  : home     ? (std::filesystem::path(home) / ".config").string()
                             : "";
}

void read_system(const EnvLookup& env, SystemEnv& s) {
  s.display = text(env("DISPLAY"));
  s.wayland_display = text(env("WAYLAND_DISPLAY"));
  s.session_type = text(env("XDG_SESSION_TYPE"));
  s.prime_offload = text(env("__NV_PRIME_RENDER_OFFLOAD"));
  s.wsl_distro = text(env("WSL_DISTRO_NAME"));
  if (const char* v = env("CUDA_VISIBLE_DEVICES")) s.cuda_visible_devices = v;
}

void read_interop(const EnvLookup& env, Config& c) {
  const char* interop = env("CUDAVIZ_INTEROP");
  const char* force_copy = env("CUDAVIZ_FORCE_COPY");
  for (const char* name : {"CUDAVIZ_INTEROP", "CUDAVIZ_FORCE_COPY"})
    if (std::string s = setting_text(env, name); !s.empty())
      c.interop_setting += (c.interop_setting.empty() ? "" : " ") + s;
  try {
    c.interop = parse_interop_config(interop, force_copy);
  } catch (const std::invalid_argument& e) {
    c.interop_error = e.what();
  }
}

void read_kernel_choices(const EnvLookup& env, Config& c) {
  c.nbody_tile = text(env("CUDAVIZ_NBODY_TILE"));
  try {
    c.fault = parse_fault_spec(text(env("CUDAVIZ_FAULT")));
  } catch (const std::invalid_argument& e) {
    c.fault_error = e.what();
  }
  if (const char* simd = env("CUDAVIZ_CPU_SIMD"); given(simd)) {
    c.cpu_simd = parse_simd_path(simd);
    if (!c.cpu_simd)
      c.cpu_simd_error = std::string("CUDAVIZ_CPU_SIMD=") + simd + " is not baseline or avx2";
  }
}

void read_hooks(const EnvLookup& env, Config& c) {
  c.resize_storm = switched_on(env("CUDAVIZ_RESIZE_STORM"));
  if (const char* v = env("CUDAVIZ_CLOSE_AT_FRAME"); given(v)) {
    const std::string s = v;
    if (s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
      c.close_at_frame_error = "CUDAVIZ_CLOSE_AT_FRAME='" + s + "' is not a frame number";
    else
      c.close_at_frame = std::stoll(s);
  }
  if (const char* v = env("CUDAVIZ_LESSON_PREDICT"); given(v)) {
    std::vector<double> nums;
    std::stringstream in(v);
    std::string item;
    while (std::getline(in, item, ',')) {
      char* end = nullptr;
      const double d = std::strtod(item.c_str(), &end);
      if (end == item.c_str() || *end != '\0') {
        c.lesson_predict_error = "CUDAVIZ_LESSON_PREDICT: '" + item + "' is not a number";
        return;
      }
      nums.push_back(d);
    }
    c.lesson_predict = nums;
  }
}

}  // namespace

std::string setting_text(const EnvLookup& lookup, const char* name) {
  const char* v = lookup(name);
  return v ? std::string(name) + "=" + v : "";
}

Config config_from_environment(const EnvLookup& lookup) {
  Config c;
  read_paths(lookup, c.paths);
  read_system(lookup, c.system);
  if (const char* v = lookup("CUDAVIZ_GL_DEBUG"); given(v)) c.gl_debug = *v != '0';
  read_interop(lookup, c);
  c.gl_finish = switched_on(lookup("CUDAVIZ_GL_FINISH"));
  read_kernel_choices(lookup, c);
  read_hooks(lookup, c);
  return c;
}

bool Config::gl_debug_on() const {
#ifdef NDEBUG
  return gl_debug.value_or(false);
#else
  return gl_debug.value_or(true);
#endif
}

std::vector<std::string> Config::problems() const {
  std::vector<std::string> p;
  for (const std::string* e : {&interop_error, &fault_error, &cpu_simd_error,
                               &close_at_frame_error, &lesson_predict_error})
    if (!e->empty()) p.push_back(*e);
  return p;
}

}  // namespace cv
