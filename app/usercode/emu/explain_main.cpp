// cudaviz-explain: runs one kernel file through the emulator with explain's
// recording at a small size, in a process of its own (a crash or an endless
// loop in the student's code ends only this process), and prints one JSON
// object on stdout. The bench (`bench kernel --explain`) and the kernel
// tab's "explain" button start it (explain_process.h).
//   cudaviz-explain --source FILE.cu [--template NAME] [--n N] [--block X[,Y]]
//                   [--explain-block B] [--warp W] [--cxx C] [--tmpdir D]
//   cudaviz-explain --sync-costs 1 [--cxx C] [--tmpdir D]   (barrier / shuffle ns per thread)
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "usercode/emu/build.h"
#include "usercode/emu/emu.h"
#include "usercode/emu/explain_json.h"
#include "usercode/emu/explain_workload.h"
#include "usercode/emu/sync_cost.h"

namespace {

std::string template_of(const std::string& src) {
  const std::string key = "template:";
  const size_t end = src.find('\n');
  const std::string first = src.substr(0, end);
  const size_t at = first.find(key);
  if (first.find("//") == std::string::npos || at == std::string::npos) return "";
  std::istringstream in(first.substr(at + key.size()));
  std::string name;
  in >> name;
  return name;
}

int fail(nlohmann::ordered_json& out, const std::string& why, int code) {
  out["ok"] = false;
  out["error"] = why;
  std::cout << out.dump() << std::endl;
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  nlohmann::ordered_json out;
  std::map<std::string, std::string> a;
  for (int i = 1; i + 1 < argc; i += 2) a[argv[i]] = argv[i + 1];
  if (a.count("--sync-costs")) {  // the bench's micro-kernel: barrier and shuffle cost
    const cv::emu::SyncCosts c = cv::emu::measure_sync_costs(a.count("--cxx") ? a["--cxx"] : "c++",
                                                             a.count("--tmpdir") ? a["--tmpdir"] : "/tmp");
    if (!c.error.empty()) return fail(out, c.error, 2);
    out["ok"] = true;
    out["barrier_ns_per_thread"] = c.barrier_ns_per_thread;
    out["shuffle_ns_per_thread"] = c.shuffle_ns_per_thread;
    std::cout << out.dump() << std::endl;
    return 0;
  }
  if (!a.count("--source")) return fail(out, "cudaviz-explain: --source FILE.cu is required", 2);
  std::ifstream in(a["--source"], std::ios::binary);
  if (!in) return fail(out, "cannot read '" + a["--source"] + "'", 2);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string src = text.str();
  std::string tmpl = a.count("--template") ? a["--template"] : template_of(src);
  if (tmpl == "seed_fountain") tmpl = "fountain_kernel";
  if (tmpl.rfind("count3", 0) == 0) tmpl = "count3";
  out["template"] = tmpl;
  try {
    unsigned bx = 0, by = 0;
    if (a.count("--block")) {
      char comma = 0;
      std::istringstream b(a["--block"]);
      b >> bx >> comma >> by;
    }
    const long long n = a.count("--n") ? std::stoll(a["--n"]) : 0;
    cv::emu::Workload w = cv::emu::make_workload(tmpl, n, bx, by);
    out["entry"] = w.entry;
    out["n"] = w.n;
    out["grid"] = {w.shape.grid[0], w.shape.grid[1], w.shape.grid[2]};
    out["block"] = {w.shape.block[0], w.shape.block[1], w.shape.block[2]};
    cv::emu::BuildRequest q;
    q.source = src;
    q.file_name = "kernel.cu";
    q.entries = {w.entry};
    q.headers = cv::emu::app_prelude_headers();
    q.includes = w.includes;
    q.after = w.after;
    q.explain = true;
    if (a.count("--cxx")) q.cxx = a["--cxx"];
    if (a.count("--tmpdir")) q.tmpdir = a["--tmpdir"];
    const cv::emu::BuildResult b = cv::emu::build_module(q);
    out["compile_ms"] = b.ms;
    if (!b.ok) {
      nlohmann::ordered_json d = nlohmann::ordered_json::array();
      for (const auto& x : b.diagnostics)
        d.push_back({{"line", x.line}, {"severity", x.severity}, {"message", x.message}});
      out["diagnostics"] = d;
      out["error_line"] = b.diagnostics.empty() ? 0 : b.diagnostics[0].line;
      return fail(out, b.first_error(), 2);
    }
    cv::emu::Module m(b.shared_object, true, q.file_name);
    const cv::emu::Kernel k = m.kernel(w.entry);
    cv::emu::Options o;
    o.explain = true;
    if (a.count("--explain-block")) o.explain_block = std::stoull(a["--explain-block"]);
    if (a.count("--warp")) o.explain_warp = static_cast<unsigned>(std::stoul(a["--warp"]));
    const cv::emu::Report r = cv::emu::run(k, w.shape, w.params.data(), w.buffers, o);
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
  } catch (const std::exception& e) {
    return fail(out, e.what(), 2);
  }
}
