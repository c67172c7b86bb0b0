// The runner's CPU backend as the app sees it: each loaded module lives in a
// cell of its own (sandbox/cell.h), a forked child that loads it, locks
// itself (seccomp, namespaces, Landlock, rlimits), runs the module's
// load-time code and then serves that module's launches with the CPU
// executor (runner_cpu.cpp). This process keeps the app's socket and never
// runs student code: it relays requests, checks every reply it forwards
// (reply_check.h), and turns a cell's death into the forbidden operation or
// the signal, in words.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <thread>

#include "common/parallel_for.h"
#include "usercode/runner/reply_check.h"
#include "usercode/runner/runner_executor.h"
#include "usercode/sandbox/cell.h"
#include "usercode/sandbox/load_time_code.h"

namespace cv::usercode::runner {
namespace {

// The child: confine, load (no student code runs), lock, run the deferred
// load-time code, answer the load, then serve this module's requests.
int cell_main(int sock, sandbox::Violation* record, const nlohmann::json& load, const sandbox::CellLimits& limits) {
  const std::string path = load.value("shared_object", "");
  sandbox::preload_needed(path);
  sandbox::Protections p = sandbox::confine(sock, path, limits);
  sock = 3;
  cpu_threads();  // the thread pool starts here: it reads /sys, which the policy forbids
  std::unique_ptr<Executor> ex = make_cpu_executor();
  wire::Frame f;
  f.json = load;
  nlohmann::json reply = ex->load(f);
  sandbox::lock(p, record, limits);
  if (reply.value("ok", false)) sandbox::run_deferred_init_all();  // under the policy where it is in force
  reply["sandbox"] = p.describe();
  reply["sandbox_seccomp"] = p.seccomp;
  if (wire::send(sock, reply).size() || !reply.value("ok", false)) return 0;
  for (;;) {
    wire::Frame req;
    std::string error;
    if (wire::receive(sock, req, -1, error) != wire::Status::Ok) return 0;
    const std::string op = req.json.value("op", "");
    std::vector<char> blob;
    nlohmann::json r;
    try {
      if (op == "share") r = ex->share(req);
      else if (op == "launch") r = ex->launch(req, blob);
      else r = error_reply("protocol", "a cell serves share and launch only, not '" + op + "'", false);
    } catch (const std::exception& e) {
      r = error_reply("runner", e.what(), true);
    }
    for (int fd : req.fds) close(fd);
    if (!wire::send(sock, r, blob).empty()) return 0;
  }
}

// A buffer the app shared: kept, so that a cell started later maps it too.
struct SharedFd {
  int fd = -1;
  nlohmann::json request;
  ~SharedFd() {
    if (fd >= 0) close(fd);
  }
};

class CellExecutor : public Executor {
 public:
  nlohmann::json hello() override {
    // Not cpu_threads(): its pool's threads must start in the cells, never here
    // (a fork copies only the calling thread).
    return {{"ok", true}, {"backend", "cpu"}, {"threads", std::max(1u, std::thread::hardware_concurrency())}};
  }

  nlohmann::json load(const wire::Frame& req) override {
    const std::string key = req.json.value("module", "editor");
    cells_.erase(key);
    if (cells_.size() >= kMaxModules) cells_.erase(cells_.begin());
    const nlohmann::json load_json = req.json;
    const sandbox::CellLimits limits = limits_;
    std::unique_ptr<sandbox::Cell> cell;
    try {
      cell = std::make_unique<sandbox::Cell>(
          [&](int sock, sandbox::Violation* record) { return cell_main(sock, record, load_json, limits); });
    } catch (const std::exception& e) {
      return error_reply("runner", std::string("the kernel's process could not start: ") + e.what(), false);
    }
    nlohmann::json reply;
    std::vector<char> blob;
    if (!exchange(*cell, nullptr, reply, blob)) return reply;
    if (!reply.value("ok", false)) return reply;
    // Buffers shared before this module came: the new cell maps them too.
    for (const auto& [id, s] : shared_) {
      wire::Frame share;
      share.json = s->request;
      share.fds = {s->fd};
      nlohmann::json r;
      if (!exchange(*cell, &share, r, blob)) return r;
    }
    cells_[key] = std::move(cell);
    return reply;
  }

  nlohmann::json share(const wire::Frame& req) override {
    if (req.fds.size() != 1) return error_reply("protocol", "share needs one descriptor", false);
    auto s = std::make_unique<SharedFd>();
    s->fd = dup(req.fds[0]);
    s->request = req.json;
    const uint64_t id = req.json.at("id").get<uint64_t>();
    for (auto it = cells_.begin(); it != cells_.end();) {
      nlohmann::json r;
      std::vector<char> blob;
      if (!exchange(*it->second, &req, r, blob)) return r;
      ++it;
    }
    shared_[id] = std::move(s);
    return {{"ok", true}};
  }

  nlohmann::json launch(const wire::Frame& req, std::vector<char>& blob) override {
    const std::string key = req.json.value("module", "");
    auto it = cells_.find(key);
    if (it == cells_.end()) return error_reply("protocol", "no kernel loaded as '" + key + "'", false);
    nlohmann::json reply;
    const auto t0 = std::chrono::steady_clock::now();
    if (!exchange(*it->second, &req, reply, blob)) return reply;
    // This process's own clock: a cell can claim any kernel_ms, not this.
    reply["cell_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return reply;
  }

  nlohmann::json occupancy(const wire::Frame&) override {
    return error_reply("no GPU", "occupancy is a CUDA GPU's answer", false);
  }

 private:
  // Sends `req` (none: only receive) and checks the answer. False when the
  // cell failed: `reply` is then the fatal error in words and the cell is gone.
  bool exchange(sandbox::Cell& cell, const wire::Frame* req, nlohmann::json& reply, std::vector<char>& blob) {
    std::string why;
    if (req) why = wire::send(cell.socket(), req->json, req->blob, req->fds);
    wire::Status s = wire::Status::Closed;  // a failed send: the cell is gone
    wire::Frame f;
    if (why.empty()) {
      s = wire::receive(cell.socket(), f, -1, why);
      for (int fd : f.fds) close(fd);  // a cell has nothing to hand on
    }
    std::string bad = s == wire::Status::Ok ? check_reply(f.json, f.blob.size()) : why;
    if (s == wire::Status::Ok && bad.empty()) {
      reply = std::move(f.json);
      blob = std::move(f.blob);
      return true;
    }
    // Bytes that are not a reply while the cell lives: its code wrote to the
    // socket (a crash mid-frame closes it instead, and the signal says so).
    if (s != wire::Status::Closed && !cell.has_ended(0.05)) {
      cell.kill();
      reply = error_reply("channel",
                          "your kernel wrote to the socket its process answers the runner on (" + bad +
                              "); submissions cannot use the runner's sockets",
                          true);
      return false;
    }
    std::string name;
    const std::string words = cell.ended(name, 1.0, limits_.max_mapping_bytes);
    reply = error_reply(name, words, true);
    return false;
  }

  sandbox::CellLimits limits_;
  std::map<std::string, std::unique_ptr<sandbox::Cell>> cells_;
  std::map<uint64_t, std::unique_ptr<SharedFd>> shared_;
};

}  // namespace

std::unique_ptr<Executor> make_cell_executor() { return std::make_unique<CellExecutor>(); }

}  // namespace cv::usercode::runner
