// The runner's CPU executor: the host-compiled .so (compile_host.cpp), loaded
// here with dlopen. An items-form entry (a per-particle function's loop)
// runs on the thread pool over the launch's work items; a whole __global__
// kernel runs in the CPU emulator (emu/emu.h): its blocks over the thread
// pool, its threads as fibers where it names a barrier or warp operation.
// A segfault, abort or endless loop in it ends this process; the app
// notices (EOF or time-out) and reports it.
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>

#include "common/parallel_for.h"
#include "usercode/emu/emu.h"
#include "usercode/args/host_memory.h"
#include "usercode/args/arg_binder.h"
#include "usercode/runner/runner_executor.h"
#include "usercode/runner/runner_signals.h"
#include "usercode/wire/progress_page.h"

namespace cv::usercode::runner {
namespace {

// The items-form entry: params as cuLaunchKernel takes them, a range of items.
using ItemsFn = void (*)(void** params, unsigned long long begin, unsigned long long end);

// One dlopen handle.
class SharedObject {
 public:
  explicit SharedObject(const std::string& path) : h_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (!h_) throw std::runtime_error(std::string("dlopen: ") + dlerror());
  }
  ~SharedObject() { dlclose(h_); }
  SharedObject(const SharedObject&) = delete;
  SharedObject& operator=(const SharedObject&) = delete;
  void* symbol(const char* name) const { return dlsym(h_, name); }
  void* handle() const { return h_; }

 private:
  void* h_;
};

// A memfd the app shares, mapped read-write.
class HostMapping {
 public:
  HostMapping(int fd, size_t bytes) : bytes_(bytes) {
    p_ = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p_ == MAP_FAILED) throw std::runtime_error(std::string("mmap(shared buffer): ") + std::strerror(errno));
  }
  ~HostMapping() { munmap(p_, bytes_); }
  HostMapping(const HostMapping&) = delete;
  HostMapping& operator=(const HostMapping&) = delete;
  void* get() const { return p_; }
  size_t bytes() const { return bytes_; }

 private:
  void* p_;
  size_t bytes_;
};

struct Module {
  std::unique_ptr<SharedObject> so;          // items form
  std::unique_ptr<emu::Module> emu_module;   // a whole kernel: the emulator's module
  emu::Kernel kernel;
  ItemsFn items = nullptr;  // null: a whole kernel (the emulator's)
  FaultRecord* fault = nullptr;
  bool checked = false;
  std::string entry;
  std::string path, file_name;  // the .so and the student's file in its line table
  uintptr_t base = 0;           // where it is loaded
  emu::TextRange text;          // its code
};

// The load address of a dlopened module.
uintptr_t load_base(void* handle) {
  link_map* lm = nullptr;
  return handle && dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm ? lm->l_addr : 0;
}

// A checked access's record as the reply's out_of_range. An s[i] (no line in
// the record) carries the code address it came from, as an offset in the
// module: the app places it at the student's line (a cell may not start
// addr2line). The offset is of the call instruction, as a signal's is (the
// record holds its return address).
nlohmann::json out_of_range_at_line(const Module& m, FaultRecord r) {
  nlohmann::json f = error_reply("out of range", "checked access out of range", false);
  f["out_of_range"] = out_of_range_json(r);
  if (r.line == 0 && r.pc > m.base) f["fault_code_offset"] = static_cast<uint64_t>(r.pc - m.base - 1);
  if (r.line) f["error_line"] = r.line;
  f["kernel"] = m.entry;
  return f;
}

class CpuExecutor : public Executor {
 public:
  CpuExecutor() : binder_(memory_) {}

  nlohmann::json hello() override {
    return {{"ok", true}, {"backend", "cpu"}, {"threads", cpu_threads()}};
  }

