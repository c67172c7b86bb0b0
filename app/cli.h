#pragma once
// The command-line contract (see README.md): parsing only, no side effects.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/block_shape.h"

namespace cv {

// A bad command line: the message names the flag or value and why. Exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  std::string scene = "fountain";
  std::string backend = "auto";
  std::optional<std::string> preset;
  long long frames = 0;  // 0: run until the window is closed
  std::optional<std::string> screenshot;
  std::optional<long long> n;  // particle / body count
  std::optional<BlockShape> block;
  std::optional<std::string> variant;
  // Opens the labs window on this lab and runs it (all variants, its defaults);
  // with --frames the last frame waits for the run, so a screenshot shows the results.
  std::optional<std::string> lab;
  // Tuning windows to open at start (--panel occupancy,device,sweep,frames), and a
  // block-shape sweep to run in the sweep window (--sweep NAME[:SHAPES]); with
  // --frames the last frame waits for the sweep, so a screenshot shows its chart.
  std::vector<std::string> panels;
  std::optional<std::string> sweep;
  std::string renderer = "auto";  // auto | sprites | splat
  int width = 1280, height = 800;
  // --soak N: N frames cycling scenes and counts, memory sampled (app/soak/soak.h);
  // sets frames to N and, unless --size is given, a small window.
  long long soak = 0;
  // Classroom: --scene was given (it then wins over a --preset's scene);
  // --ui-scale S (1..4); --present = high-contrast theme, UI scale 2 unless --ui-scale.
  bool scene_given = false;
  std::optional<float> ui_scale;
  bool present = false;
  // --colour-by normal|block|warp|thread|sm: particles coloured by who computed them.
  std::optional<std::string> colour_by;
  // Frame pacing: --vsync on|off (default on, off for scripted runs) and
  // --fps-cap N (0 = none; see timing/frame_pacing.h for the range).
  std::optional<bool> vsync;
  std::optional<int> fps_cap;
  std::optional<int> device;  // --device N: the CUDA device (default: the GL context's, else 0)
  // --record out.mp4|out.gif: a frame-exact clip of every frame (record/recorder.h);
  // --record-ui keeps the panels in the picture (default: the scene only).
  std::optional<std::string> record;
  bool record_ui = false;
  // --lesson FILE [--step K]: opens the lesson tab at step K (1-based); with
  // --frames N every step from K on is shown N frames, run and checked.
  std::optional<std::string> lesson;
  std::optional<int> lesson_step;
  std::optional<std::string> kernel;  // --kernel FILE.cu: the student's kernel runs in the scene
  // --class-server [[ADDRESS:]PORT]: the class votes from phones (docs/class_server.md).
  // address "": the first interface a class can reach; port -1: the default, 0: any free one.
  bool class_server = false;
  std::string class_address;
  int class_port = -1;
  bool guard = true;  // --guard on|off: every memory access of your kernel checked (docs/guard.md)
  // --challenge TEMPLATE: challenge mode opens on that template (it starts the
  // class server too: docs/class_server.md). Checked against the registry at start.
  std::optional<std::string> challenge;
};


// What `cudaviz bench` takes from the command line; the measurement API
// (bench/bench_options.h: BenchOptions) adds what only the app sets.
struct BenchArgs {
  std::string target;  // scene or lab name
  std::string variant = "all";
  std::optional<long long> n;
  std::optional<BlockShape> block;
  int reps = 0;  // 0: the target's default
  std::optional<std::string> input;
  std::string backend = "auto";
  std::optional<int> device;  // --device N
  // bench kernel: --source FILE.cu and --template NAME (else the file's first line).
  std::optional<std::string> source, template_name;
  bool guard = true;  // --guard on|off (bench kernel); on also times the unguarded kernel
  bool explain = false;  // bench kernel --explain: the emulator's races, sectors, divergence
  std::optional<uint64_t> seed;  // bench kernel --seed S: the verdict's inputs (unset: a new seed)
  int edit_reps = 0;  // bench kernel --edit-reps N: edit to running measured N times (0: the default, 5)
};

struct SweepOptions {
  std::string target;
  std::vector<BlockShape> shapes;
  std::optional<std::string> csv;
  std::string variant;  // empty: the target's default variant
  std::optional<long long> n;
  int reps = 0;
  std::string backend = "auto";
  std::optional<int> device;  // --device N
};

struct Command {
  // Doctor: `cudaviz doctor` (system/doctor.h), no flags.
  enum class Kind { Run, Bench, Sweep, Help, Doctor } kind = Kind::Run;
  RunOptions run;
  BenchArgs bench;
  SweepOptions sweep;
};

// Throws UsageError on anything it does not understand.
Command parse_command_line(const std::vector<std::string>& args);  // args without argv[0]

std::string usage_text();

// Strict number parsing shared by the CLI and the UI: the whole text must be a
// decimal integer within [min, max]; the message names `what` and the limit.
long long parse_integer(const std::string& text, const std::string& what, long long min,
                        long long max);

}  // namespace cv
