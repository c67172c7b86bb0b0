#include "usercode/compile/guard_compile.h"

#include "usercode/compile/compile_log.h"
#include "usercode/compile/jitlink.h"

namespace cv::usercode::guard {

void guard_result(const std::string& student_file, CompileResult& r) {
  r.cubin.clear();  // never the unguarded one
  if (r.ptx.empty()) return;  // NVRTC failed: its diagnostics say why
  r.guarded = guard_ptx(r.ptx, {student_file});
  if (!r.guarded.ok) {
    r.diagnostics.push_back({r.guarded.error_line, 0, Severity::Error, r.guarded.error});
    return;
  }
  if (r.arch.rfind("sm_", 0) != 0) return;  // PTX only (a compute_XY request)
  LinkResult l = link_ptx(r.guarded.ptx, r.arch);
  if (!l.ok) {
    if (jitlink_status().empty()) r.error = l.error;  // nvJitLink is there and refused: say so
    return;  // else the driver's JIT compiles the guarded PTX in the runner
  }
  r.cubin = std::move(l.cubin);
  if (!r.entry_points.empty()) {
    const KernelResources k = parse_ptxas_resources(l.info, r.entry_points[0]);
    if (k.known) r.resources = k;
  }
}

std::vector<char> load_image(const CompileResult& r) {
  if (!r.cubin.empty()) return r.cubin;
  const std::string& ptx = r.guarded.ok ? r.guarded.ptx : r.ptx;
  return std::vector<char>(ptx.begin(), ptx.end());
}

}  // namespace cv::usercode::guard