  nlohmann::json load(const wire::Frame& req) override {
    const std::string key = req.json.value("module", "editor");
    modules_.erase(key);
    if (modules_.size() >= kMaxModules) modules_.erase(modules_.begin());
    Module m;
    m.entry = req.json.value("entry", "");
    m.checked = req.json.value("checked", false);
    const std::string path = req.json.value("shared_object", "");
    m.path = path;
    m.file_name = req.json.value("file_name", "kernel.cu");
    if (req.json.value("form", "kernel") == "items") {
      try {
        m.so = std::make_unique<SharedObject>(path);
      } catch (const std::exception& e) {
        return error_reply("dlopen", e.what(), false);
      }
      m.fault = static_cast<FaultRecord*>(m.so->symbol("cv_fault"));
      m.base = load_base(m.so->handle());
      m.text = emu::module_text(m.base);
      m.items = reinterpret_cast<ItemsFn>(m.so->symbol(m.entry.c_str()));
      if (!m.items) return error_reply("dlsym", "the built kernel has no " + m.entry, false);
    } else {
      // A whole __global__ kernel: the emulator's module (emu/emu.h).
      try {
        m.emu_module = std::make_unique<emu::Module>(path, false, m.file_name);
        m.base = load_base(m.emu_module->handle());
        m.text = emu::module_text(m.base);
        m.kernel = m.emu_module->kernel(m.entry);
      } catch (const std::exception& e) {
        return error_reply("dlopen", e.what(), false);
      }
      static_assert(sizeof(FaultRecord) == emu::kFaultRecordBytes, "the emulator clears the whole record");
      m.fault = static_cast<FaultRecord*>(m.emu_module->fault_record());
    }
    modules_[key] = std::move(m);
    return {{"ok", true}, {"resources", nlohmann::json::object()}};
  }

  nlohmann::json share(const wire::Frame& req) override {
    if (req.fds.size() != 1) return error_reply("protocol", "share needs one descriptor", false);
    if (req.json.value("kind", "") == "progress") {  // where the emulator counts finished blocks
      try {
        progress_ = std::make_unique<ProgressPage>(req.fds[0]);
      } catch (const std::exception& e) {
        return error_reply("share", e.what(), false);
      }
      return {{"ok", true}};
    }
    if (req.json.value("kind", "") != "memfd")
      return error_reply("share", "the CPU runner maps host memory (memfd) only", false);
    const uint64_t id = req.json.at("id").get<uint64_t>();
    shared_.erase(id);
    shared_.emplace(id, std::make_unique<HostMapping>(req.fds[0], req.json.at("bytes").get<size_t>()));
    return {{"ok", true}};
  }

  nlohmann::json launch(const wire::Frame& req, std::vector<char>& blob) override {
    LaunchRequest r;
    try {
      r = wire::decode_launch(req.json, req.blob);
    } catch (const std::exception& e) {
      return error_reply("protocol", std::string("launch: ") + e.what(), false);
    }
    auto it = modules_.find(r.module);
    if (it == modules_.end()) return error_reply("protocol", "no kernel loaded as '" + r.module + "'", false);
    const Module& m = it->second;
    const int reps = r.reps;
    const unsigned long long items = r.cpu_items;
    auto shared = [&](uint64_t id) -> std::pair<void*, size_t> {
      auto s = shared_.find(id);
      return s == shared_.end() ? std::pair<void*, size_t>{nullptr, 0}
                                : std::pair<void*, size_t>{s->second->get(), s->second->bytes()};
    };
    if (std::string e = binder_.prepare(std::move(r), shared); !e.empty()) return error_reply("protocol", e, false);
    set_signal_module(m.text.lo, m.text.hi, m.base, m.entry);
    if (!m.items) return launch_emulated(m, reps, blob);
    nlohmann::json times = nlohmann::json::array(), read = nlohmann::json::array();
    for (int k = 0; k < reps; ++k) {
      const BoundArgs& args = binder_.bind_rep();
      if (m.fault) std::memset(m.fault, 0, sizeof *m.fault);
      set_signal_buffers(args.buffers);
      const auto t0 = std::chrono::steady_clock::now();
      void** params = const_cast<void**>(args.params.data());
      const ItemsFn fn = m.items;
      parallel_for(static_cast<size_t>(items), [&](size_t b, size_t e) { fn(params, b, e); });
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (m.checked && m.fault && m.fault->hit) return out_of_range_at_line(m, *m.fault);
      if (k + 1 == reps) read = binder_.read_back(blob);
      binder_.after_rep();
    }
    return {{"ok", true}, {"kernel_ms", times}, {"kernel", m.entry}, {"read_back", read}};
  }

