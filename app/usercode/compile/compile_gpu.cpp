// The GPU back end of compile(): NVRTC, in memory, for the device's
// architecture (cubin + PTX) or a chosen one (PTX and diagnostics anywhere).
#include <algorithm>
#include <regex>

#include "common/device_info.h"
#include "usercode/compile/compile_log.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/compile/guard_compile.h"
#include "usercode/compile/nvrtc_api.h"

namespace cv::usercode::detail {
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

// "sm_90" for the device, else kDefaultArch; the request's when given.
std::string choose_arch(const CompileRequest& req) {
  if (!req.arch.empty()) return req.arch;
  const DeviceInfo& d = device_info();
  if (d.available) return "sm_" + std::to_string(d.cc_major * 10 + d.cc_minor);
  return kDefaultArch;
}

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
  const std::string program = assemble(req.source, req.file_name, *r.spec, Target::Gpu);
  const std::vector<Header> headers = prelude_headers(*r.spec);
  std::vector<const char*> texts, names;
  for (const Header& h : headers) texts.push_back(h.text.c_str()), names.push_back(h.name.c_str());
  nvrtcProgram raw = nullptr;
  if (nvrtcResult e = api.create(&raw, program.c_str(), req.file_name.c_str(),
                                 static_cast<int>(headers.size()), texts.data(), names.data());
      e != NVRTC_SUCCESS) {
    r.error = std::string("nvrtcCreateProgram: ") + api.error_string(e);
    return;
  }
  Program prog(api, raw);
  // Guarded: NVRTC stops at PTX (compute_XY); nvJitLink builds the cubin from the guarded PTX.
  const bool guard_links = req.guard && r.arch.rfind("sm_", 0) == 0;
  const std::string arch_opt = "-arch=" + (guard_links ? "compute_" + r.arch.substr(3) : r.arch);
  std::vector<const char*> opts = {arch_opt.c_str(), "-lineinfo", "-std=c++17", "-default-device"};
  if (!guard_links) opts.push_back("-Xptxas=-v");
  if (req.checked) opts.push_back("-DCV_CHECKED=1");
  const nvrtcResult result = api.compile(prog.get(), static_cast<int>(opts.size()), opts.data());
  size_t log_size = 0;
  api.log_size(prog.get(), &log_size);
  std::string log(log_size, '\0');
  if (log_size) api.log(prog.get(), log.data());
  while (!log.empty() && log.back() == '\0') log.pop_back();
  r.log = log;
  r.diagnostics = parse_nvrtc_log(log, req.file_name);
  if (result != NVRTC_SUCCESS) {
    if (r.diagnostics.empty())
      r.error = std::string("nvrtcCompileProgram: ") + api.error_string(result);
    return;
  }
  size_t ptx_size = 0;
  if (api.ptx_size(prog.get(), &ptx_size) == NVRTC_SUCCESS && ptx_size) {
    r.ptx.assign(ptx_size, '\0');
    api.ptx(prog.get(), r.ptx.data());
    while (!r.ptx.empty() && r.ptx.back() == '\0') r.ptx.pop_back();
  }
  size_t cubin_size = 0;
  if (r.arch.rfind("sm_", 0) == 0 && api.cubin_size(prog.get(), &cubin_size) == NVRTC_SUCCESS &&
      cubin_size) {
    r.cubin.resize(cubin_size);
    api.cubin(prog.get(), r.cubin.data());
  }
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

}  // namespace cv::usercode::detail
