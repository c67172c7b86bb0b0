#pragma once
// A template of "Your kernel" is a registered part, like a scene or a lab:
// its file in assets/kernels/ and one TemplateSpec registered from its own
// small file (app/usercode/templates/<name>_template.cpp,
// `const TemplateRegistrar reg(...)`). The spec says everything the app, the
// runner and bench need: what it feeds, the entry point and its declaration,
// every argument (cv::Span buffers with their element type, size rule,
// direction and source; scalar parameters), the launch-shape rule, the
// reference it is checked against and whether it also runs on the CPU.
// Nothing else in the app knows a template by name.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "usercode/wire/launch_request.h"

namespace cv::usercode {

enum class Feeds { Scene, Lab };
const char* to_string(Feeds f);  // "scene" / "lab"

// What one launch is for: the size, the data's seed, the block, and what the
// feeder (a scene, a lab, bench) supplies by argument name.
struct Workload {
  long long n = 0;
  uint64_t seed = 1;
  BlockShape block;
  int reps = 1;
  int step = 0;            // steps since the last reset (a scene's replayed frames)
  bool reset = false;      // (re)initialise runner-kept state (from `init`, else zeros)
  bool read_back = true;   // spans marked read_back come back in the reply
  bool read_state = false; // runner-kept spans written by the kernel come back too (the verdict checks them)
  std::map<std::string, SharedBuffer> shared;        // the app's buffers, by span name
  std::map<std::string, std::vector<char>> scalars;  // scalar bytes by name (win over the default)
  std::map<std::string, std::vector<char>> init;     // a runner-kept span's first bytes, by name
  std::map<std::string, long long> values;           // numbers the rules read ("colour_by")
  // A generated span's generator when not the template's (a verdict case's edge values).
  std::map<std::string, std::string> generators;
  // Prefixed to the names of runner-kept spans, so a verdict's state in the
  // app's runner is apart from the scene's ("" for the scene's own).
  std::string state_scope;
  long long value(const std::string& key, long long fallback = 0) const {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
};

enum class Access { Read, Write, ReadWrite };  // Read: cv::Span<const T>

struct SpanSpec {
  std::string elem_type;  // as declared: "const int", "unsigned long long", "float4"
  unsigned elem_bytes = 1;
  Access access = Access::Read;
  std::string size_text;  // the size rule in words ("n", "1") for the docs and the prelude view
  // Another span argument whose size this one always has (make_launch holds it
  // to that): the guard then proves `out[i]` under `i < in.size` (bounds_proof.h).
  std::string same_size_as;
  std::function<unsigned long long(const Workload&)> size;
  // Shared: the feeder's buffer of this name, else runner-kept state of this name.
  SpanArg::From source = SpanArg::From::Zero;
  std::string generator;   // Generate: a name in the runner's table (data_generators.h)
  bool read_back = false;  // the reply carries it (never for a buffer the app shares)
  // Runner-kept spans: their first bytes on a reset when the feeder gives none
  // (unset: zeros, or the generator's data when one is named).
  std::function<std::vector<char>(const Workload&)> init;
  // Bytes after the span when the parameter is a struct starting with one (cv::Ids' mode).
  std::function<std::vector<char>(const Workload&)> tail;
  std::string param_type;  // the declared type when not cv::Span<elem_type> ("cv::Ids")
};

struct ScalarSpec {
  std::string type;  // as declared: "unsigned long long", "cv::Params"
  // The default bytes; Workload::scalars[name] wins. Unset: the feeder must give them.
  std::function<std::vector<char>(const Workload&)> value;
  // Unsigned fields never larger than some spans' sizes (a grid's count of
  // particles): make_launch holds every launch to it, and the guard proves
  // `in[i]` under `i < g.count` by it (bounds_proof.h).
  struct AtMost {
    unsigned offset = 0, bytes = 4;  // the field in the scalar's bytes
    std::vector<std::string> spans;
  };
  std::vector<AtMost> at_most;
};

struct ArgSpec {
  std::string name;
  bool is_span = false;
  SpanSpec span;
  ScalarSpec scalar;
};
inline ArgSpec span_arg(std::string name, SpanSpec s) { return {std::move(name), true, std::move(s), {}}; }
inline ArgSpec scalar_arg(std::string name, ScalarSpec s) { return {std::move(name), false, {}, std::move(s)}; }

// The first element of a launch's read-back that is not the reference's, in
// words: "out[996].y", expected and got as text ("NaN" where it is one) and the
// tolerance it was allowed ("" when the check is exact).
struct Mismatch {
  std::string element, expected, got, tolerance;
};

// A check's verdict on one launch's read-back buffers: "result", "reference",
// and more fields where the template has them (pi's estimate).
struct CheckResult {
  bool correct = false;
  std::optional<Mismatch> mismatch;  // when !correct
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
};

// A check of one launch: given the case's workload and what came back, right or not.
using Check = std::function<CheckResult(const Workload&, const ReadBack&, Backend)>;
// A check made ready from the workload alone: its reference (the costly part:
// a CPU twin's steps, a count over 16M values) computed, so a verdict can
// prepare it while the kernel compiles (usercode/client/verdict.h).
using PrepareCheck = std::function<Check(const Workload&, Backend)>;
// The check that prepares, then checks (one definition for both uses).
inline Check prepared_check(PrepareCheck prepare) {
  return [prepare](const Workload& w, const ReadBack& rb, Backend b) { return prepare(w, b)(w, rb, b); };
}

// One input of a template's test set (usercode/client/verdict.h judges a kernel on all
// of them): its size and block, how many steps from its start, and its inputs.
struct VerdictCase {
  std::string name;   // in words: "n = 997 (prime)", "a bounce at the table's edge"
  long long n = 0;    // 0: the workload's own n (the demo's default case)
  std::optional<BlockShape> block;  // unset: the workload's (the sliders', the lab's)
  int steps = 1;      // launches in a row from the case's start (ping-pong), the last one read back
  // The case's inputs, drawn from w.seed (the verdict's): first bytes of
  // runner-kept spans (w.init), generators (w.generators), scalars (w.scalars).
  std::function<void(Workload&)> setup;
  // The case's own check when its inputs need one (a scene's constructed
  // state); unset: the template's. `prepare`, when set, is the same check
  // made ready before the launch (check = prepared_check(prepare)).
  Check check;
  PrepareCheck prepare;
};

// A reference document's version of the template, shipped beside it.
struct Example {
  std::string name, description, file;
};

// How the template runs on the CPU backend.
enum class CpuForm {
  Emulated,  // a whole __global__ kernel: the emulator runs it (app/usercode/emu)
  Items,     // a host entry over work items (a per-particle function's loop), on threads
};

struct TemplateSpec {
  std::string name;         // `// template: NAME`, --template NAME
  std::string description;  // one sentence for the editor's list
  std::string file;         // under assets/kernels/
  int order = 0;            // place in the editor's list (then by name)
  Feeds feeds = Feeds::Lab;
  std::string feeds_name;   // the scene or lab it feeds; also its bench target ("fountain", "count3")
  std::string entry;        // the extern "C" __global__ kernel the GPU launches
  std::string student_function;  // what the student writes, when not `entry` (fault messages)
  // What the student's file must define, shown in the prelude view and
  // compiled before the student's code: `notes` (comment lines: how it is
  // launched), then `declaration`, which, left empty, is the entry point's
  // extern "C" __global__ declaration made from `args`.
  std::string notes;
  std::string helpers;  // code the template adds before the declaration (a device helper)
  std::string declaration;
  std::vector<ArgSpec> args;  // in parameter order
  std::function<LaunchShape(const Workload&)> shape;
  // Bytes of extern __shared__ memory a thread of the block has: make_launch
  // gives every launch this many times the block's threads (`shape` leaves
  // it), and the guard proves `s[t]` and its mirror `s[threads - 1 - t]` from
  // it (bounds_proof.h). 0: none.
  unsigned shared_bytes_per_thread = 0;
  // Runner-kept spans swapped after every rep (ping-pong buffers).
  std::vector<std::pair<std::string, std::string>> swaps;
  // Code compiled after the student's on each target (a per-item function's
  // wrapper kernel / host loop); "" for whole kernels.
  std::string gpu_epilogue, cpu_epilogue;
  CpuForm cpu_form = CpuForm::Emulated;
  std::string cpu_entry;  // Items: the host entry `void(void** params, ull begin, ull end)`
  std::function<unsigned long long(const Workload&)> cpu_items;
  // The check of one launch: given the case's workload (its reps = the case's
  // steps, its inputs as the case set them) and what came back, right or not.
  std::string reference_text;  // what it is checked against, in words
  Check check;
  PrepareCheck prepare;  // optional: `check` made ready from the workload (check = prepared_check(prepare))
  // The test set the check runs (usercode/client/verdict.h): the demo's default
  // first, then sizes that are multiples of no block, edge values, and for the
  // scenes states that reach every branch. Empty: the default case alone.
  std::vector<VerdictCase> cases;
  // How tolerances are derived, for the docs and the prelude view ("" exact).
  std::string tolerance_text;
  // Sizes and defaults for bench kernel and the labs window.
  long long default_n = 1 << 24, max_n = 1ll << 30;
  // bench kernel's n on the CPU backend for a whole kernel (the emulator runs
  // each GPU thread on a CPU core's time): the smaller of this and default_n.
  long long emulated_default_n = 1 << 20;
  BlockShape default_block{256, 1, 1};
  uint64_t default_seed = 1;  // the data's seed (the lab's own, so yours runs on its data)
  std::string rate_name;                      // bench's throughput field ("gb_per_s")
  std::function<double(long long n)> rate;    // its units per launch (bytes / 1e9, particles)
  std::string builtin_variant;                // bench: the built-in the frame overhead is taken against
  // bench: the built-in variants of the feeds_name target measured beside it
  // (`vs`, same n and block); empty: every one that runs on the same backend.
  std::vector<std::string> vs_variants;
  // bench kernel --backend cpu: the lab's or scene's built-in CPU variant of
  // the same algorithm on the same cores (count3's "cpu_threads", not the
  // serial one nor sum3's sorted one): the fair twin, its ratio `vs_cpu_twin`.
  std::string cpu_twin;
  std::vector<Example> examples;