  // A whole kernel, rep by rep, through the CPU emulator (app/usercode/emu):
  // the shape the request asked for, the bound arguments, its report.
  nlohmann::json launch_emulated(const Module& m, int reps, std::vector<char>& blob) {
    nlohmann::json times = nlohmann::json::array(), read = nlohmann::json::array(),
                   printed = nlohmann::json::array();
    emu::Options opts;
    const Schedule schedule = binder_.request().schedule;
    opts.force_fibers = schedule != Schedule::Fast;
    opts.verdict = schedule == Schedule::Verdict;
    if (progress_) {
      const LaunchShape& sh = binder_.request().shape;
      progress_->counters().done.reset();
      progress_->counters().total.store(1ull * sh.grid[0] * sh.grid[1] * sh.grid[2] * static_cast<unsigned>(reps));
      opts.blocks_done = &progress_->counters().done;
    }
    bool truncated = false, fibers = false;
    std::string path, fission_note;
    for (int k = 0; k < reps; ++k) {
      const BoundArgs& args = binder_.bind_rep();
      if (m.fault) std::memset(m.fault, 0, sizeof *m.fault);
      set_signal_buffers(args.buffers);
      emu::Report rep;
      try {
        rep = emu::run(m.kernel, binder_.request().shape, const_cast<void**>(args.params.data()),
                       args.buffers, opts);
      } catch (const std::invalid_argument& e) {
        nlohmann::json f = error_reply("launch", e.what(), false);
        f["kernel"] = m.entry;
        f["emulated"] = true;
        return f;
      }
      times.push_back(rep.ms);
      fibers = fibers || rep.fibers;
      path = rep.path;
      fission_note = rep.fission_note;
      for (const std::string& l : rep.printf_lines)
        if (printed.size() < opts.max_print_lines) printed.push_back(l);
      truncated = truncated || rep.printf_truncated;
      if (m.checked && m.fault && m.fault->hit) {
        nlohmann::json f = out_of_range_at_line(m, *m.fault);
        f["emulated"] = true;
        return f;
      }
      if (!rep.ok) {
        nlohmann::json f = error_reply(rep.error_kind.empty() ? "emulator" : rep.error_kind, rep.error, false);
        f["error_line"] = rep.error_line;
        f["kernel"] = m.entry;
        f["emulated"] = true;
        f["printf"] = printed;
        return f;
      }
      if (k + 1 == reps) read = binder_.read_back(blob);
      binder_.after_rep();
    }
    nlohmann::json reply = {{"ok", true},      {"kernel_ms", times}, {"kernel", m.entry},          {"read_back", read},
                            {"emulated", true}, {"fibers", fibers},  {"printf", printed},          {"printf_truncated", truncated},
                            {"path", path}};
    if (!fission_note.empty()) reply["fast_path_off"] = fission_note;  // why this kernel has no fast path
    return reply;
  }

  nlohmann::json occupancy(const wire::Frame&) override {
    return error_reply("no GPU", "occupancy is a CUDA GPU's answer", false);
  }

 private:
  HostMemory memory_;
  std::unique_ptr<ProgressPage> progress_;  // the app's page (usercode/progress_page.h), once sent
  std::map<uint64_t, std::unique_ptr<HostMapping>> shared_;
  ArgBinder binder_;
  std::map<std::string, Module> modules_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor() { return std::make_unique<CpuExecutor>(); }

}  // namespace cv::usercode::runner
