// cudaviz: the swarm of document 004, the app's own types and math. The text
// below is kernels/swarm/swarm_math.h itself, the file the built-in kernel
// and its CPU twin call: cv::swarm::Particle, Params, Grid, Variant,
// respawn(), step(), age01() mean here exactly what they mean there.
#pragma once
#include "cudaviz_math_shims.h"
#include "cudaviz_swarm_math.h"
