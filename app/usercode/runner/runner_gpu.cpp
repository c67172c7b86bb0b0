// The runner's GPU executor: loads student cubins into the runtime's primary
// context (cuModuleLoadData), imports the app's vertex buffers
// (cuMemImportFromShareableHandle on the POSIX fd the app exported), launches
// with cuLaunchKernel from the argument table (args/arg_binder.h) and times with
// CUDA events. A kernel fault makes every later call fail, so the reply says
// "fatal" and the runner ends.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>

#include "common/cuda_check.h"
#include "common/cuda_driver.h"
#include "common/cuda_resources.h"
#include "common/device_report.h"
#include "labs/reduce/reduce.h"
#include "usercode/runner/guard_runtime.h"
#include "usercode/runner/guard_words.h"
#include "usercode/runner/module_jit.h"
#include "usercode/runner/register_cap.h"
#include "usercode/args/arg_binder.h"
#include "usercode/runner/runner_executor.h"
#include "usercode/wire/data_generators.h"

namespace cv::usercode::runner {
namespace {

// The app's exported VMM allocation, imported and mapped here.
class ImportedMemory {
 public:
  ImportedMemory(const CudaDriver& d, int device, int fd, size_t bytes) : d_(d), bytes_(bytes) {
    auto check = [&](CUresult r, const char* call) {
      if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(call) + ": " + d_.name(r));
    };
    check(d_.import_handle(&handle_, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)),
                           CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
          "cuMemImportFromShareableHandle");
    try {
      check(d_.reserve(&ptr_, bytes_, 0, 0, 0), "cuMemAddressReserve");
      check(d_.map(ptr_, bytes_, 0, handle_, 0), "cuMemMap");
      mapped_ = true;
      CUmemAccessDesc access{};
      access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      access.location.id = device;
      access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      check(d_.set_access(ptr_, bytes_, &access, 1), "cuMemSetAccess");
    } catch (...) {
      free();
      throw;
    }
  }
  ~ImportedMemory() { free(); }
  ImportedMemory(const ImportedMemory&) = delete;
  ImportedMemory& operator=(const ImportedMemory&) = delete;
  void* get() const { return reinterpret_cast<void*>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void free() {
    if (mapped_) d_.unmap(ptr_, bytes_);
    if (ptr_) d_.address_free(ptr_, bytes_);
    if (handle_) d_.release(handle_);
    mapped_ = false, ptr_ = 0, handle_ = 0;
  }
  const CudaDriver& d_;
  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr ptr_ = 0;
  size_t bytes_;
  bool mapped_ = false;
};

// Device memory for the argument binder, ordered on the executor's stream.
class DeviceMemory : public Memory {
 public:
  explicit DeviceMemory(cudaStream_t s) : s_(s) {}
  void* allocate(size_t bytes) override {
    void* p = nullptr;
    CV_CUDA(cudaMalloc(&p, bytes));
    return p;
  }
  void release(void* p) override { cudaFree(p); }
  void upload(void* dst, const void* src, size_t bytes) override {
    CV_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s_));
    CV_CUDA(cudaStreamSynchronize(s_));
  }
  void download(void* dst, const void* src, size_t bytes) override {
    CV_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s_));
    CV_CUDA(cudaStreamSynchronize(s_));
  }
  void zero(void* dst, size_t bytes) override { CV_CUDA(cudaMemsetAsync(dst, 0, bytes, s_)); }
  bool generates(const std::string& name, unsigned long long n, size_t bytes) const override {
    return name == kLabData && bytes == n * sizeof(int32_t);
  }
  void generate(void* dst, const std::string& name, unsigned long long n, uint64_t seed) override {
    if (name == kLabData) reduce::make_data_on_device(static_cast<int32_t*>(dst), n, seed, s_);
  }

 private:
  cudaStream_t s_;
};

struct Module {
  CUmodule module = nullptr;
  CUfunction func = nullptr;
  CUdeviceptr fault = 0;  // the checked build's cv_fault record
  bool checked = false;
  mutable bool fault_dirty = true;  // the record may hold a hit: cleared before the next launch
  std::string entry;
  guard::GuardedModule guard;  // a guarded build's table and record (docs/guard.md)
};

