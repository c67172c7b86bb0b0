// The runner's GPU executor: loads the student's cubin into the runtime's
// primary context (cuModuleLoadData), imports the app's vertex buffers
// (cuMemImportFromShareableHandle on the POSIX fd the app exported), launches
// with cuLaunchKernel and times with CUDA events. A kernel fault makes every
// later call fail, so the reply says "fatal" and the runner ends.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "fountain/fountain.h"
#include "labs/reduce/reduce.h"
#include "usercode/guard/guard_runtime.h"
#include "usercode/guard/guard_words.h"
#include "usercode/runner_executor.h"

namespace cv::usercode::runner {
namespace {

struct Driver {
  PFN_cuGetErrorName_v6000 error_name = nullptr;
  PFN_cuGetErrorString_v6000 error_string = nullptr;
  PFN_cuModuleLoadData_v2000 module_load = nullptr;
  PFN_cuModuleUnload_v2000 module_unload = nullptr;
  PFN_cuModuleGetFunction_v2000 get_function = nullptr;
  PFN_cuModuleGetGlobal_v3020 get_global = nullptr;
  PFN_cuLaunchKernel_v4000 launch = nullptr;
  PFN_cuFuncGetAttribute_v2020 func_attribute = nullptr;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 occupancy = nullptr;
  PFN_cuMemImportFromShareableHandle_v10020 import = nullptr;
  PFN_cuMemAddressReserve_v10020 reserve = nullptr;
  PFN_cuMemAddressFree_v10020 address_free = nullptr;
  PFN_cuMemMap_v10020 map = nullptr;
  PFN_cuMemUnmap_v10020 unmap = nullptr;
  PFN_cuMemSetAccess_v10020 set_access = nullptr;
  PFN_cuMemRelease_v10020 release = nullptr;

  template <class F>
  static void entry(const char* name, F& fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !p)
      throw std::runtime_error(std::string("driver entry point ") + name + " unavailable");
    fn = reinterpret_cast<F>(p);
  }
  static Driver load() {
    Driver d;
    entry("cuGetErrorName", d.error_name);
    entry("cuGetErrorString", d.error_string);
    entry("cuModuleLoadData", d.module_load);
    entry("cuModuleUnload", d.module_unload);
    entry("cuModuleGetFunction", d.get_function);
    entry("cuModuleGetGlobal", d.get_global);
    entry("cuLaunchKernel", d.launch);
    entry("cuFuncGetAttribute", d.func_attribute);
    entry("cuOccupancyMaxActiveBlocksPerMultiprocessor", d.occupancy);
    entry("cuMemImportFromShareableHandle", d.import);
    entry("cuMemAddressReserve", d.reserve);
    entry("cuMemAddressFree", d.address_free);
    entry("cuMemMap", d.map);
    entry("cuMemUnmap", d.unmap);
    entry("cuMemSetAccess", d.set_access);
    entry("cuMemRelease", d.release);
    return d;
  }
  std::string name(CUresult r) const {
    const char* n = nullptr;
    return error_name(r, &n) == CUDA_SUCCESS && n ? n : "CUresult " + std::to_string(r);
  }
  std::string text(CUresult r) const {
    const char* s = nullptr;
    return error_string(r, &s) == CUDA_SUCCESS && s ? s : "";
  }
};

// The app's exported VMM allocation, imported and mapped here.
class ImportedMemory {
 public:
  ImportedMemory(const Driver& d, int device, int fd, size_t bytes) : d_(d), bytes_(bytes) {
    auto check = [&](CUresult r, const char* call) {
      if (r != CUDA_SUCCESS) throw std::runtime_error(std::string(call) + ": " + d_.name(r));
    };
    check(d_.import(&handle_, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)),
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
  const Driver& d_;
  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr ptr_ = 0;
  size_t bytes_;
  bool mapped_ = false;
};

struct SpanArg {  // cv::Span<T> of the prelude
  void* data;
  unsigned long long size;
};
struct IdsArg {  // cv::Ids of the prelude
  unsigned* ids;
  int mode;
};

class GpuExecutor : public Executor {
 public:
  GpuExecutor() : d_(Driver::load()) {
    CV_CUDA(cudaGetDevice(&device_));
    CV_CUDA(cudaFree(nullptr));  // the primary context, current on this thread
    CV_CUDA(cudaGetDeviceProperties(&prop_, device_));
  }
  ~GpuExecutor() override {
    shared_.clear();
    if (module_) d_.module_unload(module_);
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
    if (module_) d_.module_unload(module_), module_ = nullptr, func_ = nullptr;
    std::vector<char> image = req.blob;
    image.push_back('\0');  // PTX text must end in NUL; a cubin does not mind
    if (CUresult r = d_.module_load(&module_, image.data()); r != CUDA_SUCCESS) {
      module_ = nullptr;
      return error_reply(d_.name(r), "cuModuleLoadData: " + d_.text(r), false);
    }
    entry_ = req.json.at("entry").get<std::string>();
    if (CUresult r = d_.get_function(&func_, module_, entry_.c_str()); r != CUDA_SUCCESS)
      return error_reply(d_.name(r), "cuModuleGetFunction(" + entry_ + "): " + d_.text(r), false);
    size_t bytes = 0;
    fault_ = 0;
    if (d_.get_global(&fault_, &bytes, module_, "cv_fault") != CUDA_SUCCESS ||
        bytes != sizeof(FaultRecord))
      fault_ = 0;
    checked_ = req.json.value("checked", false);
    // docs/guard.md: a guarded kernel gets its table before each launch, its record read after.
    if (std::string why; !guard_.load(req.json, module_, d_.get_global, why)) return error_reply("guard", why, false);
    auto attr = [&](CUfunction_attribute a) {
      int v = 0;
      d_.func_attribute(&v, a, func_);
      return v;
    };
    return {{"ok", true},
            {"resources",
             {{"registers", attr(CU_FUNC_ATTRIBUTE_NUM_REGS)},
              {"shared_bytes", attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)},
              {"local_bytes", attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)},
              {"max_threads", attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)}}}};
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

