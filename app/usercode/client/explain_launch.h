#pragma once
// explain's request for a template's kernel (docs/emulator.md, "Explain"):
// the launch bench would make (a Workload -> make_launch -> the wire's bytes)
// at explain's small size, and the build inputs the CPU compile uses for the
// template. A per-item template (CpuForm::Items) is explained in its GPU
// form, the wrapper kernel around the student's function, since explain runs
// a whole kernel. Any registered template is explainable; cudaviz-explain
// (explain/explain_main.cpp) runs what this builds without knowing templates.
#include <optional>
#include <string>

#include "common/block_shape.h"
#include "config/config.h"
#include "usercode/emu/explain_request.h"
#include "usercode/templates/template_spec.h"

namespace cv::usercode {

// Races are checked over every thread of the launch: explain runs at most this many.
constexpr unsigned long long kExplainMaxThreads = 65536;
// The size explain starts from when none is asked for (then halved until the
// launch fits): four blocks of 256 for a 1-D lab; n-body's 1 M interactions
// (at 4,096 bodies its 16 M took seconds to record and analyse).
constexpr long long kExplainStartN = 1024;

// Threads in a launch (grid x block).
unsigned long long launch_threads(const LaunchShape& s);

// The n explain runs `t` at with block `b`. `requested` (a user's --n) is kept
// when its launch fits, else std::invalid_argument names it and the limit.
// Unset: min(kExplainStartN, default_n, emulated_default_n), halved until the
// template's own shape rule gives at most kExplainMaxThreads threads.
long long explain_n(const TemplateSpec& t, const BlockShape& b, std::optional<long long> requested = {});

struct ExplainOptions {
  std::optional<long long> n;        // unset: explain_n's choice
  std::optional<BlockShape> block;   // unset: the template's default block
  std::string file_name = "kernel.cu";  // a plain name: diagnostics and lines refer to it
  PathConfig paths;                  // the host compiler (CXX, PATH) and TMPDIR
  // NVRTC's PTX of the file tells how the GPU's compiler unrolled its loops
  // (emu::UnrolledLoop): `ptx` when the caller compiled this very file for the
  // GPU already (unguarded, as CompileResult::ptx), else a compile here, in a
  // child when the code came from the network (`isolate`).
  std::string ptx;
  bool isolate = false;
};

// Throws std::invalid_argument (a size beyond the limit, a scalar the template
// cannot default) or std::runtime_error (no host compiler), each a sentence.
emu::ExplainRequest make_explain_request(const TemplateSpec& t, const std::string& source,
                                         const ExplainOptions& o = {});

}  // namespace cv::usercode
