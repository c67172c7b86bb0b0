#pragma once
// The pi points behind one interface, made once from the backend: PiSimCuda
// writes the lab's sample points into the vertex target's device memory,
// PiSimCpu computes the same points (pi::write_points_cpu) and puts them into
// the target. Both count the points inside the quarter circle from what was drawn.
#include <cstdint>
#include <memory>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "gl/vertex_target.h"

namespace cv {

class PiSim {
 public:
  virtual ~PiSim() = default;
  // The first count sample points of the stream `seed` into `out` (the GPU
  // validates the block: std::invalid_argument).
  virtual void write(VertexWrite& out, uint64_t seed, const BlockShape& block) = 0;
  // How many of the points last written lie inside (the GPU reads the
  // target's front back: blocks until done).
  virtual unsigned long long inside(VertexTarget& vertices, cudaStream_t s) = 0;
};

// Throws bad_alloc when the points' host copy cannot be allocated.
std::unique_ptr<PiSim> make_pi_sim(Backend backend, unsigned count);

}  // namespace cv
