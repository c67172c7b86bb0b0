#include "usercode/client/explain_launch.h"

#include <algorithm>
#include <stdexcept>

#include "usercode/compile/compile.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/compile/unrolled_loops.h"

namespace cv::usercode {
namespace {

std::string dims_text(const unsigned d[3]) {
  return std::to_string(d[0]) + " x " + std::to_string(d[1]) + " x " + std::to_string(d[2]);
}

unsigned long long threads_at(const TemplateSpec& t, long long n, const BlockShape& b) {
  return launch_threads(t.shape(first_launch(t, n, b)));
}

// The loops NVVM unrolled in the file, from NVRTC's unguarded PTX for the
// running GPU (else the oldest architecture CUDA supports): none when NVRTC is
// missing or refuses the file, and explain pairs lanes as the source reads.
std::vector<emu::UnrolledLoop> gpu_unrolled_loops(const TemplateSpec& t, const std::string& source,
                                                   const ExplainOptions& o) {
  if (!o.ptx.empty()) return unrolled_loops(o.ptx, o.file_name);
  CompileRequest req;
  req.source = source;
  req.template_name = t.name;
  req.build = BuildKind::Gpu;
  // compute_XY: the PTX alone (the cubin is not needed); NVVM unrolls the same for both.
  req.arch = "compute_" + device_arch().substr(3);
  req.file_name = o.file_name;
  req.paths = o.paths;
  req.isolate = o.isolate;
  const CompileResult r = compile(req);
  return r.ok ? unrolled_loops(r.ptx, r.file_name) : std::vector<emu::UnrolledLoop>{};
}

}  // namespace

unsigned long long launch_threads(const LaunchShape& s) {
  return 1ull * s.grid[0] * s.grid[1] * s.grid[2] * s.block[0] * s.block[1] * s.block[2];
}

long long explain_n(const TemplateSpec& t, const BlockShape& b, std::optional<long long> requested) {
  if (requested) {
    const LaunchShape s = t.shape(first_launch(t, *requested, b));
    if (launch_threads(s) > kExplainMaxThreads)
      throw std::invalid_argument(
          "explain runs at most " + std::to_string(kExplainMaxThreads) +
          " threads (it checks races over the whole launch); --n " + std::to_string(*requested) + " gives " +
          t.name + "'s launch " + std::to_string(launch_threads(s)) + " threads (" + dims_text(s.grid) +
          " blocks of " + dims_text(s.block) + "): give a smaller --n, or none and explain picks one");
    return *requested;
  }
  long long n = std::min({kExplainStartN, t.default_n, t.emulated_default_n});
  while (n > 1 && threads_at(t, n, b) > kExplainMaxThreads) n /= 2;
  if (threads_at(t, n, b) > kExplainMaxThreads)
    throw std::invalid_argument("explain runs at most " + std::to_string(kExplainMaxThreads) + " threads, and " +
                                t.name + " launches " + std::to_string(threads_at(t, n, b)) +
                                " even at n = 1 with a block of " + to_string(b));
  return n;
}

emu::ExplainRequest make_explain_request(const TemplateSpec& t, const std::string& source, const ExplainOptions& o) {
  const BlockShape block = o.block.value_or(t.default_block);
  emu::ExplainRequest q;
  q.template_name = t.name;
  q.n = explain_n(t, block, o.n);
  q.source = source;
  q.file_name = o.file_name;
  const LaunchRequest launch = make_launch(t, first_launch(t, q.n, block), "explain");
  q.launch = wire::encode_launch(launch, q.launch_blob);
  // The CPU compile's inputs (compile_host.cpp): the app's prelude headers and
  // the template's header before line 1. A whole kernel is its own entry; a
  // per-item function runs inside its GPU wrapper kernel.
  for (const detail::Header& h : detail::prelude_headers(t)) q.headers.push_back({h.name, h.text});
  q.includes = {"cudaviz.h", "cudaviz_" + t.name + ".h"};
  const BuildKind build = t.cpu_form == CpuForm::Emulated ? BuildKind::Cpu : BuildKind::Gpu;
  q.entry = detail::entry_points(t, build).at(0);
  if (build == BuildKind::Gpu) q.after = "\n#include \"" + detail::epilogue_name(t, build) + "\"\n";
  std::string why;
  q.cxx = find_host_compiler(o.paths, &why);
  if (q.cxx.empty()) throw std::runtime_error(why);
  q.tmpdir = o.paths.tmpdir.empty() ? "/tmp" : o.paths.tmpdir;
  q.unrolled = gpu_unrolled_loops(t, source, o);
  return q;
}

}  // namespace cv::usercode
