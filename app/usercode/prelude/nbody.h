// cudaviz: all-pairs gravity with softening (document 004, GPU Gems 3 ch. 31),
// the app's own math. The text below is kernels/nbody/nbody_math.h itself,
// the file the built-in kernels and the CPU twin call: cv::nbody::inv_sqrt(),
// inv_cube(), accumulate(), ... mean here exactly what they mean there.
#pragma once
#include "cudaviz_math_shims.h"
#include "cudaviz_nbody_math.h"
