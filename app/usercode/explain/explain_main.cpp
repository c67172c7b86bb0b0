// cudaviz-explain: runs one kernel through the emulator with explain's
// recording, in a process of its own (a crash or an endless loop in the
// student's code ends only this process; the code itself runs in a sandboxed
// cell, explain_cell.h), and answers with one JSON object.
// The bench (`bench kernel --explain`) and the kernel tab's "explain"
// button start it (client/explain_process.h) with a request the app built from its
// template registry (usercode/client/explain_launch.h): the build inputs and the
// launch the runner would get, whose arguments are bound here by the runner's
// own binder (args/arg_binder.h) over host memory.
//   cudaviz-explain --socket FD
// reads one frame of wire/protocol.h from the socket, {"op": "explain"}
// (emu/explain_request.h) or {"op": "sync_costs", "cxx", "tmpdir"} (barrier
// and shuffle ns per thread), and replies with one frame.
//   cudaviz-explain --confine BUILD_DIR -- COMPILER ARGS...  (sandbox/compiler_jail.h)
//   cudaviz-explain --confine-probe
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <cstdlib>
#include <cstring>

#include "usercode/emu/build.h"
#include "usercode/emu/emu.h"
#include "usercode/explain/explain_cell.h"
#include "usercode/emu/explain_json.h"
#include "usercode/emu/explain_request.h"
#include "usercode/emu/sync_cost.h"
#include "usercode/args/host_memory.h"
#include "usercode/wire/launch_request.h"
#include "usercode/wire/protocol.h"
#include "usercode/args/arg_binder.h"
#include "usercode/sandbox/compiler_jail.h"
#include "usercode/sandbox/path_scrub.h"

namespace {

using json = nlohmann::ordered_json;

int fail(json& out, const std::string& why, int code) {
  out["ok"] = false;
  out["error"] = why;
  return code;
}

int sync_costs(const nlohmann::json& a, json& out) {
  const cv::emu::SyncCosts c = cv::emu::measure_sync_costs(a.value("cxx", std::string("c++")),
                                                           a.value("tmpdir", std::string("/tmp")));
  if (!c.error.empty()) return fail(out, c.error, 2);
  out["ok"] = true;
  out["barrier_ns_per_thread"] = c.barrier_ns_per_thread;
  out["shuffle_ns_per_thread"] = c.shuffle_ns_per_thread;
  out["fiber_barrier_ns_per_thread"] = c.fiber_barrier_ns_per_thread;
  out["fiber_shuffle_ns_per_thread"] = c.fiber_shuffle_ns_per_thread;
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
  std::error_code ec;
  br.confine_helper = std::filesystem::read_symlink("/proc/self/exe", ec).string();  // this program's --confine
  b = cv::emu::build_module(br);
  out["compile_ms"] = b.ms;
  if (b.ok) return true;
  json d = json::array();
  for (const auto& x : b.diagnostics)  // messages reach the student: no path of this machine
    d.push_back({{"line", x.line}, {"severity", x.severity}, {"message", cv::sandbox::scrub_paths(x.message)}});
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
  if (!build(q, b, out)) return fail(out, cv::sandbox::scrub_paths(b.first_error()), 2);
  // The student's code runs in a sandboxed child (explain_cell.h), never here.
  cv::emu::CellRun job;
  job.so_path = b.shared_object;
  job.file_name = q.file_name;
  job.entry = q.entry;
  job.shape = binder.request().shape;
  job.params = const_cast<void**>(args.params.data());
  job.buffers = args.buffers;
  job.options.explain = true;
  job.options.explain_block = q.explain_block;
  job.options.explain_warp = q.warp;
  job.options.unrolled = q.unrolled;
  job.options.source = q.source;
  const int code = cv::emu::explain_in_cell(job, out);
  if (code < 0) {  // the student's code crashed: end by its signal (the app names it)
    std::signal(-code, SIG_DFL);
    std::raise(-code);
  }
  return code;
}

// The one request on `sock`, answered; the process's exit code.
int serve(int sock) {
  namespace wire = cv::usercode::wire;
  wire::Frame req;
  std::string error;
  if (wire::receive(sock, req, -1, error) != wire::Status::Ok) {
    std::fprintf(stderr, "cudaviz-explain: no request (%s)\n", error.empty() ? "the socket closed" : error.c_str());
    return 1;
  }
  for (int fd : req.fds) close(fd);
  json out;
  int code = 0;
  const std::string op = req.json.value("op", "");
  try {
    if (op == "sync_costs") code = sync_costs(req.json, out);  // the bench's micro-kernel: barrier and shuffle cost
    else if (op == "explain") code = explain(cv::emu::decode_explain_request(req.json, req.blob), out);
    else code = fail(out, "cudaviz-explain: unknown request '" + op + "'", 2);
  } catch (const std::exception& e) {
    code = fail(out, e.what(), 2);
  }
  std::vector<char> blob;
  const nlohmann::json header = cv::emu::encode_explain_reply(out.dump(), blob);
  if (std::string e = wire::send(sock, header, blob); !e.empty()) {
    std::fprintf(stderr, "cudaviz-explain: %s\n", e.c_str());
    return 1;
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  // The host compiler's confined step (sandbox/compiler_jail.h): becomes the compiler.
  if (argc >= 5 && !std::strcmp(argv[1], "--confine") && !std::strcmp(argv[3], "--")) {
    const std::string why = cv::sandbox::confine_and_exec(argv[2], std::vector<std::string>(argv + 4, argv + argc), nullptr);
    std::fprintf(stderr, "cudaviz-explain --confine: %s\n", why.c_str());
    return 127;
  }
  // Ctrl+C in the app's terminal is the app's to act on (process/stop_signal.h);
  // it ends this helper as it closes.
  signal(SIGINT, SIG_IGN);
  if (argc == 2 && !std::strcmp(argv[1], "--confine-probe")) {
    std::cout << cv::sandbox::probe_confinement() << std::endl;
    return 0;
  }
  int sock = -1;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--socket")) sock = std::atoi(argv[i + 1]);
  if (sock < 0) {
    std::fprintf(stderr, "usage: cudaviz-explain --socket FD (started by cudaviz)\n");
    return 2;
  }
  return serve(sock);
}
