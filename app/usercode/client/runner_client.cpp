#include "usercode/client/runner_client.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "common/device_select.h"
#include "process/find_program.h"
#include "usercode/emu/pc_lines.h"
#include "usercode/client/fault_words.h"
#include "usercode/compile/guard_compile.h"
#include "usercode/wire/protocol.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/template_spec.h"

#ifndef CUDAVIZ_RUNNER_PATH
#define CUDAVIZ_RUNNER_PATH ""
#endif

namespace cv::usercode {
namespace {

// A signal in the CPU runner (runner_signals.h): its line from the module's
// line table (the faulting instruction's offset; +1: resolve_frames takes
// return addresses), and where it struck, in words.
void place_signal(KernelFault& f, const nlohmann::json& reply, const CompileResult& c) {
  if (reply.contains("fault_code_offset")) {
    const uint64_t at = reply.value("fault_code_offset", 0ull) + 1;
    const auto frames = emu::resolve_frames(c.shared_object, 0, {at}, c.file_name);
    if (auto it = frames.find(at); it != frames.end() && !it->second.empty()) f.line = it->second[0];
  }
  if (f.out_of_range) {  // a checked s[i]: its line is the code address's
    if (f.out_of_range->line == 0) f.out_of_range->line = f.line;
    return;
  }
  f.explanation += signal_where(reply, f.line);
}

constexpr double kSetupAllowanceS = 0.25;  // requests do a little work besides the kernel
constexpr double kStartLimitS = 10;        // spawning + CUDA context creation

}  // namespace

std::string find_runner(const std::string& override_path, std::string* why) {
  std::vector<std::string> tried;
  const std::string found = find_helper("cudaviz-runner", override_path, CUDAVIZ_RUNNER_PATH, &tried);
  if (found.empty() && why) {
    std::string list;
    for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
    *why = "cudaviz-runner (the process student kernels run in) was not found (looked at " + list +
           "; $CUDAVIZ_RUNNER names it)";
  }
  return found;
}

// ---- RunnerProcess -----------------------------------------------------------

RunnerProcess::RunnerProcess(const std::string& path, Backend backend, int device, bool quiet)
    : HelperProcess(path,
                    {"--backend", backend == Backend::Cuda ? "cuda" : "cpu", "--device",
                     std::to_string(device >= 0 ? device : selected_device())},
                    quiet ? HelperProcess::Stdout::Null : HelperProcess::Stdout::Inherit) {}

// ---- RunnerClient --------------------------------------------------------------

RunnerClient::RunnerClient(std::string runner_path, Backend backend, int device, bool quiet)
    : path_(std::move(runner_path)), backend_(backend), device_(device), quiet_(quiet) {}

RunnerClient::~RunnerClient() = default;

bool RunnerClient::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return proc_ != nullptr;
}

long RunnerClient::pid() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return proc_ ? static_cast<long>(proc_->pid()) : 0;
}

nlohmann::json RunnerClient::hello() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hello_;
}

void RunnerClient::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  ensure_started();
}

bool RunnerClient::has_shared(uint64_t id) const {
  // Not the request lock: the scene asks every frame, also while a lab run holds the runner.
  std::lock_guard<std::mutex> lock(ids_mutex_);
  return std::find(shared_ids_.begin(), shared_ids_.end(), id) != shared_ids_.end();
}

void RunnerClient::stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  stop_locked();
}

void RunnerClient::stop_locked() {
  proc_.reset();
  {
    std::lock_guard<std::mutex> ids(ids_mutex_);
    shared_ids_.clear();
  }
  loaded_here_.clear();
  hello_ = nlohmann::json();
}

void RunnerClient::ensure_started() {
  if (proc_) return;
  proc_ = std::make_unique<RunnerProcess>(path_, backend_, device_, quiet_);
  {
    std::lock_guard<std::mutex> ids(ids_mutex_);
    shared_ids_.clear();
  }
  loaded_here_.clear();
  nlohmann::json reply;
  std::vector<char> blob;
  if (auto f = call({{"op", "hello"}}, {}, {}, kStartLimitS, reply, blob)) {
    stop_locked();
    throw std::runtime_error("the runner did not start: " + f->error_name + ": " + f->explanation);
  }
  hello_ = reply;
  if (backend_ != Backend::Cpu) return;
  // The progress page (usercode/wire/progress_page.h): without it a slow launch is judged by the limit alone.
  try {
    if (!progress_) progress_ = std::make_unique<ProgressPage>();
    if (call({{"op", "share"}, {"kind", "progress"}, {"id", 0}, {"bytes", 4096}}, {}, {progress_->fd()},
             kStartLimitS, reply, blob))
      progress_.reset();
  } catch (const std::exception&) {
    progress_.reset();
  }
}

