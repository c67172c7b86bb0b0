#include "system/doctor.h"

#include <glad/gl.h>  // before GLFW
#include <GLFW/glfw3.h>

#include "common/cuda_arch.h"
#include "common/device_info.h"
#include "io/data_dir.h"
#include "system/system_probe.h"

namespace cv::sys {
namespace {

// glfwInit + a hidden 4.1 core window, made current; torn down in reverse.
class HiddenGlContext {
 public:
  HiddenGlContext() {
    glfwSetErrorCallback(nullptr);  // errors are read with glfwGetError and reported
    if (!glfwInit()) {
      error_ = "glfwInit failed: " + last_glfw_error();
      return;
    }
    initialised_ = true;
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(64, 64, "cudaviz doctor", nullptr, nullptr);
    if (!window_) {
      error_ = "glfwCreateWindow (OpenGL 4.1 core) failed: " + last_glfw_error();
      return;
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(glfwGetProcAddress)) error_ = "gladLoadGL failed: no OpenGL 4.1 entry points";
  }
  ~HiddenGlContext() {
    if (window_) glfwDestroyWindow(window_);
    if (initialised_) glfwTerminate();
  }
  HiddenGlContext(const HiddenGlContext&) = delete;
  HiddenGlContext& operator=(const HiddenGlContext&) = delete;
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  static std::string last_glfw_error() {
    const char* desc = nullptr;
    const int code = glfwGetError(&desc);
    return desc ? std::string(desc) + " (GLFW error " + std::to_string(code) + ")" : "unknown";
  }
  bool initialised_ = false;
  GLFWwindow* window_ = nullptr;
  std::string error_;
};

}  // namespace

std::string format_report(const Facts& f, const std::vector<Finding>& found) {
  std::string s = "cudaviz doctor\n";
  s += "  build: CUDA runtime " + cuda_version_text(f.cuda.runtime_version) +
       ", code for CMAKE_CUDA_ARCHITECTURES=" + f.cuda.built_architectures + "\n";
  s += "  driver: " +
       (f.cuda.driver_version ? "CUDA " + cuda_version_text(f.cuda.driver_version) : "none") +
       " (needs CUDA " + cuda_version_text(f.cuda.needed_driver) + " or newer)\n";
  s += "  display: " + std::string(to_string(f.display.server)) + (f.display.wsl ? ", WSL2" : "") +
       "\n\n";
  for (const Finding& x : found) {
    s += "[" + std::string(to_string(x.level)) + "] " + x.topic + ": " + x.text + "\n";
    if (!x.fix.empty()) s += "    fix: " + x.fix + "\n";
  }
  const RunMode mode = run_mode(f);
  s += "\n";
  if (mode != RunMode::Cannot)
    s += "verdict: cudaviz runs here: " + std::string(describe(mode)) + "\n";
  else if (f.gl.context)  // the window opens, but a setting stops the app
    s += "verdict: cudaviz cannot start here: see the 'cannot run' finding (exit 1)\n";
  else
    s += "verdict: cudaviz cannot open its window here (exit 1)\n";
  return s;
}

int run_doctor(const Config& config, std::ostream& out) {
  Facts f;
  f.display = probe_display(config.system);
  f.cuda = probe_cuda(true);
  if (f.display.server != DisplayServer::None) {
    f.gl.tried = true;
    HiddenGlContext gl;
    f.gl.context = gl.ok();
    f.gl.error = gl.error();
    if (gl.ok()) probe_current_gl(f.gl, cuda_usable(f.cuda), config);
  }
  std::vector<Finding> found = findings(f);
  // The shipped data (presets): found from the binary's place, so an install works anywhere.
  const io::DataDir data = io::find_data_dir(config.paths.assets);
  if (data.path.empty())
    found.push_back({Level::Warn, "data", io::data_dir_error(data),
                     "reinstall the package, or set CUDAVIZ_ASSETS to a folder holding presets/"});
  else
    found.push_back({Level::Ok, "data", "shipped presets in " + data.path + "/presets", ""});
  out << format_report(f, found);
  out.flush();
  return exit_code(f);
}

}  // namespace cv::sys
