// The runner's CPU executor: the per-particle function compiled by the host
// C++ compiler (compile_host.cpp), loaded here with dlopen and run on the
// thread pool over rows. A segfault, abort or endless loop in it ends this
// process; the app notices (EOF or time-out) and reports it.
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "common/parallel_for.h"
#include "fountain/fountain.h"
#include "usercode/runner_executor.h"

namespace cv::usercode::runner {
namespace {

using RowsFn = void (*)(const float4*, float4*, float*, fountain::Grid, fountain::Frame,
                        fountain::Params, unsigned, unsigned);

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

class CpuExecutor : public Executor {
 public:
  nlohmann::json hello() override {
    return {{"ok", true}, {"backend", "cpu"}, {"threads", cpu_threads()}};
  }

  nlohmann::json load(const wire::Frame& req) override {
    fn_ = nullptr;
    fault_ = nullptr;
    so_.reset();
    const std::string path = req.json.value("shared_object", "");
    try {
      so_ = std::make_unique<SharedObject>(path);
    } catch (const std::exception& e) {
      return error_reply("dlopen", e.what(), false);
    }
    fn_ = reinterpret_cast<RowsFn>(so_->symbol("cv_fountain_rows"));
    fault_ = static_cast<FaultRecord*>(so_->symbol("cv_fault"));
    if (!fn_) return error_reply("dlsym", "the built kernel has no cv_fountain_rows", false);
    checked_ = req.json.value("checked", false);
    return {{"ok", true}, {"resources", nlohmann::json::object()}};
  }

  nlohmann::json share(const wire::Frame& req) override {
    if (req.fds.size() != 1) return error_reply("protocol", "share needs one descriptor", false);
    if (req.json.value("kind", "") != "memfd")
      return error_reply("share", "the CPU runner maps host memory (memfd) only", false);
    const uint64_t id = req.json.at("id").get<uint64_t>();
    shared_.erase(id);
    shared_.emplace(id, std::make_unique<HostMapping>(req.fds[0], req.json.at("bytes").get<size_t>()));
    return {{"ok", true}};
  }

  nlohmann::json fountain(const wire::Frame& req, std::vector<char>& blob) override {
    if (!fn_) return error_reply("protocol", "no kernel loaded", false);
    const nlohmann::json& j = req.json;
    const unsigned count = j.at("count").get<unsigned>();
    const fountain::Grid g = fountain::make_grid(count);
    const fountain::Params p = params_from(j.at("params"));
    const fountain::Frame f = frame_from(j.at("frame"));
    float4* in = buffer(j, "in", count, own_in_);
    float4* out = buffer(j, "out", count, own_out_);
    if (!in || !out) return error_reply("protocol", "a shared buffer is unknown or too small", false);
    if (j.value("reset", false) || vy_.size() != count) {
      const fountain::InitialState s = fountain::initial_state(g, p, j.value("seed", uint64_t{1}));
      std::memcpy(in, s.positions.data(), count * sizeof(float4));
      vy_ = s.vy;
    }
    const int steps = std::max(1, j.value("steps", 1));
    nlohmann::json times = nlohmann::json::array();
    for (int k = 0; k < steps; ++k) {
      if (fault_) std::memset(fault_, 0, sizeof *fault_);
      const auto t0 = std::chrono::steady_clock::now();
      RowsFn fn = fn_;
      float* vy = vy_.data();
      parallel_for(g.height, [&](size_t b, size_t e) {
        fn(in, out, vy, g, f, p, static_cast<unsigned>(b), static_cast<unsigned>(e));
      });
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (fault_ && fault_->hit) {
        nlohmann::json r = error_reply("out of range", "checked access out of range", false);
        r["out_of_range"] = out_of_range_json(*fault_);
        r["kernel"] = "particle_step";
        return r;
      }
      if (k + 1 < steps) std::swap(in, out);
    }
    if (j.value("return_positions", false)) {
      blob.resize(count * sizeof(float4));
      std::memcpy(blob.data(), out, blob.size());
    }
    // The runner's own pair ping-pongs across requests: the next reads this output.
    if (out == own_out_.data()) std::swap(own_in_, own_out_);
    return {{"ok", true}, {"kernel_ms", times}, {"kernel", "particle_step"}};
  }

  nlohmann::json count3(const wire::Frame&) override { return needs_gpu("count3"); }
  nlohmann::json pi(const wire::Frame&) override { return needs_gpu("pi"); }
  nlohmann::json occupancy(const wire::Frame&) override { return needs_gpu("occupancy"); }

 private:
  static nlohmann::json needs_gpu(const char* what) {
    return error_reply("no GPU", std::string(what) + " runs only on a CUDA GPU", false);
  }
  // The request's shared buffer `key` (an id), else the runner's own.
  float4* buffer(const nlohmann::json& j, const char* key, unsigned count, std::vector<float4>& own) {
    if (j.contains(key) && !j[key].is_null()) {
      auto it = shared_.find(j[key].get<uint64_t>());
      if (it == shared_.end() || it->second->bytes() < count * sizeof(float4)) return nullptr;
      return static_cast<float4*>(it->second->get());
    }
    if (own.size() != count) own.assign(count, float4{});
    return own.data();
  }

  std::unique_ptr<SharedObject> so_;
  RowsFn fn_ = nullptr;
  FaultRecord* fault_ = nullptr;
  bool checked_ = false;
  std::map<uint64_t, std::unique_ptr<HostMapping>> shared_;
  std::vector<float4> own_in_, own_out_;
  std::vector<float> vy_;
};

}  // namespace

std::unique_ptr<Executor> make_cpu_executor() { return std::make_unique<CpuExecutor>(); }

}  // namespace cv::usercode::runner