namespace {

// A reply that is not ok, as a fault: its error, kernel, line, shape, and the
// out-of-range index checked mode caught.
KernelFault fault_in(const nlohmann::json& reply) {
  KernelFault f;
  f.error_name = reply.value("error_name", "runner");
  f.explanation = reply.value("error", "");
  f.kernel = reply.value("kernel", "");
  f.line = reply.value("error_line", 0);
  if (reply.contains("grid"))
    for (int i = 0; i < 3; ++i) f.grid[i] = reply["grid"][i].get<unsigned>();
  if (reply.contains("block"))
    f.block = {reply["block"][0].get<int>(), reply["block"][1].get<int>(), reply["block"][2].get<int>()};
  if (reply.contains("out_of_range")) {
    const nlohmann::json& o = reply["out_of_range"];
    OutOfRange r;
    r.index = o.value("index", 0ll);
    r.size = o.value("size", 0ll);
    r.line = o.value("line", 0);
    for (int i = 0; i < 3; ++i) r.thread[i] = o["thread"][i], r.block[i] = o["block"][i];
    f.out_of_range = r;
  }
  return f;
}

}  // namespace

std::optional<KernelFault> RunnerClient::wait_moving(double limit_s, double ceiling_s) {
  ProgressCounters& c = progress_->counters();
  unsigned long long last = c.done.load();
  const double ceiling = std::max(ceiling_s, limit_s);
  double waited = 0;
  for (;;) {
    const double slice = std::max(0.001, std::min(limit_s, ceiling - waited));
    pollfd p{proc_->socket(), POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(slice * 1000));
    if (r != 0) return std::nullopt;  // the reply (or the runner's end) is there: receive it
    waited += slice;
    const unsigned long long done = c.done.load(), total = c.total.load();
    KernelFault f;
    if (done == last) {
      f.error_name = "time-out";
      f.explanation = "(" + std::to_string(done) + " of " + std::to_string(total) +
                      " blocks had finished; none did in the last " + seconds_text(slice) + ")";
    } else if (waited >= ceiling) {
      f.error_name = "slow";
      f.explanation = slow_words(done, total, waited);
    } else {
      last = done;
      continue;  // still finishing blocks: it may go on
    }
    proc_->kill_and_reap();
    stop_locked();
    return f;
  }
}

