#pragma once
// The guard's step inside compile() (GPU target): NVRTC's PTX -> guarded PTX
// -> cubin (nvJitLink). A refusal becomes an error at the student's line.
#include <string>

#include "usercode/compile/compile.h"

namespace cv::usercode::guard {

// Fills r.guarded; for an sm_XY arch replaces r.cubin with the guarded cubin
// and r.resources with its ptxas figures. Without nvJitLink the cubin is left
// empty and the runner JIT-compiles r.guarded.ptx (the driver's JIT).
void guard_result(const std::string& student_file, CompileResult& r);

// The image the runner loads: the guarded cubin, else the guarded PTX (JIT),
// else the unguarded cubin / PTX.
std::vector<char> load_image(const CompileResult& r);

}  // namespace cv::usercode::guard