  const ArgSpec* arg(const std::string& arg_name) const {
    for (const ArgSpec& a : args)
      if (a.name == arg_name) return &a;
    return nullptr;
  }
};

// A template's first launch at this size and block on its own data: a reset
// from the template's seed, nothing read back (bench, explain).
Workload first_launch(const TemplateSpec& t, long long n, const BlockShape& block);

// The launch a workload asks of a template's kernel (the size rules, sources
// and shape applied). Throws std::invalid_argument when the feeder left out a
// scalar the template cannot default.
LaunchRequest make_launch(const TemplateSpec& t, const Workload& w, const std::string& module = "editor");

// The generator a generated span of this workload uses: the workload's
// override (a verdict case's), else the span's own.
std::string generator_of(const Workload& w, const std::string& span, const SpanSpec& s);

// The prelude's text for the template: its notes and declaration.
std::string declaration_text(const TemplateSpec& t);

// The argument list as the kernel declares it ("cv::Span<const int> data, cv::Span<unsigned long long> count").
std::string parameter_text(const TemplateSpec& t);

// Whether the emulator runs the template's kernel on `backend` (a whole kernel on the CPU).
inline bool emulated_on(const TemplateSpec& t, Backend backend) {
  return backend == Backend::Cpu && t.cpu_form == CpuForm::Emulated;
}
// The template's default size on `backend`: the emulator's, smaller, where it runs the kernel.
inline long long default_n_on(const TemplateSpec& t, Backend backend) {
  return emulated_on(t, backend) ? std::min(t.default_n, t.emulated_default_n) : t.default_n;
}

}  // namespace cv::usercode
