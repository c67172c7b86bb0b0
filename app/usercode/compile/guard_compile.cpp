#include "usercode/compile/guard_compile.h"

#include "usercode/compile/compile_log.h"
#include "usercode/compile/jitlink.h"
#include "common/device_info.h"

namespace cv::usercode::guard {

void guard_result(const std::string& student_file, CompileResult& r) {
  r.cubin.clear();  // never the unguarded one
  if (r.ptx.empty()) return;  // NVRTC failed: its diagnostics say why
  GuardOptions o;
  o.student_file = student_file;
  // The spans' element sizes, so that accesses bounded by a span's size need no
  // check (bounds_proof.h); the runner passes exactly size x element bytes.
  if (r.spec) {
    const std::vector<ArgSpec>& args = r.spec->args;
    auto index_of = [&](const std::string& name) {
      for (size_t k = 0; k < args.size(); ++k)
        if (args[k].is_span && args[k].name == name) return static_cast<int>(k);
      return -1;
    };
    for (size_t j = 0; j < args.size(); ++j) {
      if (!args[j].is_span) {
        for (const ScalarSpec::AtMost& m : args[j].scalar.at_most) {
          std::set<int> spans;
          for (const std::string& n : m.spans)
            if (index_of(n) >= 0) spans.insert(index_of(n));
          o.bounds.scalar_at_most[static_cast<int>(j)].push_back({m.offset, m.bytes, spans});
        }
        continue;
      }
      if (!args[j].span.elem_bytes) continue;
      o.bounds.span_elem_bytes[static_cast<int>(j)] = args[j].span.elem_bytes;
      for (size_t k = 0; k < args.size(); ++k)  // sizes make_launch keeps equal: one class
        if (args[k].is_span && args[k].name == args[j].span.same_size_as)
          o.bounds.span_size_class[static_cast<int>(j)] = static_cast<int>(k);
    }
  }
  if (r.spec) o.bounds.shared_bytes_per_thread = r.spec->shared_bytes_per_thread;
  if (const DeviceInfo& d = device_info(); d.available) o.bounds.max_threads_per_block = d.limits.max_threads_per_block;
  r.guarded = guard_ptx(r.ptx, o);
  if (!r.guarded.ok) {
    r.diagnostics.push_back({r.guarded.error_line, 0, Severity::Error, r.guarded.error});
    return;
  }
  if (r.arch.rfind("sm_", 0) != 0) return;  // PTX only (a compute_XY request)
  // For this machine's GPU the runner's driver JIT compiles the guarded PTX:
  // one whole program, as NVRTC's own ptxas compiles the unguarded kernel.
  // nvJitLink compiles PTX as relocatable code for its link (ptxas -c): the
  // very same PTX took 29 registers instead of 24 (the fountain kernel) and
  // ran 18% slower on the H100, a cost that is not the guard's. Elsewhere (a
  // chosen architecture, no GPU) nvJitLink still checks it and gives ptxas's figures.
  if (const DeviceInfo& d = device_info(); d.available && r.arch == device_arch()) return;
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