class GpuExecutor : public Executor {
 public:
  GpuExecutor() : d_(CudaDriver::load()), memory_(stream_.get()), binder_(memory_) {
    CV_CUDA(cudaGetDevice(&device_));
    CV_CUDA(cudaFree(nullptr));  // the primary context, current on this thread
    CV_CUDA(cudaGetDeviceProperties(&prop_, device_));
  }
  ~GpuExecutor() override {
    shared_.clear();
    for (auto& [name, m] : modules_) d_.module_unload(m.module);
  }

  nlohmann::json hello() override {
    int timeout = 0;
    cudaDeviceGetAttribute(&timeout, cudaDevAttrKernelExecTimeout, device_);
    return {{"ok", true},
            {"backend", "cuda"},
            {"device", prop_.name},
            {"cc", std::to_string(prop_.major) + "." + std::to_string(prop_.minor)},
            {"kernel_exec_timeout", timeout != 0}};
  }

  nlohmann::json load(const wire::Frame& req) override {
    const std::string key = req.json.value("module", "editor");
    unload(key);
    if (modules_.size() >= kMaxModules) unload(modules_.begin()->first);
    // A guarded PTX image may carry the unguarded PTX after it (raw_ptx_bytes):
    // what the register cap measures against (register_cap.h).
    const size_t raw_bytes = req.json.value("raw_ptx_bytes", size_t{0});
    if (raw_bytes > req.blob.size())
      return error_reply("protocol", "raw_ptx_bytes " + std::to_string(raw_bytes) + " is more than the image's " +
                                         std::to_string(req.blob.size()) + " bytes", false);
    std::vector<char> image(req.blob.begin(), req.blob.end() - static_cast<std::ptrdiff_t>(raw_bytes));
    std::vector<char> raw(req.blob.end() - static_cast<std::ptrdiff_t>(raw_bytes), req.blob.end());
    image.push_back('\0');  // PTX text must end in NUL; a cubin does not mind
    Module m;
    m.entry = req.json.at("entry").get<std::string>();
    m.checked = req.json.value("checked", false);
    ModuleJit jit(d_, image, m.entry, 0);
    if (!jit.ok()) return error_reply(d_.name(jit.result()), jit.failed_call() + ": " + d_.text(jit.result()), false);
    m.module = jit.take();
    m.func = jit.function();
    nlohmann::json cap;
    if (!raw.empty()) {
      raw.push_back('\0');
      cap = cap_registers(m, jit.registers(), image, raw);
    }
    size_t bytes = 0;
    if (d_.get_global(&m.fault, &bytes, m.module, "cv_fault") != CUDA_SUCCESS || bytes != sizeof(FaultRecord))
      m.fault = 0;
    if (std::string why; !m.guard.load(req.json, m.module, d_.get_global, why)) {
      d_.module_unload(m.module);
      return error_reply("guard", why, false);
    }
    auto attr = [&](CUfunction_attribute a) {
      int v = 0;
      d_.func_attribute(&v, a, m.func);
      return v;
    };
    nlohmann::json reply = {{"ok", true},
                            {"resources",
                             {{"registers", attr(CU_FUNC_ATTRIBUTE_NUM_REGS)},
                              {"shared_bytes", attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)},
                              {"local_bytes", attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)},
                              {"max_threads", attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)}}}};
    reply["jit_ms"] = jit.ms();  // the guarded (or plain) image's JIT; the cap's own below
    reply["jit_cpu_ms"] = {{"thread", jit.thread_cpu_ms()}, {"process", jit.process_cpu_ms()}};
    if (!cap.is_null()) reply["register_cap"] = std::move(cap);
    modules_[key] = m;
    return reply;
  }

  // The guard's register cap (register_cap.h): where the guarded kernel holds
  // fewer warps than the unguarded one would, its PTX is compiled again with
  // the most registers that keep them. The unguarded PTX is compiled only
  // then, for its count, and never launched; beside it, on a thread of its
  // own, the guarded PTX at the cap of a full multiprocessor, the cap wanted
  // whenever the unguarded kernel fits one (then the two JITs take the time of
  // one instead of two in turn). Any refusal keeps the module as it is.
  // {"raw", "guarded", "cap", "ms"} (cap 0: none; ms: the cap's JITs, wall
  // time), or null when nothing was asked.
  nlohmann::json cap_registers(Module& m, int guarded, const std::vector<char>& image, const std::vector<char>& raw) {
    const OccupancyDevice device = to_occupancy_device(device_report());
    if (resident_warps(guarded, device) >= device.max_threads_per_sm / device.warp_size) return nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    // The most registers that keep every warp: the cap of any kernel that holds them all.
    const int full = register_cap(1, guarded, device);
    std::optional<ModuleJit> ahead;
    if (full > 0) ahead.emplace(d_, device_, image, m.entry, full);
    const ModuleJit unguarded(d_, raw, m.entry, 0);
    const int cap = unguarded.ok() ? register_cap(unguarded.registers(), guarded, device) : 0;
    if (ahead) ahead->wait();
    std::optional<ModuleJit> later;
    ModuleJit* capped = nullptr;  // the one compiled ahead when its cap is the one wanted
    if (cap) capped = ahead && ahead->cap() == cap ? &*ahead : &later.emplace(d_, image, m.entry, cap);
    nlohmann::json note = {
        {"raw", unguarded.registers()}, {"guarded", guarded}, {"cap", 0},
        {"ms", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()}};
    if (!capped || !capped->ok()) return note;
    d_.module_unload(m.module);
    m.module = capped->take();
    m.func = capped->function();
    note["cap"] = cap;
    return note;
  }

  nlohmann::json share(const wire::Frame& req) override {
    if (req.fds.size() != 1) return error_reply("protocol", "share needs one descriptor", false);
    if (req.json.value("kind", "") != "cuda_vmm")
      return error_reply("share", "the GPU runner imports CUDA VMM memory only", false);
    const uint64_t id = req.json.at("id").get<uint64_t>();
    shared_.erase(id);
    shared_.emplace(id, std::make_unique<ImportedMemory>(d_, device_, req.fds[0],
                                                         req.json.at("bytes").get<size_t>()));
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
    if (std::string e = binder_.prepare(std::move(r), [&](uint64_t id) { return shared(id); }); !e.empty())
      return error_reply("protocol", e, false);
    nlohmann::json times = nlohmann::json::array(), read = nlohmann::json::array();
    for (int k = 0; k < reps; ++k) {
      const BoundArgs& args = binder_.bind_rep();
      nlohmann::json fault = launch_once(m, binder_.request().shape, args, times);
      if (!fault.is_null()) return fault;
      if (k + 1 == reps) read = binder_.read_back(blob);
      binder_.after_rep();
    }
    return {{"ok", true}, {"kernel_ms", times}, {"kernel", m.entry}, {"read_back", read}};
  }

  nlohmann::json occupancy(const wire::Frame& req) override {
    auto it = modules_.find(req.json.value("module", "editor"));
    if (it == modules_.end()) return error_reply("protocol", "no kernel loaded", false);
    unsigned b[3] = {1, 1, 1};
    for (size_t i = 0; i < 3 && req.json.contains("block") && i < req.json["block"].size(); ++i)
      b[i] = std::max(1u, req.json["block"][i].get<unsigned>());
    int blocks = 0;
    if (CUresult r = d_.occupancy(&blocks, it->second.func, static_cast<int>(b[0] * b[1] * b[2]),
                                  req.json.value("shared_bytes", size_t{0}));
        r != CUDA_SUCCESS)
      return error_reply(d_.name(r), "cuOccupancyMaxActiveBlocksPerMultiprocessor: " + d_.text(r), false);
    return {{"ok", true}, {"blocks_per_sm", blocks}};
  }

 private:
  void unload(const std::string& key) {
    auto it = modules_.find(key);
    if (it == modules_.end()) return;
    d_.module_unload(it->second.module);
    modules_.erase(it);
  }

  std::pair<void*, size_t> shared(uint64_t id) const {
    auto it = shared_.find(id);
    if (it == shared_.end()) return {nullptr, 0};
    return {it->second->get(), it->second->bytes()};
  }

  // One launch, synchronised and timed; null on success, else the reply.
  // A guarded module: args.buffers become its table before the
  // launch; its record is read after.
  nlohmann::json launch_once(const Module& m, const LaunchShape& s, const BoundArgs& args,
                             nlohmann::json& times) {
    if (m.checked && m.fault && m.fault_dirty)
      CV_CUDA(cudaMemsetAsync(reinterpret_cast<void*>(m.fault), 0, sizeof(FaultRecord), stream_.get()));
    if (m.guard.attached()) CV_CUDA(m.guard.before_launch(args.buffers, stream_.get()));
    CV_CUDA(cudaEventRecord(start_.get(), stream_.get()));
    const CUresult lr = d_.launch(m.func, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1],
                                  s.block[2], s.dynamic_shared_bytes,
                                  reinterpret_cast<CUstream>(stream_.get()),
                                  const_cast<void**>(args.params.data()), nullptr);
    auto describe = [&](nlohmann::json r) {
      r["kernel"] = m.entry;
      r["grid"] = {s.grid[0], s.grid[1], s.grid[2]};
      r["block"] = {s.block[0], s.block[1], s.block[2]};
      return r;
    };
    if (lr != CUDA_SUCCESS) {
      // A launch refused up front (too many threads, registers) leaves the context usable.
      const bool fatal = lr != CUDA_ERROR_INVALID_VALUE && lr != CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
      return describe(error_reply(d_.name(lr), "cuLaunchKernel: " + d_.text(lr), fatal));
    }
    // The stop event and both records into pinned memory, then one wait: a
    // frame pays one synchronisation, not one per record.
    CV_CUDA(cudaEventRecord(stop_.get(), stream_.get()));
    LaunchRecords& rec = *records_.get();
    CV_CUDA(m.guard.read_record(stream_.get(), &rec.guard));
    if (m.checked && m.fault) {
      m.fault_dirty = true;
      CV_CUDA(cudaMemcpyAsync(&rec.checked, reinterpret_cast<void*>(m.fault), sizeof rec.checked,
                              cudaMemcpyDeviceToHost, stream_.get()));
    }
    const cudaError_t e = cudaStreamSynchronize(stream_.get());
    if (e != cudaSuccess) return describe(error_reply(cudaGetErrorName(e), cudaGetErrorString(e), true));
    times.push_back(elapsed_ms(start_, stop_));
    // An access the guard skipped: named, and the context lives on.
    if (const std::optional<guard::Record> g = m.guard.failure(rec.guard)) {
      nlohmann::json r = describe(error_reply("guard", guard::sentence(*g, m.guard.sites(), args.buffers), false));
      r["guard"] = guard::record_json(*g, m.guard.sites());
      r["error_line"] = r["guard"]["line"];  // the line the editor marks
      return r;
    }
    if (m.checked && m.fault) {
      m.fault_dirty = rec.checked.hit != 0;
      if (rec.checked.hit) {
        // s[i] unguarded: the prelude's marker, no line (the guard replaces it).
        if (rec.checked.line == guard::kLineMarker) rec.checked.line = 0;
        nlohmann::json r = describe(error_reply("out of range", "checked access out of range", false));
        r["out_of_range"] = out_of_range_json(rec.checked);
        return r;
      }
    }
    return nullptr;
  }

  CudaDriver d_;
  int device_ = 0;
  cudaDeviceProp prop_{};
  CudaStream stream_;
  CudaEvent start_, stop_;
  struct LaunchRecords {
    guard::Record guard;
    FaultRecord checked;
  };
  PinnedBuffer<LaunchRecords> records_{1};  // read back after every launch
  DeviceMemory memory_;
  std::map<uint64_t, std::unique_ptr<ImportedMemory>> shared_;
  ArgBinder binder_;  // after the memory and the shared buffers it points into
  std::map<std::string, Module> modules_;
};

}  // namespace

std::unique_ptr<Executor> make_gpu_executor() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0)
    throw std::runtime_error(std::string("no CUDA device: cudaGetDeviceCount: ") +
                             (e != cudaSuccess ? cudaGetErrorName(e) : "0 devices"));
  return std::make_unique<GpuExecutor>();
}

}  // namespace cv::usercode::runner
