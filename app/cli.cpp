#include "cli.h"

#include "timing/frame_pacing.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "insight/launch_model.h"
#include "record/clip_format.h"
#include "registry/scene_registry.h"
#include "widgets/tool_names.h"

namespace cv {

namespace {

// The usage text's scene lines, from the registry (registry/scene_registry.h).
std::string scene_bar() {
  std::string s;
  for (const SceneDescriptor& d : scene_infos()) s += (s.empty() ? "" : "|") + std::string(d.name);
  return s;
}

std::string scene_variant_lines() {
  std::string text = "      --n, --block and --variant apply to the chosen scene:", line = text;
  const auto& all = scene_infos();
  for (size_t i = 0; i < all.size(); ++i) {
    const SceneDescriptor& d = all[i];
    std::string part = std::string(" ") + d.name + " (" +
                       (d.variants.empty() ? "no variants" : d.variants_text()) +
                       (*d.usage_note ? std::string("; ") + d.usage_note : "") + ")" +
                       (i + 1 < all.size() ? "," : ".");
    if (line.size() + part.size() > 86) {
      text += "\n     ";
      line = "     ";
    }
    text += part;
    line += part;
  }
  return text + "\n      In the window: keys " + scene_keys_text() + " switch scenes,";
}

}  // namespace

// long: the --help text is one raw string, printed as written
std::string usage_text() {
  return R"(usage:
  cudaviz [--scene )" + scene_bar() + R"(] [--backend auto|cuda|cpu] [--preset FILE]
          [--frames N] [--screenshot out.png] [--n N] [--block X[,Y[,Z]]]
          [--variant NAME] [--size WxH] [--lab LAB] [--renderer auto|sprites|splat]
          [--panel NAMES] [--sweep NAME[:SHAPES]]
          [--soak N] [--ui-scale S] [--present] [--vsync on|off] [--fps-cap N]
          [--device N]
          [--colour-by normal|block|warp|thread|sm] [--record out.mp4|out.gif [--record-ui]]
          [--lesson FILE [--step K]] [--kernel FILE.cu] [--guard on|off]
          [--class-server [[ADDRESS:]PORT]] [--challenge TEMPLATE]
)" + scene_variant_lines() + R"( Space pause, S step, R reset, C camera,
      P screenshot. --lab opens the labs window and runs that lab (pi, sum3, ...).
      --panel occupancy,device,sweep,frames opens those tuning windows; --sweep
      NAME[:SHAPES] runs a block-shape sweep in the sweep window (with --frames the
      last frame waits for it). --panel launch,memory,reduction,race,occupancy-curve
      opens the views inside the kernel (launch map, one warp's memory accesses,
      reduction step by step, the race lab, occupancy against block size);
      --panel explain shows what your kernel's threads did (docs/emulator.md).
      --kernel FILE.cu runs your fountain kernel instead of the built-in one
      (docs/kernels.md); a fault or time-out brings the built-in back. It opens the
      kernel editor with the file (--panel kernel opens the editor on its own;
      docs/kernel_editor.md). --guard off runs your kernel without the guard that
      checks every memory access before it runs (on by default; docs/guard.md).
      --colour-by block|warp|thread|sm colours each particle by the block, warp, lane
      or SM that computed it this frame (ids written by the kernel itself).
      --renderer: GL point sprites, or the CUDA splatter for millions of particles
      (auto: splat from 2M particles on the CUDA backend).
      --soak N: N frames cycling every scene and two particle counts each, sampling
      host and GPU memory; prints a JSON summary, exits 1 if memory grew >= 1%.
      --preset FILE loads a saved state (assets/presets/*.json); flags given with it
      win. --ui-scale S (1 to 4) scales text and panels; --present is presentation
      mode: high-contrast theme at UI scale 2 (or --ui-scale). F1 in the window lists
      the keys.
      --vsync on|off: wait for the display (default on; off in scripted runs).
      --fps-cap N: at most N frames per second (0: none, else 10 to 1000). The
      simulation advances in fixed 1/60 s steps, as many per frame as time passed,
      so motion looks the same at any frame rate; --frames runs one step a frame.
      --lesson FILE opens a lesson (assets/lessons/*.md, docs/lessons.md) in the lesson
      tab at step K (--step, from 1); PageDown/PageUp or the arrow keys move between
      steps. With --frames N each step is shown N frames, run and checked; the JSON
      summary's "lesson" lists every step's state and values (exit 1 if one failed).
      --class-server [[ADDRESS:]PORT] lets the class vote from phones (docs/class_server.md):
      the server listens on one address (default: the first network interface that is
      not loopback; 127.0.0.1 for this machine only) and port (default 8787; 0: any
      free one) and prints "class server: http://ADDRESS:PORT/ code CODE".
      --challenge TEMPLATE opens challenge mode on a kernel template (count3, fountain,
      nbody, ...): students write the kernel in their browser at ADDRESS:PORT/challenge.html,
      each submission is judged and timed on this machine and ranked (the challenge
      tab). It starts the class server (as --class-server, unless that is given too).
      --device N computes on CUDA device N (also for bench and sweep; default: the
      device that drives the display, else 0).
      --record out.mp4|out.gif records a frame-exact clip (one 1/60 s step per frame,
      H.264 at 60 fps or a GIF at 50 fps) of the scene, or with --record-ui of the
      whole window, through ffmpeg (sudo apt install ffmpeg); until the window closes,
      or for --frames N.
  cudaviz bench <scene-or-lab> [--variant NAME|all] [--n N] [--block X[,Y[,Z]]]
          [--reps R] [--input FILE] [--backend auto|cuda|cpu] [--device N]
  cudaviz bench kernel --source FILE.cu [--template NAME] [--n N] [--block X[,Y[,Z]]] [--explain]
          [--reps R] [--backend auto|cuda|cpu] [--device N] [--guard on|off] [--seed S]
          [--edit-reps N]
          compiles and runs your kernel (docs/kernels.md); the template is the file's
          first line `// template: NAME` unless named; exit 2 on a compile error;
          judged on the template's test set with inputs from a new seed each run
          (--seed S: the seed a verdict reported, to see its failure again);
          --guard on (default) checks every memory access (docs/guard.md) and also
          times the unguarded kernel (guard_ratio), off runs the raw kernel;
          --edit-reps N times compile, load and first launch N times (default 5, 1-100)
  cudaviz sweep <scene-or-lab> --shapes 8x8,16x16,256x1,... [--csv out.csv]
          [--variant NAME] [--n N] [--reps R] [--backend auto|cuda|cpu] [--device N]
  cudaviz doctor      what this machine offers (driver, GPUs, code in this build, OpenGL,
                      display, interop) and how to fix what does not work; exit 1 if the
                      window cannot run here
  cudaviz --help
)";
}

// --guard on|off (docs/guard.md).
static bool guard_flag(const std::string& v) {
  if (v == "on") return true;
  if (v == "off") return false;
  throw UsageError("--guard: '" + v + "' is not on or off");
}

long long parse_integer(const std::string& text, const std::string& what, long long min,
                        long long max) {
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s, &end, 10);
  bool digits_only = !text.empty();
  for (size_t i = 0; i < text.size(); ++i)
    if (!(text[i] >= '0' && text[i] <= '9') && !(i == 0 && (text[i] == '-' || text[i] == '+')))
      digits_only = false;
  if (!digits_only || end != s + text.size())
    throw UsageError(what + ": '" + text + "' is not a whole number");
  if (errno == ERANGE || v < min || v > max)
    throw UsageError(what + ": " + text + " is out of range [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
  return v;
}

namespace {

// Splits "--flag=value" / "--flag value" pairs, refusing repeats and unknowns.
class FlagReader {
 public:
  // `switches` are flags without a value (--present); get() gives them "1".
  FlagReader(const std::vector<std::string>& args, size_t first, std::set<std::string> known,
             const std::set<std::string>& switches = {})
      : known_(std::move(known)) {
    known_.insert(switches.begin(), switches.end());
    for (size_t i = first; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + a + "'");
      std::string name = a, value;
      bool has_value = false;
      if (auto eq = a.find('='); eq != std::string::npos) {
        name = a.substr(0, eq);
        value = a.substr(eq + 1);
        has_value = true;
      }
      if (!known_.count(name)) throw UsageError("unknown flag '" + name + "'");
      if (values_.count(name)) throw UsageError("flag '" + name + "' given more than once");
      if (switches.count(name)) {
        if (has_value) throw UsageError("flag '" + name + "' takes no value");
        values_[name] = "1";
        continue;
      }
      if (!has_value) {
        if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
          throw UsageError("flag '" + name + "' needs a value");
        value = args[++i];
      }
      if (value.empty()) throw UsageError("flag '" + name + "' has an empty value");
      values_[name] = value;
    }
  }
  std::optional<std::string> get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::set<std::string> known_;
  std::map<std::string, std::string> values_;
};

BlockShape block_flag(const std::string& text, const std::string& flag = "--block") {
  std::string err;
  auto b = parse_block_shape(text, &err);
  if (!b) throw UsageError(flag + ": " + err);
  // CUDA's rules apply on every backend; device-specific limits are checked at launch.
  if (auto e = validate(*b)) throw UsageError(flag + ": " + *e);
  return *b;
}

// --device N: the count of devices is checked when CUDA is asked (system/startup.h).
int device_flag(const std::string& v) {
  return static_cast<int>(parse_integer(v, "--device", 0, 1023));
}

std::string backend_flag(const std::string& v) {
  if (v != "auto" && v != "cuda" && v != "cpu")
    throw UsageError("--backend: '" + v + "' is not one of auto, cuda, cpu");
  return v;
}

// A decimal number in [1, 4]: the range the UI's slider offers.
float parse_ui_scale(const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError("--ui-scale: '" + text + "' is not a number, e.g. 2 or 1.5");
  if (v < 1.0 || v > 4.0) throw UsageError("--ui-scale: " + text + " is out of range [1, 4]");
  return static_cast<float>(v);
}

// Counts are bounded by what a 32-bit index covers; memory limits are checked at allocation.
constexpr long long kMaxCount = (1ll << 31) - 1;
// bench/sweep: each target checks its own limit (pi takes up to 2^50 samples).
constexpr long long kMaxBenchCount = 1ll << 50;

// Splits a comma-separated list; an empty item stays (the caller's check names it).
std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    items.push_back(list.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

// Shapes are separated by commas; each shape uses 'x' between its dimensions.
void parse_shapes(const std::string& shapes, SweepOptions& o) {
  for (const std::string& one : split_commas(shapes))
    o.shapes.push_back(
        block_flag(one, "--shapes '" + shapes + "' shape " + std::to_string(o.shapes.size() + 1)));
}

// The flags bench and sweep share, read in the order the errors must surface.
struct SharedBenchFlags {
  std::optional<std::string> n, reps;
  std::string backend;
  std::optional<int> device;
};

SharedBenchFlags read_shared_bench_flags(FlagReader& f) {
  SharedBenchFlags s;
  s.n = f.get("--n");
  s.reps = f.get("--reps");
  s.backend = backend_flag(f.get("--backend").value_or("auto"));
  if (auto d = f.get("--device")) s.device = device_flag(*d);
  return s;
}

Command parse_bench(const std::vector<std::string>& args, FlagReader& f,
                    const SharedBenchFlags& s) {
  Command cmd;
  cmd.kind = Command::Kind::Bench;
  BenchArgs& o = cmd.bench;
  o.target = args[1];
  o.variant = f.get("--variant").value_or("all");
  if (s.n) o.n = parse_integer(*s.n, "--n", 1, kMaxBenchCount);
  if (auto b = f.get("--block")) o.block = block_flag(*b);
  if (s.reps) o.reps = static_cast<int>(parse_integer(*s.reps, "--reps", 1, 100000));
  o.input = f.get("--input");
  o.backend = s.backend;
  o.device = s.device;
  o.source = f.get("--source");
  o.template_name = f.get("--template");
  if (auto g = f.get("--guard")) o.guard = guard_flag(*g);
  o.explain = f.get("--explain").has_value();
  if (auto seed = f.get("--seed"))
    o.seed = static_cast<uint64_t>(parse_integer(*seed, "--seed", 1, (1ll << 62)));
  if (auto e = f.get("--edit-reps")) o.edit_reps = static_cast<int>(parse_integer(*e, "--edit-reps", 1, 100));
  if (o.target == "kernel" && !o.source)
    throw UsageError("bench kernel: --source FILE.cu is required (the kernel to compile and run)");
  return cmd;
}

Command parse_sweep(const std::vector<std::string>& args, FlagReader& f,
                    const SharedBenchFlags& s) {
  Command cmd;
  cmd.kind = Command::Kind::Sweep;
  SweepOptions& o = cmd.sweep;
  o.target = args[1];
  o.variant = f.get("--variant").value_or("");
  if (s.n) o.n = parse_integer(*s.n, "--n", 1, kMaxBenchCount);
  if (s.reps) o.reps = static_cast<int>(parse_integer(*s.reps, "--reps", 1, 100000));
  o.csv = f.get("--csv");
  o.backend = s.backend;
  o.device = s.device;
  auto shapes = f.get("--shapes");
  if (!shapes) throw UsageError("sweep: --shapes is required, e.g. --shapes 8x8,16x16,256x1");
  parse_shapes(*shapes, o);
  return cmd;
}

Command parse_bench_or_sweep(const std::vector<std::string>& args) {
  const bool bench = args[0] == "bench";
  if (args.size() < 2 || args[1].rfind("--", 0) == 0)
    throw UsageError(args[0] + ": name a scene or lab, e.g. 'cudaviz " + args[0] + " fountain'");
  std::set<std::string> known{"--variant", "--n", "--reps", "--backend", "--device"};
  if (bench) {
    known.insert({"--block", "--input"});
    if (args[1] == "kernel") known.insert({"--source", "--template", "--guard", "--seed", "--edit-reps"});
  } else {
    known.insert({"--shapes", "--csv"});
  }
  std::set<std::string> switches;
  if (bench && args[1] == "kernel") switches.insert("--explain");
  FlagReader f(args, 2, known, switches);
  const SharedBenchFlags s = read_shared_bench_flags(f);
  return bench ? parse_bench(args, f, s) : parse_sweep(args, f, s);
}

// Comma-separated; the names are the tools --panel opens (widgets/tool_names.h).
void parse_panels(const std::string& list, RunOptions& o) {
  const std::vector<std::string> names = ui::panel_flag_names();
  for (const std::string& one : split_commas(list)) {
    if (std::find(names.begin(), names.end(), one) == names.end()) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
      throw UsageError("--panel: '" + one + "' is not one of " + known);
    }
    o.panels.push_back(one);
  }
}

// --scene, --backend, --preset, --frames, --soak, --screenshot, --n, --block, --variant, --lab.
void parse_run_workload(FlagReader& f, RunOptions& o) {
  if (auto s = f.get("--scene")) {
    if (!parse_scene(*s))
      throw UsageError("--scene: '" + *s + "' is not one of " + scene_names_text());
    o.scene = *s;
    o.scene_given = true;
  }
  o.backend = backend_flag(f.get("--backend").value_or("auto"));
  o.preset = f.get("--preset");
  if (auto fr = f.get("--frames")) o.frames = parse_integer(*fr, "--frames", 1, 1ll << 40);
  if (auto sk = f.get("--soak")) {
    if (o.frames) throw UsageError("--soak N runs N frames: leave out --frames");
    o.soak = o.frames = parse_integer(*sk, "--soak", 100, 1ll << 40);
    if (!f.get("--size")) o.width = 320, o.height = 240;  // the soak is about memory, not pixels
  }
  o.screenshot = f.get("--screenshot");
  if (auto n = f.get("--n")) o.n = parse_integer(*n, "--n", 1, kMaxCount);
  if (auto b = f.get("--block")) o.block = block_flag(*b);
  o.variant = f.get("--variant");
  o.lab = f.get("--lab");
  o.kernel = f.get("--kernel");
  if (auto g = f.get("--guard")) o.guard = guard_flag(*g);
}

// --panel, --colour-by, --sweep, --ui-scale, --present, --device, --renderer.
void parse_run_view(FlagReader& f, RunOptions& o) {
  if (auto p = f.get("--panel")) parse_panels(*p, o);
  if (auto c = f.get("--colour-by")) {
    if (!insight::parse_colour_by(*c))
      throw UsageError("--colour-by: '" + *c + "' is not one of " + insight::kColourByNames);
    o.colour_by = *c;
  }
  o.sweep = f.get("--sweep");  // the target and shapes are checked when the window opens
  if (auto u = f.get("--ui-scale")) o.ui_scale = parse_ui_scale(*u);
  o.present = f.get("--present").has_value();
  if (auto d = f.get("--device")) o.device = device_flag(*d);
  if (auto r = f.get("--renderer")) {
    if (*r != "auto" && *r != "sprites" && *r != "splat")
      throw UsageError("--renderer: '" + *r + "' is not one of auto, sprites, splat");
    o.renderer = *r;
  }
}

// --record FILE (.mp4 or .gif; ffmpeg is looked for when the window opens), --record-ui.
void parse_run_record(FlagReader& f, RunOptions& o) {
  o.record = f.get("--record");
  if (o.record)
    if (auto err = record::check_clip_path(*o.record)) throw UsageError("--record: " + *err);
  o.record_ui = f.get("--record-ui").has_value();
  if (o.record_ui && !o.record) throw UsageError("--record-ui needs --record out.mp4|out.gif");
}

// --vsync, --fps-cap, --size.
void parse_run_window(FlagReader& f, RunOptions& o) {
  if (auto v = f.get("--vsync")) {
    if (*v != "on" && *v != "off") throw UsageError("--vsync: '" + *v + "' is not one of on, off");
    o.vsync = *v == "on";
  }
  if (auto c = f.get("--fps-cap")) {
    const long long cap = parse_integer(*c, "--fps-cap", 0, pacing::kMaxFpsCap);
    if (auto err = pacing::check_fps_cap(cap)) throw UsageError("--fps-cap: " + *err);
    o.fps_cap = static_cast<int>(cap);
  }
  if (auto sz = f.get("--size")) {
    auto x = sz->find('x');
    if (x == std::string::npos) throw UsageError("--size: '" + *sz + "' is not WxH, e.g. 1280x800");
    o.width = static_cast<int>(parse_integer(sz->substr(0, x), "--size width", 64, 16384));
    o.height = static_cast<int>(parse_integer(sz->substr(x + 1), "--size height", 64, 16384));
  }
}

// --class-server [[ADDRESS:]PORT]: one IPv4 address (never 0.0.0.0: every
// interface), a port in [0, 65535]; "default" when no value was given.
void parse_class_server(const std::string& v, RunOptions& o) {
  o.class_server = true;
  if (v == "default") return;
  const auto colon = v.rfind(':');
  std::string port = v;
  if (v.find('.') != std::string::npos) {  // an address, maybe with a port
    o.class_address = v.substr(0, colon == std::string::npos ? v.size() : colon);
    port = colon == std::string::npos ? "" : v.substr(colon + 1);
    in_addr a{};
    if (inet_pton(AF_INET, o.class_address.c_str(), &a) != 1)
      throw UsageError("--class-server: '" + o.class_address + "' is not an IPv4 address");
    if (a.s_addr == htonl(INADDR_ANY))
      throw UsageError("--class-server: 0.0.0.0 is every interface: name one address");
  }
  if (!port.empty())
    o.class_port = static_cast<int>(parse_integer(port, "--class-server port", 0, 65535));
}

Command parse_run(const std::vector<std::string>& in) {
  // --class-server's value may be left out: the default address and port.
  std::vector<std::string> args = in;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i] == "--class-server" && (i + 1 == args.size() || args[i + 1].rfind("--", 0) == 0))
      args.insert(args.begin() + static_cast<long>(i) + 1, "default");
  FlagReader f(args, 0,
               {"--scene", "--backend", "--preset", "--frames", "--screenshot", "--n", "--block",
                "--variant", "--size", "--lab", "--renderer", "--soak", "--ui-scale", "--panel",
                "--sweep", "--vsync", "--fps-cap", "--device", "--colour-by", "--record", "--lesson",
                "--step", "--kernel", "--guard", "--class-server", "--challenge"},
               {"--present", "--record-ui"});
  Command cmd;
  parse_run_workload(f, cmd.run);
  parse_run_view(f, cmd.run);
  parse_run_window(f, cmd.run);
  parse_run_record(f, cmd.run);
  cmd.run.lesson = f.get("--lesson");  // read and checked before the window opens
  if (auto k = f.get("--step")) {
    if (!cmd.run.lesson) throw UsageError("--step K needs --lesson FILE");
    cmd.run.lesson_step = static_cast<int>(parse_integer(*k, "--step", 1, 10000));
  }
  if (auto c = f.get("--class-server")) parse_class_server(*c, cmd.run);
  if (auto c = f.get("--challenge")) {
    if (c->empty()) throw UsageError("--challenge: give a template name (count3, fountain, ...)");
    cmd.run.challenge = *c;
    cmd.run.class_server = true;  // the students reach it through the class server
  }
  return cmd;
}

}  // namespace

Command parse_command_line(const std::vector<std::string>& args) {
  Command cmd;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    if (args.size() > 1) throw UsageError("--help takes no further arguments");
    cmd.kind = Command::Kind::Help;
    return cmd;
  }
  if (!args.empty() && args[0] == "doctor") {
    if (args.size() > 1) throw UsageError("doctor takes no arguments (got '" + args[1] + "')");
    cmd.kind = Command::Kind::Doctor;
    return cmd;
  }
  if (!args.empty() && (args[0] == "bench" || args[0] == "sweep"))
    return parse_bench_or_sweep(args);
  return parse_run(args);
}

}  // namespace cv
