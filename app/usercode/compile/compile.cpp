#include "usercode/compile/compile.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

#include "usercode/compile/compile_log.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/compile/nvrtc_api.h"
#include "usercode/compile/temp_dir.h"
#include "usercode/sandbox/path_scrub.h"
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

std::vector<Header> prelude_headers(const TemplateSpec& t) {
  std::vector<Header> h = {{"cudaviz.h", prelude::cudaviz_h},
                           {"cudaviz_" + t.name + ".h", "// cudaviz: what a " + t.name +
                                                            " file must define.\n" + declaration_text(t)}};
  if (!t.gpu_epilogue.empty()) h.push_back({epilogue_name(t, BuildKind::Gpu), t.gpu_epilogue});
  if (!t.cpu_epilogue.empty()) h.push_back({epilogue_name(t, BuildKind::Cpu), t.cpu_epilogue});
  return h;
}

std::string epilogue_name(const TemplateSpec& t, BuildKind build) {
  const std::string& text = build == BuildKind::Gpu ? t.gpu_epilogue : t.cpu_epilogue;
  if (text.empty()) return "";
  return "cudaviz_" + t.name + (build == BuildKind::Gpu ? "_gpu.h" : "_cpu.h");
}

std::string assemble(const std::string& source, const std::string& file, const TemplateSpec& t,
                     BuildKind build) {
  std::string s = "#include \"cudaviz.h\"\n#include \"cudaviz_" + t.name + ".h\"\n";
  s += "#line 1 \"" + file + "\"\n";
  s += source;
  const std::string epi = epilogue_name(t, build);
  if (!epi.empty()) s += "\n#include \"" + epi + "\"\n";
  return s;
}

std::vector<std::string> entry_points(const TemplateSpec& t, BuildKind build) {
  return {build == BuildKind::Cpu && t.cpu_form == CpuForm::Items ? t.cpu_entry : t.entry};
}

}  // namespace detail

namespace {

// `text` as // comment lines of at most about 90 characters, broken at
// spaces (and at its own line breaks); a longer word has a line of its own.
std::string comment_lines(std::string text) {
  constexpr size_t kWidth = 90;
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::string out, line;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    if (word.empty()) {  // a run of spaces
      at = end + 1;
      continue;
    }
    if (!line.empty() && line.size() + 1 + word.size() > kWidth) out += "// " + line + "\n", line.clear();
    line += (line.empty() ? "" : " ") + word;
    at = end + 1;
  }
  if (!line.empty()) out += "// " + line + "\n";
  return out;
}

}  // namespace

std::string prelude_text(const TemplateSpec& t) {
  std::string s;
  for (const detail::Header& h : detail::prelude_headers(t)) {
    if (h.name.size() > 6 && h.name.compare(h.name.size() - 6, 6, "_cpu.h") == 0)
      continue;  // the GPU wrapper shows the idea
    s += "// ---- " + h.name + " ----\n" + h.text + "\n";
  }
  // What the verdict compares the kernel with, and within what: the student's question after "wrong".
  if (!t.reference_text.empty() || !t.tolerance_text.empty()) {
    s += "// ---- how your kernel is checked ----\n";
    if (!t.reference_text.empty()) s += comment_lines("against " + t.reference_text);
    s += comment_lines(t.tolerance_text.empty() ? std::string("exactly") : "within " + t.tolerance_text);
  }
  return s;
}

std::string epilogue_text(const TemplateSpec& t, BuildKind build) {
  return build == BuildKind::Gpu ? t.gpu_epilogue : t.cpu_epilogue;
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

std::string template_name_of(const CompileRequest& req) {
  return !req.template_name.empty() ? req.template_name : template_from_source(req.source).value_or("");
}

CompileRequest normalized(const CompileRequest& in) {
  CompileRequest req = in;
  req.file_name = clean_file_name(req.file_name);
  // The CPU has no guard of its own: with the guard on, its spans are checked.
  if (req.build == BuildKind::Cpu && req.guard) req.checked = true;
  return req;
}

CompileResult compile(const CompileRequest& in) {
  const auto t0 = std::chrono::steady_clock::now();
  const CompileRequest req = normalized(in);
  CompileResult r;
  r.build = req.build;
  r.file_name = req.file_name;
  r.checked = req.checked;
  r.source_lines = static_cast<size_t>(std::count(req.source.begin(), req.source.end(), '\n')) + 1;
  auto finish = [&]() -> CompileResult {
    r.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // Messages reach the student: no path of this machine in them, and not without end.
    if (r.log.size() > kMaxLogBytes)
      r.log = r.log.substr(0, kMaxLogBytes) + "\n(the compiler's log goes on for " +
              std::to_string(r.log.size() - kMaxLogBytes) + " more bytes; the first " +
              std::to_string(kMaxLogBytes / 1024) + " KiB are shown)\n";
    if (r.diagnostics.size() > kMaxDiagnostics) r.diagnostics.resize(kMaxDiagnostics);
    r.log = sandbox::scrub_paths(r.log);
    r.error = sandbox::scrub_paths(r.error);
    for (Diagnostic& d : r.diagnostics) d.message = sandbox::scrub_paths(d.message);
    r.ok = r.error.empty() && std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                                           [](const Diagnostic& d) { return d.severity == Severity::Error; });
    return r;
  };
  r.diagnostics = check_source(req.source);
  if (!r.diagnostics.empty()) return finish();

  const std::string name = template_name_of(req);
  if (name.empty()) {
    r.error = "no template named: start the file with `// template: NAME` (one of " +
              template_names() + ") or choose one";
    return finish();
  }
  const TemplateSpec* t = find_template(name);
  if (!t) {
    r.error = "unknown template '" + name + "' (known: " + template_names() + ")";
    return finish();
  }
  r.template_name = t->name;
  r.spec = t;
  if (req.build == BuildKind::Cpu && !runs_on_cpu(*t)) {
    r.error = "a " + t->name +
              " kernel is a whole __global__ kernel: it runs only on a CUDA GPU (this one still "
              "compiles for the GPU to show its errors and PTX)";
    return finish();
  }
  r.entry_points = detail::entry_points(*t, req.build);
  if (req.build == BuildKind::Cpu) r.request = std::make_shared<const CompileRequest>(req);
  if (req.build == BuildKind::Gpu)
    detail::compile_gpu(req, r);
  else
    detail::compile_host(req, r);
  detail::explain_signature(req.source, *t, r);
  return finish();
}

// ---- CompileJob ------------------------------------------------------------

CompileJob::~CompileJob() { worker_.join(); }

void CompileJob::start(CompileRequest req, Then then) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_ = std::move(req);
  pending_then_ = std::move(then);
  if (!running_) launch_locked();
}

bool CompileJob::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_ || pending_.has_value();
}

void CompileJob::launch_locked() {
  CompileRequest req = std::move(*pending_);
  Then then = std::move(pending_then_);
  pending_.reset();
  pending_then_ = nullptr;
  running_ = true;
  worker_.join();  // the last run's thread has finished its job already
  const std::optional<std::string> why = worker_.start({[this, req = std::move(req), then = std::move(then)](RunControl&) {
    CompileResult result = compile(req);
    if (then) then(result);
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
