#pragma once
// The guard's step inside compile() (GPU target): NVRTC's PTX -> guarded PTX
// (-> cubin through nvJitLink, except for this machine's GPU). A refusal
// becomes an error at the student's line.
#include <string>

#include "usercode/compile/compile.h"

namespace cv::usercode::guard {

// Fills r.guarded (with the spans' element sizes and the template's size
// rules, for bounds_proof.h). For this machine's GPU r.cubin is left empty:
// the runner's driver JIT compiles r.guarded.ptx as one program (nvJitLink's
// relocatable compile cost up to 18% at run time). For another sm_XY, or
// without a GPU, nvJitLink builds the cubin and r.resources gets its ptxas
// figures; without nvJitLink the runner JIT-compiles it as well.
void guard_result(const std::string& student_file, CompileResult& r);

// The image the runner loads: the guarded cubin, else the guarded PTX (JIT),
// else the unguarded cubin / PTX.
std::vector<char> load_image(const CompileResult& r);

}  // namespace cv::usercode::guard
