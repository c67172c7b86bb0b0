#include "usercode/runner/guard_runtime.h"

#include <cstring>

namespace cv::usercode::guard {

Table make_table(const std::vector<BufferView>& buffers, const std::vector<TableEntry>& extra) {
  Table t{};
  for (const BufferView& b : buffers) {
    if (!b.data || !b.bytes || t.count >= kTableEntries) continue;
    const auto begin = reinterpret_cast<unsigned long long>(b.data);
    t.entry[t.count++] = {begin, begin + b.bytes};
  }
  for (const TableEntry& e : extra)
    if (t.count < kTableEntries && e.end > e.begin) t.entry[t.count++] = e;
  return t;
}

bool GuardedModule::attach(CUmodule module, GetGlobal get_global,
                           const std::vector<std::string>& module_globals, std::string& error) {
  detach();
  size_t bytes = 0;
  CUdeviceptr table = 0, record = 0;
  if (get_global(&table, &bytes, module, kTableName) != CUDA_SUCCESS || bytes != sizeof(Table) ||
      get_global(&record, &bytes, module, kRecordName) != CUDA_SUCCESS || bytes != sizeof(Record)) {
    error = "the loaded kernel is not guarded (no cv_guard_table / cv_guard_record of the expected size)";
    return false;
  }
  for (const std::string& name : module_globals) {
    CUdeviceptr p = 0;
    size_t n = 0;
    if (get_global(&p, &n, module, name.c_str()) == CUDA_SUCCESS && n)
      globals_.push_back({static_cast<unsigned long long>(p), static_cast<unsigned long long>(p + n)});
  }
  table_ = table, record_ = record;
  return true;
}

bool GuardedModule::load(const nlohmann::json& request, CUmodule module, GetGlobal get_global,
                         std::string& error) {
  detach();
  sites_.clear();
  if (!request.value("guard", false)) return true;
  if (!attach(module, get_global, request.value("guard_globals", std::vector<std::string>{}), error))
    return false;
  for (const auto& s : request.value("guard_sites", nlohmann::json::array()))
    sites_.push_back({s.at(0).get<int>(), s.at(1).get<std::string>(), s.at(3).get<std::string>(),
                      s.at(2).get<unsigned>(), "", "", false});
  return true;
}

cudaError_t GuardedModule::before_launch(const std::vector<BufferView>& buffers, cudaStream_t stream) const {
  if (!attached()) return cudaSuccess;
  // Written only when it changes (a fountain step swaps in and out; a lab's
  // buffers stay): steady state costs no copy.
  const Table t = make_table(buffers, globals_);
  if (!table_written_ || std::memcmp(&t, &host_, sizeof t) != 0) {
    host_ = t;
    // Pageable source: staged before the call returns; ordered before the launch on `stream`.
    if (cudaError_t e = cudaMemcpyAsync(reinterpret_cast<void*>(table_), &host_, sizeof host_,
                                        cudaMemcpyHostToDevice, stream);
        e != cudaSuccess)
      return e;
    table_written_ = true;
  }
  if (!record_dirty_) return cudaSuccess;
  record_dirty_ = false;
  return cudaMemsetAsync(reinterpret_cast<void*>(record_), 0, sizeof(Record), stream);
}

cudaError_t GuardedModule::read_record(cudaStream_t stream, Record* host) const {
  if (!attached()) return cudaSuccess;
  record_dirty_ = true;  // until failure() sees it clean
  return cudaMemcpyAsync(host, reinterpret_cast<void*>(record_), sizeof *host, cudaMemcpyDeviceToHost, stream);
}

std::optional<Record> GuardedModule::failure(const Record& host) const {
  if (!attached()) return std::nullopt;
  record_dirty_ = host.hit != 0;
  if (!host.hit) return std::nullopt;
  return host;
}

}  // namespace cv::usercode::guard