  nlohmann::json fountain(const wire::Frame& req, std::vector<char>& blob) override {
    if (!func_) return error_reply("protocol", "no kernel loaded", false);
    const nlohmann::json& j = req.json;
    const unsigned count = j.at("count").get<unsigned>();
    const fountain::Grid g = fountain::make_grid(count);
    fountain::Params p = params_from(j.at("params"));
    fountain::Frame f = frame_from(j.at("frame"));
    float4* in = buffer(j, "in", count, own_in_);
    float4* out = buffer(j, "out", count, own_out_);
    if (!in || !out) return error_reply("protocol", "a shared buffer is unknown or too small", false);
    if (j.value("reset", false) || vy_.size() != count) {
      const fountain::InitialState s = fountain::initial_state(g, p, j.value("seed", uint64_t{1}));
      vy_ = DeviceBuffer<float>(std::max(count, 1u));
      CV_CUDA(cudaMemcpyAsync(in, s.positions.data(), count * sizeof(float4), cudaMemcpyHostToDevice, stream_.get()));
      CV_CUDA(cudaMemcpyAsync(vy_.get(), s.vy.data(), count * sizeof(float), cudaMemcpyHostToDevice, stream_.get()));
      CV_CUDA(cudaStreamSynchronize(stream_.get()));
    }
    IdsArg ids{nullptr, j.value("colour_by", 0)};
    if (ids.mode && j.contains("ids") && !j["ids"].is_null()) {  // the app's ids buffer
      auto it = shared_.find(j["ids"].get<uint64_t>());
      if (it == shared_.end() || it->second->bytes() < count * sizeof(unsigned))
        return error_reply("protocol", "the shared ids buffer is unknown or too small", false);
      ids.ids = static_cast<unsigned*>(it->second->get());
    } else if (ids.mode) {
      if (ids_.size() != count) ids_ = DeviceBuffer<unsigned>(std::max(count, 1u));
      ids.ids = ids_.get();
    }
    const auto block = block_from(j);
    const unsigned grid[3] = {(g.width + block[0] - 1) / block[0], (g.height + block[1] - 1) / block[1], 1};
    const int steps = std::max(1, j.value("steps", 1));
    nlohmann::json times = nlohmann::json::array();
    for (int k = 0; k < steps; ++k) {
      SpanArg a_in{in, count}, a_out{out, count}, a_vy{vy_.get(), count};
      void* args[] = {&a_in, &a_out, &a_vy, const_cast<fountain::Grid*>(&g), &f, &p, &ids};
      const std::vector<BufferView> views = {{in, count * sizeof(float4), sizeof(float4), "in", false},
                                             {out, count * sizeof(float4), sizeof(float4), "out", true},
                                             {vy_.get(), count * sizeof(float), sizeof(float), "vy", true},
                                             {ids.ids, ids.ids ? count * sizeof(unsigned) : 0, sizeof(unsigned), "ids", true}};
      nlohmann::json r = timed_launch(grid, block, args, times, views);
      if (!r.is_null()) return r;
      if (k + 1 < steps) std::swap(in, out);
    }
    if (j.value("return_positions", false)) {
      blob.resize(count * sizeof(float4));
      CV_CUDA(cudaMemcpy(blob.data(), out, blob.size(), cudaMemcpyDeviceToHost));
    }
    // The runner's own pair ping-pongs across requests: the next reads this output.
    if (out == own_out_.get()) std::swap(own_in_, own_out_);
    nlohmann::json reply = {{"ok", true}, {"kernel_ms", times}, {"kernel", entry_}};
    if (ids.mode && j.value("return_ids", false)) {
      std::vector<unsigned> host(count);
      CV_CUDA(cudaMemcpy(host.data(), ids.ids, count * sizeof(unsigned), cudaMemcpyDeviceToHost));
      reply["ids_first"] = std::vector<unsigned>(host.begin(), host.begin() + std::min<size_t>(count, 64));
    }
    return reply;
  }

