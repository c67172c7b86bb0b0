#include "usercode/compile.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

#include "usercode/compile_log.h"
#include "usercode/compile_parts.h"
#include "usercode/nvrtc_api.h"
#include "usercode/temp_dir.h"
#include "usercode_prelude.h"

namespace cv::usercode {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "?";
}

namespace detail {

std::vector<Header> prelude_headers(TemplateKind kind) {
  std::vector<Header> h = {{"cudaviz.h", prelude::cudaviz_h}};
  switch (kind) {
    case TemplateKind::FountainKernel:
      h.push_back({"cudaviz_fountain_kernel.h", prelude::fountain_kernel_h});
      break;
    case TemplateKind::FountainParticle:
      h.push_back({"cudaviz_fountain_particle.h", prelude::fountain_particle_h});
      h.push_back({"cudaviz_fountain_particle_gpu.h", prelude::fountain_particle_gpu_h});
      h.push_back({"cudaviz_fountain_particle_cpu.h", prelude::fountain_particle_cpu_h});
      break;
    case TemplateKind::Count3:
      h.push_back({"cudaviz_count3.h", prelude::count3_h});
      break;
    case TemplateKind::Pi:
      h.push_back({"cudaviz_pi.h", prelude::pi_h});
      break;
  }
  return h;
}

std::string epilogue_name(TemplateKind kind, Target target) {
  if (kind != TemplateKind::FountainParticle) return "";
  return target == Target::Gpu ? "cudaviz_fountain_particle_gpu.h"
                               : "cudaviz_fountain_particle_cpu.h";
}

std::string assemble(const std::string& source, const std::string& file, TemplateKind kind,
                     Target target) {
  std::string s;
  for (const Header& h : prelude_headers(kind))
    if (h.name.find("_gpu.h") == std::string::npos && h.name.find("_cpu.h") == std::string::npos)
      s += "#include \"" + h.name + "\"\n";
  s += "#line 1 \"" + file + "\"\n";
  s += source;
  const std::string epi = epilogue_name(kind, target);
  if (!epi.empty()) s += "\n#include \"" + epi + "\"\n";
  return s;
}

std::vector<std::string> entry_points(TemplateKind kind, Target target) {
  switch (kind) {
    case TemplateKind::FountainKernel:
      return {"fountain_step"};
    case TemplateKind::FountainParticle:
      return {target == Target::Gpu ? "fountain_step" : "cv_fountain_rows"};
    case TemplateKind::Count3:
      return {"count3"};
    case TemplateKind::Pi:
      return {"pi_samples"};
  }
  return {};
}

}  // namespace detail

std::string prelude_text(TemplateKind kind) {
  std::string s;
  for (const detail::Header& h : detail::prelude_headers(kind)) {
    if (h.name.find("_cpu.h") != std::string::npos) continue;  // the GPU wrapper shows the idea
    s += "// ---- " + h.name + " ----\n" + h.text + "\n";
  }
  return s;
}

std::string epilogue_text(TemplateKind kind, Target target) {
  if (kind != TemplateKind::FountainParticle) return "";
  return target == Target::Gpu ? prelude::fountain_particle_gpu_h : prelude::fountain_particle_cpu_h;
}

std::string CompileResult::first_error() const {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error)
      return (d.line ? std::to_string(d.line) : std::string("0")) + ": error: " + d.message;
  if (!ok && !error.empty()) return "0: error: " + error;
  return "";
}

int CompileResult::first_error_line() const {
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error) return d.line;
  return 0;
}

namespace {

// Only a plain file name goes into #line and the messages.
std::string clean_file_name(const std::string& name) {
  std::string base = std::filesystem::path(name).filename().string();
  std::string out;
  for (char c : base)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') out += c;
  return out.empty() ? "kernel.cu" : out;
}

}  // namespace

CompileResult compile(const CompileRequest& in) {
  const auto t0 = std::chrono::steady_clock::now();
  CompileRequest req = in;
  req.file_name = clean_file_name(req.file_name);
  CompileResult r;
  r.target = req.target;
  r.checked = req.checked;
  r.source_lines = static_cast<size_t>(std::count(req.source.begin(), req.source.end(), '\n')) + 1;
  auto finish = [&]() -> CompileResult {
    r.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.ok = r.error.empty() && std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Error; });
    return r;
  };
  r.diagnostics = check_source(req.source);
  if (!r.diagnostics.empty()) return finish();

  std::string name = req.template_name;
  if (name.empty()) name = template_from_source(req.source).value_or("");
  if (name.empty()) {
    r.error = "no template named: start the file with `// template: NAME` (one of " +
              template_names() + ") or choose one";
    return finish();
  }
  const TemplateInfo* t = find_template(name);
  if (!t) {
    r.error = "unknown template '" + name + "' (known: " + template_names() + ")";
    return finish();
  }
  r.template_name = t->example ? to_string(t->kind) : t->name;
  r.kind = t->kind;
  if (req.target == Target::Cpu && !runs_on_cpu(t->kind)) {
    r.error = std::string("a ") + to_string(t->kind) +
              " kernel runs only on a CUDA GPU; on the CPU backend only fountain_particle files run "
              "(this one still compiles for the GPU to show its errors and PTX)";
    return finish();
  }
  r.entry_points = detail::entry_points(t->kind, req.target);
  if (req.target == Target::Gpu)
    detail::compile_gpu(req, r);
  else
    detail::compile_host(req, r);
  return finish();
}

// ---- CompileJob ------------------------------------------------------------

CompileJob::~CompileJob() { worker_.join(); }

void CompileJob::start(CompileRequest req) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_ = std::move(req);
  if (!running_) launch_locked();
}

bool CompileJob::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_ || pending_.has_value();
}

void CompileJob::launch_locked() {
  CompileRequest req = std::move(*pending_);
  pending_.reset();
  running_ = true;
  worker_.join();  // the last run's thread has finished its job already
  const std::optional<std::string> why = worker_.start({[this, req = std::move(req)](RunControl&) {
    CompileResult result = compile(req);
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = std::move(result);
    running_ = false;
  }});
  if (why) {
    CompileResult failed;
    failed.error = "the compile could not start: " + *why;
    done_ = std::move(failed);
    running_ = false;
  }
}

std::optional<CompileResult> CompileJob::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<CompileResult> out = std::move(done_);
  done_.reset();
  if (!running_ && pending_) launch_locked();
  return out;
}

std::string nvrtc_status() {
  const NvrtcApi& api = NvrtcApi::get();
  if (!api.error.empty()) return api.error;
  int major = 0, minor = 0;
  api.version(&major, &minor);
  return "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace cv::usercode
