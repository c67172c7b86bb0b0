#pragma once
// The configuration's process-wide parts, handed to kernels/ once at start-up
// (kernels read no environment): the fault injection spec, the CPU twins'
// SIMD path and the n-body fast build. Malformed or unusable values are
// reported on stderr and ignored, as when the kernels read them themselves.
#include <ostream>

#include "config/config.h"

namespace cv {

void apply_config_to_kernels(const Config& config, std::ostream& err);

}  // namespace cv
