#pragma once
// A launch as the launch map draws it: which thread handles which element,
// which threads exit early, and how the blocks fill the device in waves. Pure
// host code over the shared index functions (launch_ids.h), so the CPU backend
// draws the same map and tests compare it with what the kernels report.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "insight/launch_ids.h"

namespace cv::insight {

// --colour-by / preset spellings: normal, block, warp, thread, sm.
const char* to_string(ColourBy c);
std::optional<ColourBy> parse_colour_by(const std::string& name);
constexpr const char* kColourByNames = "normal, block, warp, thread, sm";

// How a kernel maps threads to elements (the particle scenes' layouts).
enum class Layout {
  Grid2d,  // fountain: x from x, y from y (block.z unused)
  RowsYz,  // swarm: y and z threads together walk rows
  Flat,    // 1D kernels (n-body, labs): the block flattened, `per_thread` elements a thread
};

struct ElementLaunch {
  Layout layout = Layout::Flat;
  unsigned width = 0, height = 1;  // element grid (Flat: width = count)
  unsigned long long count = 0;    // elements; row-major over width x height
  Dim3u block;
  unsigned per_thread = 1;  // Flat only: elements a thread handles (pi points: 3)
  std::string name;         // e.g. "fountain step_lean"
};

ElementLaunch make_launch(Layout layout, unsigned width, unsigned height, unsigned long long count,
                          const BlockShape& block, std::string name = "");

Dim3u grid_of(const ElementLaunch& l);
unsigned long long blocks_of(const ElementLaunch& l);

// The first element a thread handles, or -1 when the thread exits early (tail).
long long element_of_thread(const ElementLaunch& l, const Dim3u& block, const Dim3u& thread);
// The thread that handles element i (i < count).
ThreadPos thread_of_element(const ElementLaunch& l, unsigned long long i);

// The id launch_id() gives element i's thread in `mode` (SM ids cannot be
// modelled: mode Sm gives 0).
uint32_t model_id(const ElementLaunch& l, unsigned long long i, ColourBy mode);
// The same for every element, threaded: the CPU backend's ids pass.
void fill_ids(const ElementLaunch& l, ColourBy mode, uint32_t* out);

// The launch map's numbers. Threads of a block past the shape's last whole
// warp still take a whole warp slot (partial warps).
struct LaunchSummary {
  Dim3u grid;
  unsigned long long blocks = 0;
  unsigned long long threads_launched = 0, threads_working = 0, threads_idle = 0;
  unsigned long long warps = 0;           // launched, a partial warp counts as one
  unsigned long long idle_warps = 0;      // warps with no working thread
  unsigned long long partial_blocks = 0;  // blocks with some idle threads
  int resident_per_sm = 0, sm_count = 0;  // inputs (0: unknown)
  unsigned long long waves = 0;           // ceil(blocks / (SMs x resident))
  double waves_exact = 0;                 // blocks / (SMs x resident)
  double last_wave_fill = 0;              // blocks in the last wave / a full wave
};
LaunchSummary summarize(const ElementLaunch& l, int resident_per_sm, int sm_count);

// Threads of block `block_lin` that have an element.
unsigned long long block_working_count(const ElementLaunch& l, unsigned long long block_lin);

// Per thread of one block: its warp and whether it works, for the block picture.
struct BlockThreads {
  Dim3u block_dim;
  std::vector<unsigned char> working;  // thread_linear order
  unsigned working_count = 0;
};
BlockThreads block_threads_of(const ElementLaunch& l, unsigned long long block_lin);

}  // namespace cv::insight
