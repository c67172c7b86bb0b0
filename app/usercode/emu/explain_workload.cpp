#include "usercode/emu/explain_workload.h"

#include <stdexcept>

#include "emu_app_prelude.h"
#include "fountain/fountain.h"

namespace cv::emu {
namespace {

constexpr long long kMaxThreads = 65536;  // races are checked over the whole launch

template <class T>
struct SpanArg {
  T* data;
  unsigned long long size;
};

struct Count3Storage {
  std::vector<int> data;
  std::vector<unsigned long long> count = std::vector<unsigned long long>(1, 0);
  SpanArg<const int> data_arg;
  SpanArg<unsigned long long> count_arg;
};

struct PiStorage {
  unsigned long long n, seed = 1;
  std::vector<unsigned long long> hits = std::vector<unsigned long long>(1, 0);
  SpanArg<unsigned long long> hits_arg;
};

struct Ids {
  unsigned* ids;
  int mode;
};

struct FountainStorage {
  std::vector<float4> in, out;
  std::vector<float> vy;
  SpanArg<const float4> in_arg;
  SpanArg<float4> out_arg;
  SpanArg<float> vy_arg;
  fountain::Grid g;
  fountain::Frame f;
  fountain::Params p;
  Ids ids{nullptr, 0};
};

template <class T>
usercode::BufferView view(std::vector<T>& v, const std::string& name, bool writable) {
  return {v.data(), v.size() * sizeof(T), static_cast<unsigned>(sizeof(T)), name, writable};
}

unsigned ceil_div(long long a, long long b) { return static_cast<unsigned>((a + b - 1) / b); }

}  // namespace

// The app's cudaviz.h and, for each template explain knows, its header. A
// whole kernel's declaration is the student's own definition (extern "C"),
// so its header may stay empty; the per-particle function needs its
// declaration and the GPU wrapper kernel (the registry's texts live in the
// app, not in this process).
std::vector<TextFile> app_prelude_headers() {
  return {{"cudaviz.h", app_prelude::cudaviz_h},
          {"cudaviz_count3.h", "// count3: a whole kernel\n"},
          {"cudaviz_pi.h", "// pi: a whole kernel\n"},
          {"cudaviz_fountain_kernel.h", "// fountain_kernel: a whole kernel\n"},
          {"cudaviz_fountain_particle.h",
           "CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,\n"
           "                         const cv::Params& p);\n"},
          {"cudaviz_fountain_particle_gpu.h", app_prelude::fountain_particle_gpu_h}};
}

Workload make_workload(const std::string& tmpl, long long n, unsigned bx, unsigned by) {
  Workload w;
  if (tmpl == "count3") {
    bx = bx ? bx : 256, by = by ? by : 1;
    w.n = n > 0 ? n : 4096;
    if (w.n > kMaxThreads) throw std::invalid_argument("explain runs count3 on at most " + std::to_string(kMaxThreads) + " elements");
    auto s = std::make_shared<Count3Storage>();
    s->data.resize(static_cast<size_t>(w.n));
    for (size_t i = 0; i < s->data.size(); ++i) s->data[i] = static_cast<int>((i * 2654435761u) % 1000);
    s->data_arg = {s->data.data(), s->data.size()};
    s->count_arg = {s->count.data(), 1};
    w.entry = "count3";
    w.includes = {"cudaviz.h", "cudaviz_count3.h"};
    w.params = {&s->data_arg, &s->count_arg};
    w.buffers = {view(s->data, "data", false), view(s->count, "count", true)};
    w.shape.grid[0] = ceil_div(w.n, 1ll * bx * by);
    w.storage = s;
  } else if (tmpl == "pi") {
    bx = bx ? bx : 256, by = by ? by : 1;
    w.n = n > 0 ? n : 1 << 18;
    if (w.n > 64 * kMaxThreads) throw std::invalid_argument("explain runs pi on at most " + std::to_string(64 * kMaxThreads) + " samples");
    auto s = std::make_shared<PiStorage>();
    s->n = static_cast<unsigned long long>(w.n);
    s->hits_arg = {s->hits.data(), 1};
    w.entry = "pi_samples";
    w.includes = {"cudaviz.h", "cudaviz_pi.h"};
    w.params = {&s->n, &s->seed, &s->hits_arg};
    w.buffers = {view(s->hits, "hits", true)};
    w.shape.grid[0] = ceil_div(w.n, 64ll * bx * by);
    w.storage = s;
  } else if (tmpl == "fountain_kernel" || tmpl == "fountain_particle" || tmpl == "seed_fountain") {
    bx = bx ? bx : 16, by = by ? by : (bx >= 16 ? 16 : 1);
    w.n = n > 0 ? n : 4096;
    if (w.n > kMaxThreads) throw std::invalid_argument("explain runs the fountain on at most " + std::to_string(kMaxThreads) + " particles");
    auto s = std::make_shared<FountainStorage>();
    s->g = fountain::make_grid(static_cast<unsigned>(w.n));
    fountain::InitialState st = fountain::initial_state(s->g, s->p, 42);
    s->in = st.positions;
    s->vy = st.vy;
    s->out.resize(s->in.size());
    fountain::FrameClock clock(7);
    s->f = clock.next(s->p);
    s->in_arg = {s->in.data(), s->in.size()};
    s->out_arg = {s->out.data(), s->out.size()};
    s->vy_arg = {s->vy.data(), s->vy.size()};
    w.entry = "fountain_step";
    if (tmpl == "fountain_particle") {
      w.includes = {"cudaviz.h", "cudaviz_fountain_particle.h"};
      w.after = "\n#include \"cudaviz_fountain_particle_gpu.h\"\n";
    } else {
      w.includes = {"cudaviz.h", "cudaviz_fountain_kernel.h"};
    }
    w.params = {&s->in_arg, &s->out_arg, &s->vy_arg, &s->g, &s->f, &s->p, &s->ids};
    w.buffers = {view(s->in, "in", false), view(s->out, "out", true), view(s->vy, "vy", true)};
    w.shape.grid[0] = ceil_div(s->g.width, bx);
    w.shape.grid[1] = ceil_div(s->g.height, by);
    w.storage = s;
  } else {
    throw std::invalid_argument("explain knows the templates count3, pi, fountain_kernel and fountain_particle, not '" +
                                tmpl + "'");
  }
  w.shape.block[0] = bx;
  w.shape.block[1] = by;
  return w;
}

}  // namespace cv::emu
