// The GPU back end of compile(): NVRTC, in memory, for the device's
// architecture (cubin + PTX) or a chosen one (PTX and diagnostics anywhere).
#include <algorithm>
#include <regex>

#include "common/device_info.h"
#include "usercode/compile/compile_log.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/compile/guard_compile.h"
#include "usercode/compile/nvrtc_api.h"
#include "usercode/compile/nvrtc_child.h"
#include "process/find_program.h"

namespace cv::usercode {

std::string device_arch() {
  const DeviceInfo& d = device_info();
  return d.available ? "sm_" + std::to_string(d.cc_major * 10 + d.cc_minor) : kDefaultArch;
}

namespace detail {
namespace {

// RAII for one nvrtcProgram.
class Program {
 public:
  Program(const NvrtcApi& api, nvrtcProgram p) : api_(api), p_(p) {}
  ~Program() { api_.destroy(&p_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return p_; }

 private:
  const NvrtcApi& api_;
  nvrtcProgram p_;
};

// The request's architecture, else the device's (device_arch).
std::string choose_arch(const CompileRequest& req) { return req.arch.empty() ? device_arch() : req.arch; }

std::string check_arch(const NvrtcApi& api, const std::string& arch) {
  static const std::regex form(R"((sm|compute)_(\d+)[af]?)");
  std::smatch m;
  if (!std::regex_match(arch, m, form))
    return "architecture '" + arch + "' is not of the form sm_XY or compute_XY (e.g. sm_75)";
  int n = 0;
  if (api.num_archs(&n) != NVRTC_SUCCESS || n <= 0) return "";
  std::vector<int> archs(static_cast<size_t>(n));
  api.archs(archs.data());
  const int want = std::stoi(m[2]);
  if (std::find(archs.begin(), archs.end(), want) == archs.end()) {
    std::string list;
    for (int a : archs) list += (list.empty() ? "" : ", ") + std::to_string(a);
    return "NVRTC cannot compile for " + arch + " (it knows " + list + ")";
  }
  return "";
}

// NVRTC's answer, from this process or from a child (nvrtc_child.h).
struct NvrtcAnswer {
  nvrtcResult result = NVRTC_ERROR_INTERNAL_ERROR;
  std::string result_name, log, ptx;
  std::vector<char> cubin;
  std::string error;  // it could not run
};

NvrtcAnswer nvrtc_here(const NvrtcApi& api, const std::string& program, const std::string& file,
                       const std::vector<Header>& headers, const std::vector<const char*>& opts, bool want_cubin) {
  NvrtcAnswer a;
  std::vector<const char*> texts, names;
  for (const Header& h : headers) texts.push_back(h.text.c_str()), names.push_back(h.name.c_str());
  nvrtcProgram raw = nullptr;
  if (nvrtcResult e = api.create(&raw, program.c_str(), file.c_str(), static_cast<int>(headers.size()),
                                 texts.data(), names.data());
      e != NVRTC_SUCCESS) {
    a.error = std::string("nvrtcCreateProgram: ") + api.error_string(e);
    return a;
  }
  Program prog(api, raw);
  a.result = api.compile(prog.get(), static_cast<int>(opts.size()), opts.data());
  a.result_name = api.error_string(a.result);
  size_t size = 0;
  api.log_size(prog.get(), &size);
  a.log.assign(size, '\0');
  if (size) api.log(prog.get(), a.log.data());
  if (a.result != NVRTC_SUCCESS) return a;
  size_t cubin = 0;
  api.ptx_size(prog.get(), &size);
  if (want_cubin) api.cubin_size(prog.get(), &cubin);
  if (size > kMaxBinaryBytes || cubin > kMaxBinaryBytes) {
    a.error = "the compiled kernel is " + std::to_string(std::max(size, cubin) >> 20) + " MiB of " +
              (size > kMaxBinaryBytes ? "PTX" : "cubin") + "; a kernel may be at most " +
              std::to_string(kMaxBinaryBytes >> 20) + " MiB (an unrolled loop or a huge array?)";
    return a;
  }
  a.ptx.assign(size, '\0');
  if (size) api.ptx(prog.get(), a.ptx.data());
  a.cubin.resize(cubin);
  if (cubin) api.cubin(prog.get(), a.cubin.data());
  return a;
}

// The same in `cudaviz-nvrtc` (a submission from the network): bounded in time, confined.
NvrtcAnswer nvrtc_apart(const CompileRequest& req, const std::string& program, const std::vector<Header>& headers,
                        const std::vector<const char*>& opts, bool want_cubin, std::string& sandbox) {
  NvrtcJob job;
  job.program = program;
  job.file_name = req.file_name;
  for (const Header& h : headers) job.headers.push_back({h.name, h.text});
  for (const char* o : opts) job.options.push_back(o);
  job.want_cubin = want_cubin;
  #ifndef CUDAVIZ_NVRTC_HELPER_PATH
#define CUDAVIZ_NVRTC_HELPER_PATH ""
#endif
  const NvrtcOutput o = nvrtc_in_child(job, find_helper("cudaviz-nvrtc", "", CUDAVIZ_NVRTC_HELPER_PATH),
                                       req.paths.tmpdir);
  sandbox = o.sandbox.empty() ? "" : "NVRTC: " + o.sandbox;
  NvrtcAnswer a;
  a.error = o.error;
  if (!o.ran) {
    if (a.error.empty()) a.error = "NVRTC's process gave no answer";
    return a;
  }
  a.result = static_cast<nvrtcResult>(o.result);
  a.result_name = o.result_name;
  a.log = o.log, a.ptx = o.ptx, a.cubin = o.cubin;
  if (a.ptx.size() > kMaxBinaryBytes || a.cubin.size() > kMaxBinaryBytes)
    a.error = "the compiled kernel is larger than " + std::to_string(kMaxBinaryBytes >> 20) + " MiB";
  return a;
}

}  // namespace

void compile_gpu(const CompileRequest& req, CompileResult& r) {
  const NvrtcApi& api = NvrtcApi::get();
  if (!api.error.empty()) {
    r.error = api.error;
    return;
  }
  r.arch = choose_arch(req);
  if (std::string bad = check_arch(api, r.arch); !bad.empty()) {
    r.error = bad;
    return;
  }
  const std::string program = assemble(req.source, req.file_name, *r.spec, BuildKind::Gpu);
  const std::vector<Header> headers = prelude_headers(*r.spec);
  // Guarded: NVRTC stops at PTX (compute_XY); nvJitLink builds the cubin from the guarded PTX.
  const bool guard_links = req.guard && r.arch.rfind("sm_", 0) == 0;
  const std::string arch_opt = "-arch=" + (guard_links ? "compute_" + r.arch.substr(3) : r.arch);
  std::vector<const char*> opts = {arch_opt.c_str(), "-lineinfo", "-std=c++17", "-default-device"};
  if (!guard_links) opts.push_back("-Xptxas=-v");
  if (req.checked) opts.push_back("-DCV_CHECKED=1");
  const bool want_cubin = r.arch.rfind("sm_", 0) == 0;
  NvrtcAnswer a = req.isolate ? nvrtc_apart(req, program, headers, opts, want_cubin, r.sandbox)
                              : nvrtc_here(api, program, req.file_name, headers, opts, want_cubin);
  std::string log = std::move(a.log);
  while (!log.empty() && log.back() == '\0') log.pop_back();
  r.log = log;
  r.diagnostics = parse_nvrtc_log(log, req.file_name);
  if (!a.error.empty()) {
    r.error = a.error;
    return;
  }
  if (a.result != NVRTC_SUCCESS) {
    if (r.diagnostics.empty()) r.error = "nvrtcCompileProgram: " + a.result_name;
    return;
  }
  r.ptx = std::move(a.ptx);
  while (!r.ptx.empty() && r.ptx.back() == '\0') r.ptx.pop_back();
  r.cubin = std::move(a.cubin);
  if (!r.entry_points.empty()) r.resources = parse_ptxas_resources(log, r.entry_points[0]);
  if (req.guard) guard::guard_result(req.file_name, r);
  // A kernel the file must define but does not: the PTX has no entry for it.
  for (const std::string& entry : r.entry_points)
    if (r.ptx.find(".entry " + entry + "(") == std::string::npos)
      r.diagnostics.push_back(
          {0, 0, Severity::Error,
           "no kernel named " + entry + ": the file must define it exactly as the prelude "
           "declares it (extern \"C\" __global__ void " + entry + "(...))"});
}

}  // namespace detail
}  // namespace cv::usercode