  nlohmann::json count3(const wire::Frame& req) override {
    if (!func_) return error_reply("protocol", "no kernel loaded", false);
    const nlohmann::json& j = req.json;
    const long long n = j.at("n").get<long long>();
    const uint64_t seed = j.value("seed", uint64_t{1});
    if (n != data_n_ || seed != data_seed_) {
      const std::vector<int32_t> host = reduce::make_data(static_cast<size_t>(n), seed);
      data_ = DeviceBuffer<int32_t>(std::max<long long>(n, 1));
      CV_CUDA(cudaMemcpy(data_.get(), host.data(), host.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
      data_n_ = n, data_seed_ = seed;
    }
    const auto block = block_from(j);
    const unsigned long long threads = 1ull * block[0] * block[1] * block[2];
    const unsigned grid[3] = {static_cast<unsigned>(std::clamp<unsigned long long>((n + threads - 1) / threads, 1, 0x7fffffffull)), 1, 1};
    SpanArg data{data_.get(), static_cast<unsigned long long>(n)};
    unsigned long long* counter = counter_ptr();
    void* args[] = {&data, &counter};
    return lab_runs(j, grid, block, args,
                    {{data_.get(), static_cast<unsigned long long>(n) * sizeof(int32_t), sizeof(int32_t), "data", false},
                     {counter, sizeof(unsigned long long), sizeof(unsigned long long), "count", true}});
  }

  nlohmann::json pi(const wire::Frame& req) override {
    if (!func_) return error_reply("protocol", "no kernel loaded", false);
    const nlohmann::json& j = req.json;
    unsigned long long n = j.at("n").get<unsigned long long>(), seed = j.value("seed", 1ull);
    const auto block = block_from(j);
    const unsigned long long threads = 1ull * block[0] * block[1] * block[2];
    const unsigned grid[3] = {static_cast<unsigned>(std::clamp<unsigned long long>((n + threads * 64 - 1) / (threads * 64), 1, 0x7fffffffull)), 1, 1};
    unsigned long long* counter = counter_ptr();
    void* args[] = {&n, &seed, &counter};
    return lab_runs(j, grid, block, args,
                    {{counter, sizeof(unsigned long long), sizeof(unsigned long long), "hits", true}});
  }

  nlohmann::json occupancy(const wire::Frame& req) override {
    if (!func_) return error_reply("protocol", "no kernel loaded", false);
    const auto block = block_from(req.json);
    int blocks = 0;
    if (CUresult r = d_.occupancy(&blocks, func_, static_cast<int>(block[0] * block[1] * block[2]), 0);
        r != CUDA_SUCCESS)
      return error_reply(d_.name(r), "cuOccupancyMaxActiveBlocksPerMultiprocessor: " + d_.text(r), false);
    return {{"ok", true}, {"blocks_per_sm", blocks}};
  }

 private:
  static std::array<unsigned, 3> block_from(const nlohmann::json& j) {
    std::array<unsigned, 3> b{1, 1, 1};
    if (j.contains("block"))
      for (size_t i = 0; i < 3 && i < j["block"].size(); ++i) b[i] = std::max(1u, j["block"][i].get<unsigned>());
    return b;
  }

  unsigned long long* counter_ptr() {
    if (!counter_.get()) counter_ = DeviceBuffer<unsigned long long>(1);
    return counter_.get();
  }

  float4* buffer(const nlohmann::json& j, const char* key, unsigned count, DeviceBuffer<float4>& own) {
    if (j.contains(key) && !j[key].is_null()) {
      auto it = shared_.find(j[key].get<uint64_t>());
      if (it == shared_.end() || it->second->bytes() < count * sizeof(float4)) return nullptr;
      return static_cast<float4*>(it->second->get());
    }
    if (own.size() != std::max(count, 1u)) own = DeviceBuffer<float4>(std::max(count, 1u));
    return own.get();
  }

  // reps launches of the lab kernel, each with the counter zeroed; the answer of the last.
  nlohmann::json lab_runs(const nlohmann::json& j, const unsigned grid[3],
                          const std::array<unsigned, 3>& block, void** args,
                          const std::vector<BufferView>& views) {
    const int reps = std::max(1, j.value("reps", 1));
    nlohmann::json times = nlohmann::json::array();
    unsigned long long result = 0;
    for (int k = 0; k < reps; ++k) {
      CV_CUDA(cudaMemsetAsync(counter_.get(), 0, sizeof(unsigned long long), stream_.get()));
      nlohmann::json r = timed_launch(grid, block, args, times, views);
      if (!r.is_null()) return r;
      CV_CUDA(cudaMemcpy(&result, counter_.get(), sizeof result, cudaMemcpyDeviceToHost));
    }
    return {{"ok", true}, {"kernel_ms", times}, {"result", result}, {"kernel", entry_}};
  }

  // One launch, synchronised and timed; null on success, else the reply.
  nlohmann::json timed_launch(const unsigned grid[3], const std::array<unsigned, 3>& block,
                              void** args, nlohmann::json& times, const std::vector<BufferView>& views) {
    if (checked_ && fault_) CV_CUDA(cudaMemsetAsync(reinterpret_cast<void*>(fault_), 0, sizeof(FaultRecord), stream_.get()));
    if (guard_.attached()) CV_CUDA(guard_.before_launch(views, stream_.get()));
    CV_CUDA(cudaEventRecord(start_.get(), stream_.get()));
    const CUresult lr = d_.launch(func_, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0,
                                  reinterpret_cast<CUstream>(stream_.get()), args, nullptr);
    auto describe = [&](nlohmann::json r) {
      r["kernel"] = entry_;
      r["grid"] = {grid[0], grid[1], grid[2]};
      r["block"] = {block[0], block[1], block[2]};
      return r;
    };
    if (lr != CUDA_SUCCESS) {
      // A launch refused up front (too many threads, registers) leaves the context usable.
      const bool fatal = lr != CUDA_ERROR_INVALID_VALUE && lr != CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
      return describe(error_reply(d_.name(lr), "cuLaunchKernel: " + d_.text(lr), fatal));
    }
    CV_CUDA(cudaEventRecord(stop_.get(), stream_.get()));
    const cudaError_t e = cudaStreamSynchronize(stream_.get());
    if (e != cudaSuccess)
      return describe(error_reply(cudaGetErrorName(e), cudaGetErrorString(e), true));
    times.push_back(elapsed_ms(start_, stop_));
    if (guard_.attached()) {  // an access the guard skipped: named, and the runner lives on
      cudaError_t ge = cudaSuccess;
      const std::optional<guard::Record> rec = guard_.after_launch(stream_.get(), ge);
      CV_CUDA(ge);
      if (rec) {
        nlohmann::json r = describe(error_reply("guard", guard::sentence(*rec, guard_.sites(), views), false));
        r["guard"] = guard::record_json(*rec, guard_.sites());
        return r;
      }
    }
    if (checked_ && fault_) {
      FaultRecord rec{};
      CV_CUDA(cudaMemcpy(&rec, reinterpret_cast<void*>(fault_), sizeof rec, cudaMemcpyDeviceToHost));
      if (rec.hit) {
        nlohmann::json r = describe(error_reply("out of range", "checked access out of range", false));
        r["out_of_range"] = out_of_range_json(rec);
        return r;
      }
    }
    return nullptr;
  }

  Driver d_;
  int device_ = 0;
  cudaDeviceProp prop_{};
  CudaStream stream_;
  CudaEvent start_, stop_;
  CUmodule module_ = nullptr;
  CUfunction func_ = nullptr;
  CUdeviceptr fault_ = 0;
  bool checked_ = false;
  guard::GuardedModule guard_;
  std::string entry_;
  std::map<uint64_t, std::unique_ptr<ImportedMemory>> shared_;
  DeviceBuffer<float4> own_in_, own_out_;
  DeviceBuffer<float> vy_;
  DeviceBuffer<unsigned> ids_;
  DeviceBuffer<unsigned long long> counter_;
  DeviceBuffer<int32_t> data_;
  long long data_n_ = -1;
  uint64_t data_seed_ = 0;
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
