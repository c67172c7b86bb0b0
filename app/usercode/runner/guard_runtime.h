#pragma once
// The runner's side of a guarded module: before each launch, the table of
// what the kernel may touch (the launch's buffers, then the module's own
// .global variables) is written into the module's cv_guard_table and the
// record is cleared; after it, the record is read. In the runner only.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "usercode/guard/guard_abi.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/wire/launch_abi.h"

namespace cv::usercode::guard {

// The table for `buffers` (empty or null ones left out) followed by `extra`
// (module globals), at most kTableEntries; pure.
Table make_table(const std::vector<BufferView>& buffers, const std::vector<TableEntry>& extra);

class GuardedModule {
 public:
  using GetGlobal = CUresult (*)(CUdeviceptr*, size_t*, CUmodule, const char*);
  // Finds the guard's variables in `module`; false (with `error`) when the
  // module is not guarded. `module_globals` from GuardedPtx.
  bool attach(CUmodule module, GetGlobal get_global, const std::vector<std::string>& module_globals,
              std::string& error);
  // The load request's guard fields ("guard", "guard_globals", "guard_sites",
  // sent by RunnerClient::load): attaches when the kernel is guarded, else
  // detaches. False (with `error`) when a guarded kernel lacks the variables.
  bool load(const nlohmann::json& request, CUmodule module, GetGlobal get_global, std::string& error);
  const std::vector<GuardSite>& sites() const { return sites_; }
  void detach() { table_ = record_ = 0, globals_.clear(), table_written_ = false, record_dirty_ = true; }
  bool attached() const { return table_ != 0; }

  // Stream-ordered: the table for this launch, the record zeroed.
  cudaError_t before_launch(const std::vector<BufferView>& buffers, cudaStream_t stream) const;
  // Stream-ordered after the launch: the record copied into `host` (pinned,
  // so the copy joins the caller's one wait for the launch).
  cudaError_t read_record(cudaStream_t stream, Record* host) const;
  // After that wait: the record when an access failed (then cleared before
  // the next launch).
  std::optional<Record> failure(const Record& host) const;

 private:
  CUdeviceptr table_ = 0, record_ = 0;
  std::vector<TableEntry> globals_;
  std::vector<GuardSite> sites_;  // what each Record::site is (line, access, width, space)
  // What the device holds, so unchanged tables are not copied again (a cache:
  // mutable, so a const module can be launched).
  mutable Table host_{};
  mutable bool table_written_ = false;
  mutable bool record_dirty_ = true;  // the record may hold a hit: cleared before the next launch
};

}  // namespace cv::usercode::guard
