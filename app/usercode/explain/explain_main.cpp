// cudaviz-explain: runs one kernel through the emulator with explain's
// recording, in a process of its own (a crash or an endless loop in the
// student's code ends only this process), and prints one JSON object on
// stdout. The bench (`bench kernel --explain`) and the kernel tab's "explain"
// button start it (explain_process.h) with a request the app built from its
// template registry (usercode/client/explain_launch.h): the build inputs and the
// launch the runner would get, whose arguments are bound here by the runner's
// own binder (args/arg_binder.h) over host memory.
//   cudaviz-explain --request FILE.json --blob FILE.bin      (explain_request.h)
//   cudaviz-explain --sync-costs 1 [--cxx C] [--tmpdir D]   (barrier / shuffle ns per thread)
#include <iostream>
#include <map>

#include "usercode/emu/build.h"
#include "usercode/emu/emu.h"
#include "usercode/emu/explain_json.h"
#include "usercode/emu/explain_request.h"
#include "usercode/emu/sync_cost.h"
#include "usercode/args/host_memory.h"
#include "usercode/wire/launch_request.h"
#include "usercode/args/arg_binder.h"

namespace {

using json = nlohmann::ordered_json;

int fail(json& out, const std::string& why, int code) {
  out["ok"] = false;
  out["error"] = why;
  std::cout << out.dump() << std::endl;
  return code;
}

int sync_costs(std::map<std::string, std::string>& a) {
  json out;
  const cv::emu::SyncCosts c = cv::emu::measure_sync_costs(a.count("--cxx") ? a["--cxx"] : "c++",
                                                           a.count("--tmpdir") ? a["--tmpdir"] : "/tmp");
  if (!c.error.empty()) return fail(out, c.error, 2);
  out["ok"] = true;
  out["barrier_ns_per_thread"] = c.barrier_ns_per_thread;
  out["shuffle_ns_per_thread"] = c.shuffle_ns_per_thread;
  out["fiber_barrier_ns_per_thread"] = c.fiber_barrier_ns_per_thread;
  out["fiber_shuffle_ns_per_thread"] = c.fiber_shuffle_ns_per_thread;
  std::cout << out.dump() << std::endl;
  return 0;
}

// The explain build of the student's file with the template's prelude; a
// compile error fills `out` (diagnostics, error_line) and returns false.
bool build(const cv::emu::ExplainRequest& q, cv::emu::BuildResult& b, json& out) {
  cv::emu::BuildRequest br;
  br.source = q.source;
  br.file_name = q.file_name;
  br.entries = {q.entry};
  br.headers = q.headers;
  br.includes = q.includes;
  br.after = q.after;
  br.explain = true;
  br.cxx = q.cxx;
  br.tmpdir = q.tmpdir;
  b = cv::emu::build_module(br);
  out["compile_ms"] = b.ms;
  if (b.ok) return true;
  json d = json::array();
  for (const auto& x : b.diagnostics) d.push_back({{"line", x.line}, {"severity", x.severity}, {"message", x.message}});
  out["diagnostics"] = d;
  out["error_line"] = b.diagnostics.empty() ? 0 : b.diagnostics[0].line;
  return false;
}

int explain(const cv::emu::ExplainRequest& q, json& out) {
  namespace uc = cv::usercode;
  out["template"] = q.template_name;
  out["entry"] = q.entry;
  out["n"] = q.n;
  const uc::LaunchRequest launch = uc::wire::decode_launch(q.launch, q.launch_blob);
  const uc::LaunchShape& s = launch.shape;
  out["grid"] = {s.grid[0], s.grid[1], s.grid[2]};
  out["block"] = {s.block[0], s.block[1], s.block[2]};
  // Nothing of the app is mapped here: a shared span arrives as kept state
  // with its first bytes (usercode/templates/template_launch.cpp), so no lookup answers.
  uc::runner::HostMemory memory;
  uc::runner::ArgBinder binder(memory);
  const auto no_shared = [](uint64_t) { return std::pair<void*, size_t>{nullptr, 0}; };
  if (std::string e = binder.prepare(launch, no_shared); !e.empty()) return fail(out, e, 2);
  const uc::runner::BoundArgs& args = binder.bind_rep();
  cv::emu::BuildResult b;
  if (!build(q, b, out)) return fail(out, b.first_error(), 2);
  cv::emu::Module m(b.shared_object, true, q.file_name);
  cv::emu::Options o;
  o.explain = true;
  o.explain_block = q.explain_block;
  o.explain_warp = q.warp;
  const cv::emu::Report r =
      cv::emu::run(m.kernel(q.entry), binder.request().shape, const_cast<void**>(args.params.data()), args.buffers, o);
  out["ok"] = r.ok;
  out["run_ms"] = r.ms;
  out["fibers"] = r.fibers;
  out["printf"] = r.printf_lines;
  if (!r.ok) {
    out["error"] = r.error;
    out["error_kind"] = r.error_kind;
    out["error_line"] = r.error_line;
  }
  if (r.explain) out["explain"] = cv::emu::to_json(*r.explain);
  std::cout << out.dump() << std::endl;
  return r.ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> a;
  for (int i = 1; i + 1 < argc; i += 2) a[argv[i]] = argv[i + 1];
  if (a.count("--sync-costs")) return sync_costs(a);  // the bench's micro-kernel: barrier and shuffle cost
  json out;
  if (!a.count("--request") || !a.count("--blob"))
    return fail(out, "cudaviz-explain: --request FILE.json and --blob FILE.bin are required", 2);
  try {
    return explain(cv::emu::read_explain_request(a["--request"], a["--blob"]), out);
  } catch (const std::exception& e) {
    return fail(out, e.what(), 2);
  }
}