std::optional<KernelFault> RunnerClient::call(const nlohmann::json& request,
                                              const std::vector<char>& blob,
                                              const std::vector<int>& fds, double limit_s,
                                              nlohmann::json& reply,
                                              std::vector<char>& reply_blob, wire::Expect expect,
                                              double ceiling_s) {
  auto died = [&](const std::string& how, const std::string& detail) {
    KernelFault f;
    f.error_name = how;
    f.explanation = detail;
    stop_locked();
    return f;
  };
  if (!proc_) return died("runner", "the runner is not running");
  // The runner writes the page only inside a launch and it is idle now: zero it here, so a count
  // left by the previous launch cannot look like progress of this one before the runner resets it.
  if (ceiling_s >= 0 && progress_) {
    progress_->counters().done.reset();
    progress_->counters().total.store(0);
  }
  if (std::string e = wire::send(proc_->socket(), request, blob, fds); !e.empty()) {
    const std::string how = proc_->kill_and_reap();
    return died(how.empty() ? "runner" : how, explain_error(how, limit_s) + " (" + e + ")");
  }
  if (ceiling_s >= 0 && progress_)
    if (std::optional<KernelFault> f = wait_moving(limit_s, ceiling_s)) return f;
  wire::Frame frame;
  std::string error;
  const wire::Status s = wire::receive(proc_->socket(), frame, limit_s, error, expect);
  if (s == wire::Status::Timeout) {
    proc_->kill_and_reap();
    return died("time-out", "");
  }
  if (s != wire::Status::Ok) {
    // EOF: the runner ended (a crash in the student's code); how, from waitpid.
    std::string how;
    for (int i = 0; i < 100 && how.empty(); ++i) {
      how = proc_->exited();
      if (how.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (how.empty()) how = proc_->kill_and_reap();
    return died(how, explain_error(how, limit_s) + (error.empty() ? "" : " (" + error + ")"));
  }
  for (int fd : frame.fds) close(fd);
  reply = std::move(frame.json);
  reply_blob = std::move(frame.blob);
  if (reply.value("ok", false)) return std::nullopt;
  KernelFault f = fault_in(reply);
  if (reply.value("fatal", false)) {
    proc_->kill_and_reap();  // it ends itself after a fatal reply; make sure, and reap
    stop_locked();
  }
  return f;
}

LoadOutcome RunnerClient::load(const CompileResult& c, double limit_s, const std::string& module) {
  std::lock_guard<std::mutex> lock(mutex_);
  return load_locked(c, limit_s, module);
}

namespace {

// The load frame for `c` under the runner's name `module`: its header, and in
// `blob` the image (a GPU build's; a CPU build's shared object is named instead).
nlohmann::json load_frame(const CompileResult& c, const std::string& module, std::vector<char>& blob) {
  const bool items = c.build == BuildKind::Cpu && c.spec && c.spec->cpu_form == CpuForm::Items;
  nlohmann::json req = {{"op", "load"}, {"module", module}, {"checked", c.checked},
                        {"form", items ? "items" : "kernel"},
                        {"entry", c.entry_points.empty() ? "" : c.entry_points[0]}};
  if (c.build == BuildKind::Cpu) {
    req["shared_object"] = c.shared_object;
    req["file_name"] = c.file_name;  // the student's file in the module's line table
    return req;
  }
  blob = guard::load_image(c);
  if (c.guarded.ok && c.cubin.empty() && !c.ptx.empty()) {
    // Guarded PTX for the runner's JIT: the unguarded PTX after it, which the
    // register cap measures against (runner/register_cap.h).
    req["raw_ptx_bytes"] = c.ptx.size();
    blob.insert(blob.end(), c.ptx.begin(), c.ptx.end());
  }
  if (c.guarded.ok) {  // the runner fills the guard's table and reads its record (docs/guard.md)
    req["guard"] = true;
    req["guard_globals"] = c.guarded.module_globals;
    nlohmann::json sites = nlohmann::json::array();
    for (const guard::GuardSite& s : c.guarded.sites) sites.push_back({s.line, s.access, s.width, s.space});
    req["guard_sites"] = std::move(sites);
  }
  return req;
}

}  // namespace

LoadOutcome RunnerClient::load_locked(const CompileResult& c, double limit_s, const std::string& module) {
  LoadOutcome out;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    ensure_started();
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  std::vector<char> blob;
  const nlohmann::json req = load_frame(c, module, blob);
  nlohmann::json reply;
  std::vector<char> reply_blob;
  if (auto f = call(req, blob, {}, limit_s + kStartLimitS, reply, reply_blob)) {
    out.error = f->error_name + ": " + f->explanation;
    return out;
  }
  out.ok = true;
  out.sandbox = reply.value("sandbox", "");
  out.seccomp = reply.value("sandbox_seccomp", false);
  out.resources = c.resources;
  if (reply.contains("resources") && reply["resources"].contains("registers")) {
    const nlohmann::json& r = reply["resources"];
    out.resources.known = true;
    out.resources.registers = r.value("registers", 0);
    out.resources.shared_bytes = r.value("shared_bytes", 0);
    out.resources.local_bytes = r.value("local_bytes", 0);
    out.resources.max_threads = r.value("max_threads", 0);
  }
  if (const auto cap = reply.find("register_cap"); cap != reply.end() && cap->is_object()) {
    out.raw_registers = cap->value("raw", 0);
    out.uncapped_registers = cap->value("guarded", 0);
    out.register_cap = cap->value("cap", 0);
    out.cap_ms = cap->value("ms", 0.0);
  }
  out.jit_ms = reply.value("jit_ms", 0.0);
  if (const auto cpu = reply.find("jit_cpu_ms"); cpu != reply.end() && cpu->is_object()) {
    out.jit_thread_cpu_ms = cpu->value("thread", 0.0);
    out.jit_process_cpu_ms = cpu->value("process", 0.0);
  }
  modules_.insert_or_assign(module, c);
  loaded_here_.insert(module);
  if (module.find('#') == std::string::npos) {  // a new kernel: its verdict build is made again when needed
    modules_.erase(module + "#verdict");
    loaded_here_.erase(module + "#verdict");
  }
  out.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

LaunchOutcome RunnerClient::launch(const LaunchRequest& r, double limit_s, double ceiling_s) {
  std::lock_guard<std::mutex> lock(mutex_);
  return launch_locked(r, limit_s, ceiling_s);
}

LaunchOutcome RunnerClient::try_launch(const LaunchRequest& r, double limit_s) {
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) {
    LaunchOutcome out;
    out.busy = true;
    return out;
  }
  return launch_locked(r, limit_s);
}

namespace {

// The verdict build's request, and whether one is needed, for a kernel built by `req`.
std::optional<CompileRequest> verdict_request(const CompileRequest& in) {
  const CompileRequest req = normalized(in);  // as the loaded kernel's request reads
  if (req.build != BuildKind::Cpu || req.verdict) return std::nullopt;
  const TemplateSpec* t = find_template(template_name_of(req));
  if (!t || !emulated_on(*t, Backend::Cpu)) return std::nullopt;
  CompileRequest v = req;
  v.verdict = true;
  return v;
}

// Both requests build the same kernel (then one's verdict build serves the other).
bool same_kernel(const CompileRequest& a, const CompileRequest& b) {
  return a.source == b.source && a.template_name == b.template_name && a.file_name == b.file_name &&
         a.checked == b.checked && a.guard == b.guard && a.build == b.build;
}

}  // namespace

void RunnerClient::build_verdict_ahead(const std::string& module, const CompileRequest& req) {
  if (backend_ != Backend::Cpu) return;
  std::optional<CompileRequest> v = verdict_request(req);
  if (!v) return;
  std::lock_guard<std::mutex> lock(ahead_mutex_);
  auto it = ahead_.find(module);
  if (it != ahead_.end() && same_kernel(it->second.request, *v)) return;
  std::shared_future<CompileResult> build;
  try {
    build = std::async(std::launch::async, [q = *v] { return compile(q); }).share();
  } catch (const std::system_error&) {
    return;  // no thread to spare: the first verdict launch builds it then
  }
  if (it != ahead_.end()) retire(std::move(it->second.build));
  ahead_.insert_or_assign(module, VerdictAhead{std::move(*v), std::move(build)});
}

void RunnerClient::retire(std::shared_future<CompileResult> build) {
  retired_.erase(std::remove_if(retired_.begin(), retired_.end(),
                                [](const std::shared_future<CompileResult>& f) {
                                  return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
                                }),
                 retired_.end());
  retired_.push_back(std::move(build));
}

// A verdict launch of a whole kernel on the CPU runs the verdict build
// (docs/emulator.md), made from the kernel's own request the first time (or
// taken from build_verdict_ahead) and loaded beside it as "<module>#verdict".
std::optional<KernelFault> RunnerClient::verdict_module(LaunchRequest& r, double limit_s) {
  auto known = modules_.find(r.module);
  if (backend_ != Backend::Cpu || known == modules_.end() || !known->second.request || !known->second.spec ||
      known->second.spec->cpu_form != CpuForm::Emulated)
    return std::nullopt;  // elsewhere the flag means nothing
  const std::string name = r.module + "#verdict";
  if (!modules_.count(name)) {
    CompileRequest v = *known->second.request;
    v.verdict = true;
    std::optional<std::shared_future<CompileResult>> ahead;
    {
      std::lock_guard<std::mutex> lock(ahead_mutex_);
      // Another kernel's build (a newer edit started while this one is judged) stays for it.
      if (auto it = ahead_.find(r.module); it != ahead_.end() && same_kernel(it->second.request, v)) {
        ahead = it->second.build;
        ahead_.erase(it);
      }
    }
    const CompileResult c = ahead ? ahead->get() : compile(v);
    const LoadOutcome lo = c.ok ? load_locked(c, limit_s, name) : LoadOutcome{};
    if (!lo.ok) {
      KernelFault f;
      f.error_name = "runner";
      f.explanation = "the verdict build of your kernel failed: " + (c.ok ? lo.error : c.first_error() + c.error);
      return f;
    }
  }
  r.module = name;
  return std::nullopt;
}

LaunchOutcome RunnerClient::launch_locked(const LaunchRequest& request, double limit_s, double ceiling_s) {
  LaunchOutcome out;
  // Only a verdict launch is renamed (to its verdict build): a scene's frame is not copied.
  std::optional<LaunchRequest> renamed;
  if (request.schedule == Schedule::Verdict) {
    renamed = request;
    if (std::optional<KernelFault> f = verdict_module(*renamed, limit_s)) {
      out.fault = std::move(f);
      return out;
    }
  }
  const LaunchRequest& r = renamed ? *renamed : request;
  auto failed = [&](KernelFault f) {
    out.fault = std::move(f);
    return out;
  };
  auto known = modules_.find(r.module);
  if (known == modules_.end()) {
    KernelFault f;
    f.error_name = "runner";
    f.explanation = "no kernel is loaded as '" + r.module + "' (submit it first)";
    return failed(f);
  }
  // A restarted runner gets the module again (its first launch pays the load).
  if (!proc_ || !loaded_here_.count(r.module)) {
    const CompileResult c = known->second;
    const LoadOutcome lo = load_locked(c, limit_s, r.module);
    if (!lo.ok) {
      KernelFault f;
      f.error_name = "runner";
      f.explanation = "your kernel could not be loaded again: " + lo.error;
      return failed(f);
    }
  }
  // Buffers this runner has not mapped yet travel first, one share frame each.
  for (const LaunchArg& a : r.args) {
    if (!a.is_span || a.span.from != SpanArg::From::Shared || !a.span.shared) continue;
    const SharedBuffer& s = *a.span.shared;
    if (has_shared(s.id)) continue;
    if (s.fd < 0) {  // the caller thought it was shared (a restarted runner): ask again next step
      KernelFault f;
      f.error_name = "runner";
      f.explanation = "the runner was restarted: shared buffers are sent again next step";
      return failed(f);
    }
    nlohmann::json reply;
    std::vector<char> blob;
    const nlohmann::json req = {{"op", "share"}, {"id", s.id}, {"bytes", s.bytes},
                                {"kind", s.kind == SharedBuffer::Kind::CudaVmm ? "cuda_vmm" : "memfd"}};
    if (auto f = call(req, {}, {s.fd}, kStartLimitS, reply, blob)) return failed(std::move(*f));
    std::lock_guard<std::mutex> ids(ids_mutex_);
    shared_ids_.push_back(s.id);
  }
  std::vector<char> blob, reply_blob;
  const nlohmann::json req = wire::encode_launch(r, blob);
  // Generating or uploading data is the runner's work before the kernel.
  double elements = 0;
  for (const LaunchArg& a : r.args)
    if (a.is_span && a.span.from != SpanArg::From::Shared) elements += static_cast<double>(a.span.count);
  const double deadline = limit_s * std::max(1, r.reps) + kSetupAllowanceS + 5e-8 * elements;
  // On a GPU the reply comes when the kernel ends: sleep through most of its
  // last time, then watch for the reply until a millisecond past it (a
  // frame's round trip is a fraction of one). The sleep ends half a
  // millisecond early: a virtual machine's wake-up plus the timer's slack can
  // take that long. The CPU backend's cores run the emulator: nothing
  // watches there.
  wire::Expect expect;
  if (auto last = last_ms_.find(r.module); backend_ == Backend::Cuda && last != last_ms_.end()) {
    constexpr double kEarlyS = 5e-4, kPastS = 1e-3;
    const double kernels_s = last->second * 1e-3 * std::max(1, r.reps);
    expect.sleep_s = std::max(0.0, kernels_s - kEarlyS);
    expect.spin_s = kernels_s - expect.sleep_s + kPastS;
  }
  const double watch = backend_ == Backend::Cpu ? ceiling_s : -1;  // a GPU's launch is not watched
  if (auto f = call(req, blob, {}, deadline, out.reply, reply_blob, expect, watch)) {
    // A signal while the emulator ran threads batched (the fast path, plain
    // loops; the module is built at -O3) may name a neighbouring thread and
    // the next line: the optimiser can move an access before the store of its
    // thread's index, or into the next line's code. The same launch on the
    // fibers, where each thread runs alone, names the true ones.
    std::string unnamed;
    if (out.reply.is_object() && out.reply.value("fault_batched", false) && r.schedule == Schedule::Fast) {
      LaunchRequest again = r;
      again.schedule = Schedule::Fibers;
      LaunchOutcome named = launch_locked(again, limit_s, ceiling_s);
      if (named.fault && named.fault->error_name == f->error_name) return named;
      // It did not fault again (a launch that reads what the last one wrote, or one
      // too slow on the fibers): the batched run's line, and no thread.
      out.reply.erase("fault_thread");
      out.reply.erase("fault_block");
      unnamed = " It faulted on the fast path; run again thread by thread it " +
                std::string(named.fault ? "ended with " + named.fault->error_name : "did not fault") +
                ", so its thread is not known and its line is the nearest the fast path's code gives.";
    }
    if (f->error_name == "time-out")  // with the blocks it finished, when the emulator said
      f->explanation = explain_error(f->error_name, limit_s) + (f->explanation.empty() ? "" : " " + f->explanation);
    else if (f->explanation.empty() || f->error_name == "out of range" ||
             f->error_name.rfind("cuda", 0) == 0 || f->error_name.rfind("CUDA", 0) == 0)
      f->explanation = explain_error(f->error_name, limit_s) +
                       (f->explanation.empty() ? "" : " (" + f->explanation + ")");
    if (f->block.threads() == 1)
      f->block = {static_cast<int>(r.shape.block[0]), static_cast<int>(r.shape.block[1]),
                  static_cast<int>(r.shape.block[2])};
    if (f->grid[0] == 1 && f->grid[1] == 1 && f->grid[2] == 1)
      for (int i = 0; i < 3; ++i) f->grid[i] = r.shape.grid[i];
    const CompileResult& c = known->second;
    if (c.build == BuildKind::Cpu && (out.reply.contains("fault_address") || out.reply.contains("fault_code_offset")))
      place_signal(*f, out.reply, c);
    if (c.spec && !c.spec->student_function.empty()) f->kernel = c.spec->student_function;
    if (f->kernel.empty()) f->kernel = c.entry_points.empty() ? "" : c.entry_points[0];
    f->explanation += unnamed;
    return failed(std::move(*f));
  }
  out.ok = true;
  for (const auto& t : out.reply.value("kernel_ms", nlohmann::json::array())) out.kernel_ms.push_back(t.get<double>());
  if (!out.kernel_ms.empty()) last_ms_[r.module] = out.kernel_ms.back();
  const nlohmann::json spans = out.reply.value("read_back", nlohmann::json::array());
  for (const auto& rb : spans) {
    const size_t at = rb["at"][0].get<size_t>(), n = rb["at"][1].get<size_t>();
    if (at > reply_blob.size() || n > reply_blob.size() - at) continue;
    std::vector<char>& to = out.read_back[rb["name"].get<std::string>()];
    if (spans.size() == 1 && at == 0 && n == reply_blob.size())
      to = std::move(reply_blob);  // one span, the whole blob (reverse's 64 MB): no copy
    else
      to.assign(reply_blob.begin() + static_cast<long>(at), reply_blob.begin() + static_cast<long>(at + n));
  }
  return out;
}

OccupancyReply RunnerClient::occupancy(const BlockShape& block, double limit_s, const std::string& module) {
  OccupancyReply out;
  // The UI thread asks: never wait behind a lab run.
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) {
    out.busy = true;
    out.error = "the runner is busy (a lab run); asked again when it is free";
    return out;
  }
  if (!proc_ || !loaded_here_.count(module)) {
    out.error = "no kernel is loaded";
    return out;
  }
  nlohmann::json reply;
  std::vector<char> blob;
  const nlohmann::json req = {{"op", "occupancy"}, {"module", module}, {"block", {block.x, block.y, block.z}}};
  if (auto f = call(req, {}, {}, limit_s, reply, blob)) {
    out.error = f->error_name + ": " + f->explanation;
    return out;
  }
  out.ok = true;
  out.blocks_per_sm = reply.value("blocks_per_sm", 0);
  return out;
}

}  // namespace cv::usercode
