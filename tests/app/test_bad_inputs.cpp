// Every bad input the command line can be given, through the real binary:
// each row runs `cudaviz` as a subprocess and checks the exit code and that
// stderr names the value and the limit. The rows, with what the binary
// answered, make the table of docs/bad_inputs.md: the test writes it to the
// build tree (tests/bad_inputs.md) and fails when the committed document
// differs; scripts/bad_inputs.sh regenerates the document from it. A test
// never writes the source tree.
// What differs between machines (free memory, the CUDA devices) is checked
// here against this machine and printed as a placeholder, so that the
// document is the same wherever the test runs on the CPU backend; a machine
// with a CUDA device answers some rows differently and skips the comparison.
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "system/startup.h"

namespace fs = std::filesystem;

namespace {

struct Row {
  std::string group, input;
  std::vector<std::string> args;   // after `cudaviz`; {DIR} is the scratch folder
  int exit_code;                   // expected
  std::vector<std::string> names;  // stderr must contain each (the value, the limit)
  bool display = false;            // opens a window (run under with_xvfb.sh without DISPLAY)
  long long as_limit_mib = 0;      // RLIMIT_AS for the child: allocation failures on demand
  long max_rss_mib = 0;            // the child's peak RSS beyond `cudaviz --help`'s (0: unchecked)
  bool needs_non_root = false;     // permission rows: root reads any file
};

struct Result {
  int code = -1;
  std::string out, err;
  long rss_mib = 0;
  std::string skipped;  // why the row did not run
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string expand(const std::string& a, const std::string& dir) {
  std::string s = a;
  for (size_t p; (p = s.find("{DIR}")) != std::string::npos;) s.replace(p, 5, dir);
  return s;
}

Result run(const Row& row, const std::string& dir) {
  Result r;
  // Root reads any file: permission rows run as `nobody` there.
  const passwd* nobody = getpwnam("nobody");
  const bool drop = row.needs_non_root && geteuid() == 0;
  if (drop && !nobody) {
    r.skipped = "not run: root, and no user 'nobody' to run it as";
    return r;
  }
#ifdef __SANITIZE_ADDRESS__
  if (row.as_limit_mib) {
    r.skipped = "not run under AddressSanitizer (its shadow memory needs the address space)";
    return r;
  }
#endif
  std::vector<std::string> argv;
  // A display of its own (the current one when DISPLAY is set); the exit code is the app's.
  if (row.display)
    argv = {CUDAVIZ_SOURCE_DIR "/tests/window/with_xvfb.sh", "-s", "-screen 0 1280x800x24"};
  argv.push_back(CUDAVIZ_BIN);
  for (const auto& a : row.args) argv.push_back(expand(a, dir));
  const std::string out = dir + "/stdout.txt", err = dir + "/stderr.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
#ifdef __SANITIZE_ADDRESS__
    // A window run ends with allocations LeakSanitizer reports from the GL driver
    // (llvmpipe) and the static CUDA runtime, not from cudaviz: the reason
    // scripts/sanitize.sh leaves the window tests out. Here only the exit code and
    // the message matter; ASan and UBSan errors still end the run.
    if (row.display) {
      const char* asan = std::getenv("ASAN_OPTIONS");
      setenv("ASAN_OPTIONS", (std::string(asan ? asan : "") + ":detect_leaks=0").c_str(), 1);
    }
#endif
    if (drop) {
      if (setgroups(0, nullptr) != 0 || setgid(nobody->pw_gid) != 0 || setuid(nobody->pw_uid) != 0)
        _exit(125);
      if (access(CUDAVIZ_BIN, X_OK) != 0) _exit(126);
    }
    if (row.as_limit_mib) {
      const rlim_t bytes = static_cast<rlim_t>(row.as_limit_mib) << 20;
      rlimit rl{bytes, bytes};
      setrlimit(RLIMIT_AS, &rl);
    }
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (drop && (r.code == 125 || r.code == 126))
    r.skipped = "not run: root, and user 'nobody' cannot " +
                std::string(r.code == 125 ? "be switched to" : "run the binary");
  r.rss_mib = ru.ru_maxrss / 1024;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// The line that answers: the last "cudaviz..." line of stderr before the usage text.
std::string message_of(const std::string& err) {
  std::string last;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("usage:", 0) == 0) break;
    if (line.rfind("cudaviz", 0) == 0) last = line;
  }
  return last;
}

std::string md_cell(std::string s) {
  for (size_t p = 0; (p = s.find('|', p)) != std::string::npos; p += 2) s.replace(p, 1, "\\|");
  return s;
}

// A machine-dependent part of a message: the document shows `placeholder`
// instead of what `pattern` matched; check() says what is wrong with the
// captured value on this machine ("" when it is right).
struct Varying {
  std::regex pattern;  // group 1: the machine's value
  std::string placeholder;
  std::function<std::string(const std::string&)> check;
};

// The host's free memory as the binary reports it (sysinfo's freeram, 0.1 GiB):
// a number between 0 and the host's total memory.
std::string check_free_host_memory(const std::string& gib) {
  struct sysinfo si {};
  if (sysinfo(&si) != 0) return "sysinfo failed";
  const double total = static_cast<double>(si.totalram) * si.mem_unit / (1ull << 30);
  const double v = std::stod(gib);
  if (v <= 0 || v > total + 0.05)
    return "free host memory " + gib + " GiB is not within (0, " + std::to_string(total) + "] GiB";
  return "";
}

// `--device 7` on this machine: exactly the message for the devices CUDA
// counts here (none, and why, on a machine without a driver).
std::string check_device_count(const std::string& text) {
  const std::string want = cv::sys::device_flag_error_here(7).value_or("(accepted)");
  return want == "--device 7: this machine has " + text ? "" : "expected '" + want + "'";
}

const std::vector<Varying>& varying() {
  static const std::vector<Varying> v = {
      {std::regex("host memory free: ([0-9]+\\.[0-9]) GiB"),
       "host memory free: `<free host memory>`", check_free_host_memory},
      {std::regex("--device 7: this machine has (.*)$"),
       "--device 7: this machine has `<N CUDA devices (0 to N-1; CUDA_VISIBLE_DEVICES applies) "
       "or no usable CUDA device (why)>`",
       check_device_count},
  };
  return v;
}

// Checks each machine-dependent part of `msg` and returns the document's text.
std::string machine_independent(const std::string& msg) {
  std::string doc = msg;
  for (const Varying& v : varying()) {
    std::smatch m;
    if (!std::regex_search(doc, m, v.pattern)) continue;
    const std::string wrong = v.check(m[1].str());
    EXPECT_EQ(wrong, "") << "in: " << msg;
    doc = m.prefix().str() + v.placeholder + m.suffix().str();
  }
  return doc;
}

std::vector<Row> rows() {
  const std::vector<std::string> bench = {"bench", "fountain", "--backend", "cpu", "--reps", "1"};
  auto b = [&](std::vector<std::string> extra) {
    auto v = bench;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  auto reduce_input = [](const std::string& file) {
    return std::vector<std::string>{"bench",  "reduce", "--backend", "cpu",
                                    "--reps", "1",      "--input",   "{DIR}/" + file};
  };
  return {
      // Block shapes: CUDA's rules on every backend (the CPU backend checks them too).
      {"block", "x = 0", b({"--block", "0"}), 2, {"block x = 0", "at least 1"}},
      {"block", "negative", b({"--block", "-4,8"}), 2, {"block x = -4", "at least 1"}},
      {"block", "not a number", b({"--block", "abc"}), 2, {"'abc'", "whole number"}},
      {"block", "x*y*z > 1024", b({"--block", "64,32"}), 2, {"64x32", "2048 threads", "1024"}},
      {"block", "x > 1024", b({"--block", "2048"}), 2, {"block x = 2048", "1024"}},
      {"block", "z > 64", b({"--block", "1,1,65"}), 2, {"block z = 65", "64"}},
      {"block", "four dimensions", b({"--block", "1,1,1,1"}), 2, {"'1,1,1,1'", "three"}},
      {"block", "huge number", b({"--block", "99999999999"}), 2, {"99999999999", "out of range"}},
      {"block",
       "2D block for the 1D n-body scene",
       {"--scene", "nbody", "--n", "64", "--block", "64,2", "--frames", "1"},
       2,
       {"64x2", "1D blocks"},
       true},
      {"block",
       "sweep with one bad shape",
       {"sweep", "fountain", "--backend", "cpu", "--shapes", "8x8,0x4"},
       2,
       {"--shapes '8x8,0x4' shape 2", "block x = 0", "at least 1"}},
      {"block",
       "sweep shape list ending in a comma",
       {"sweep", "fountain", "--backend", "cpu", "--shapes", "8x8,"},
       2,
       {"--shapes '8x8,' shape 2", "empty"}},
      // Counts.
      {"count", "0", b({"--n", "0"}), 2, {"--n: 0", "out of range [1, "}},
      {"count", "1 (valid: one particle)", b({"--n", "1"}), 0, {}},
      {"count",
       "1 body for the n-body scene",
       {"--scene", "nbody", "--n", "1"},
       2,
       {"--n: 1", "[2, 32768]"}},
      {"count", "negative", b({"--n", "-5"}), 2, {"--n: -5", "out of range"}},
      {"count", "not a number", b({"--n", "many"}), 2, {"'many'", "not a whole number"}},
      {"count", "above the target's limit", b({"--n", "99999999999"}), 2, {"99999999999", "limit"}},
      {"count",
       "above the scene's limit",
       {"--scene", "fountain", "--n", "100000000"},
       2,
       {"--n: 100000000", "[1, 67108864]"}},
      {"count",
       "more than host memory allows (bench, 1 GiB address space)",
       b({"--n", "67108864"}),
       2,
       {"--n 67108864", "not enough memory", "host memory free: ", "address-space limit: 1.0 GiB"},
       false,
       1024},
      {"count",
       "more than host memory allows (lab data, 1 GiB address space)",
       {"bench", "reduce", "--backend", "cpu", "--reps", "1", "--n", "1073741824"},
       2,
       {"--n 1073741824", "not enough memory",
        "host memory free: ", "address-space limit: 1.0 GiB"},
       false,
       1024},
      {"count",
       "more than host memory allows (scene at start, 2 GiB address space)",
       {"--scene", "fountain", "--n", "67108864", "--frames", "1"},
       2,
       {"67108864 particles", "not enough host memory"},
       true,
       2048},
      // --input files (lab data sets).
      {"file",
       "missing",
       reduce_input("no_such_file.txt"),
       2,
       {"no_such_file.txt", "No such file"}},
      {"file", "a directory", reduce_input("a_directory"), 2, {"a_directory", "is a directory"}},
      {"file",
       "unreadable (mode 000)",
       reduce_input("unreadable.txt"),
       2,
       {"unreadable.txt", "Permission denied"},
       false,
       0,
       0,
       true},
      {"file", "empty", reduce_input("empty.txt"), 2, {"empty.txt", "holds no numbers"}},
      {"file", "binary garbage", reduce_input("garbage.bin"), 2, {"garbage.bin", "binary data"}},
      {"file",
       "non-numeric token",
       reduce_input("words.txt"),
       2,
       {"words.txt' line 2", "\"five\"", "not a decimal integer"}},
      {"file",
       "integer above int32",
       reduce_input("too_big.txt"),
       2,
       {"2147483648", "int32 range [-2147483648, 2147483647]"}},
      {"file",
       "integer below int32",
       reduce_input("too_small.txt"),
       2,
       {"-2147483649", "int32 range"}},
      {"file",
       "5 GiB sparse file",
       reduce_input("sparse_5g.txt"),
       2,
       {"5368709120 bytes", "over 4294967296 bytes are refused"},
       false,
       0,
       64},
      {"file",
       "3 GiB sparse file (zeros)",
       reduce_input("sparse_3g.txt"),
       2,
       {"sparse_3g.txt", "binary data (byte 0x00 at offset 0)"},
       false,
       0,
       64},
      {"file",
       "--n beyond the file's values",
       {"bench", "reduce", "--backend", "cpu", "--n", "9", "--input", "{DIR}/three.txt"},
       2,
       {"--n 9", "3 values"}},
      // Your kernel (docs/kernels.md): refused before any compiler sees it.
      {"file",
       "kernel of binary data",
       {"bench", "kernel", "--backend", "cpu", "--template", "fountain_particle", "--source",
        "{DIR}/garbage.bin"},
       2,
       {"not text"}},
      {"file",
       "10 MB kernel",
       {"bench", "kernel", "--backend", "cpu", "--source", "{DIR}/huge.cu"},
       2,
       {"bytes; a kernel file may be at most 262144 bytes"}},
      {"file",
       "kernel with #include </dev/zero>",
       {"bench", "kernel", "--backend", "cpu", "--source", "{DIR}/include_zero.cu"},
       2,
       {"include_zero.cu:2:", "#include is not available"}},
      {"file",
       "kernel with an unterminated comment",
       {"bench", "kernel", "--backend", "cpu", "--source", "{DIR}/open_comment.cu"},
       2,
       {"open_comment.cu:3:", "never closed"}},
      {"file", "--kernel unreadable", {"--kernel", "{DIR}/no_such.cu", "--frames", "1"}, 2,
       {"--kernel: cannot read"}},
      {"cli", "bench kernel without --source", {"bench", "kernel"}, 2, {"--source FILE.cu is required"}},
      // Command line.
      {"cli", "unknown flag", {"--frobnicate"}, 2, {"unknown flag '--frobnicate'"}},
      // --device: the count of devices is named (none on a machine without a driver).
      {"cli",
       "--device beyond the devices",
       b({"--device", "7"}),
       2,
       {"--device 7: this machine has"}},
      {"cli",
       "--device not a number",
       {"--device", "gpu1"},
       2,
       {"--device: 'gpu1'", "whole number"}},
      {"cli", "doctor with an argument", {"doctor", "--verbose"}, 2, {"doctor takes no arguments"}},
      {"cli",
       "unknown bench flag",
       {"bench", "fountain", "--shapes", "8x8"},
       2,
       {"unknown flag '--shapes'"}},
      {"cli", "missing value", b({"--n"}), 2, {"'--n' needs a value"}},
      {"cli", "empty value", {"--scene="}, 2, {"'--scene' has an empty value"}},
      {"cli",
       "repeated flag",
       {"--frames", "10", "--frames", "20"},
       2,
       {"'--frames' given more than once"}},
      {"cli", "stray argument", {"fountain"}, 2, {"unexpected argument 'fountain'"}},
      {"cli",
       "unknown colour-by",
       {"--colour-by", "rainbow"},
       2,
       {"'rainbow'", "normal, block, warp, thread, sm"}},
      {"cli", "unknown panel", {"--panel", "launch,xray"}, 2, {"'xray'", "occupancy-curve"}},
      {"cli",
       "unknown scene",
       {"--scene", "tetris"},
       2,
       {"'tetris'", "fountain, swarm, nbody, pi"}},
      {"cli", "unknown bench target", {"bench", "tetris"}, 2, {"'tetris'", "known:"}},
      {"cli", "unknown variant", b({"--variant", "turbo"}), 2, {"'turbo'", "lean, original"}},
      {"cli", "unknown backend", {"--backend", "opencl"}, 2, {"'opencl'", "auto, cuda, cpu"}},
      {"cli", "--frames 0", {"--frames", "0"}, 2, {"--frames: 0", "out of range [1, "}},
      {"cli",
       "--reps 0",
       {"bench", "fountain", "--backend", "cpu", "--reps", "0"},
       2,
       {"--reps: 0", "out of range [1, 100000]"}},
      {"cli",
       "--edit-reps 101",
       {"bench", "kernel", "--source", "k.cu", "--backend", "cpu", "--edit-reps", "101"},
       2,
       {"--edit-reps: 101", "out of range [1, 100]"}},
      {"cli", "--size too small", {"--size", "10x10"}, 2, {"--size width: 10", "[64, 16384]"}},
      {"cli", "--size without x", {"--size", "640"}, 2, {"'640'", "WxH"}},
      {"cli", "--soak below 100", {"--soak", "5"}, 2, {"--soak: 5", "[100, "}},
      {"cli",
       "--soak with --frames",
       {"--soak", "500", "--frames", "5"},
       2,
       {"--soak", "--frames"}},
      {"cli", "sweep without --shapes", {"sweep", "fountain"}, 2, {"--shapes is required"}},
      {"cli", "--help with more", {"--help", "x"}, 2, {"--help takes no further arguments"}},
      {"cli",
       "--record with an unknown extension",
       {"--record", "{DIR}/clip.avi"},
       2,
       {"'.avi'", ".mp4, .gif"}},
      {"cli", "--record-ui without --record", {"--record-ui"}, 2, {"--record-ui needs --record"}},
      // Presets (parsed before a window opens; a scripted run refuses unusable values).
      {"preset",
       "missing",
       {"--preset", "{DIR}/no_such.json", "--frames", "1"},
       2,
       {"no_such.json"}},
      {"preset",
       "a directory",
       {"--preset", "{DIR}/a_directory", "--frames", "1"},
       2,
       {"a_directory"}},
      {"preset", "empty", {"--preset", "{DIR}/empty.txt", "--frames", "1"}, 2, {"empty.txt"}},
      {"preset",
       "binary garbage",
       {"--preset", "{DIR}/garbage.bin", "--frames", "1"},
       2,
       {"garbage.bin"}},
      {"preset",
       "not an object",
       {"--preset", "{DIR}/array.json", "--frames", "1"},
       2,
       {"array.json"}},
      {"preset",
       "wrong types",
       {"--preset", "{DIR}/wrong_types.json", "--frames", "1"},
       2,
       {"wrong_types.json", "scenes.fountain.count"}},
      // Lessons: read and checked before a window opens.
      {"lesson", "--step without --lesson", {"--step", "2"}, 2, {"--step K needs --lesson"}},
      // Challenge mode: the template is checked against the registry before a window opens.
      {"challenge", "--challenge an unknown template", {"--challenge", "volcano", "--frames", "1"}, 2,
       {"--challenge: unknown template 'volcano'", "count3"}},
      {"challenge", "--challenge without a name", {"--challenge", "", "--frames", "1"}, 2,
       {"flag '--challenge' has an empty value"}},
      {"lesson", "--step 0", {"--lesson", "{DIR}/lesson.md", "--step", "0"}, 2, {"--step: 0"}},
      {"lesson",
       "missing",
       {"--lesson", "{DIR}/no_such.md", "--frames", "1"},
       2,
       {"no_such.md"}},
      {"lesson",
       "an unknown variant",
       {"--lesson", "{DIR}/bad_lesson.md", "--frames", "1"},
       2,
       {"bad_lesson.md:6: step 1 'Racy'", "field 'run.variant'", "'turbo'", "racy, atomic"}},
      {"lesson",
       "--step past the end",
       {"--lesson", "{DIR}/lesson.md", "--step", "5", "--frames", "1"},
       2,
       {"--step: 5 is past the 1 steps"}},
      // Address space limited: a reader that loads the whole file must not take the machine down.
      {"preset",
       "5 GiB sparse file",
       {"--preset", "{DIR}/sparse_5g.txt", "--frames", "1"},
       2,
       {"sparse_5g.txt"},
       false,
       1024,
       64},
  };
}

void make_inputs(const std::string& dir) {
  fs::create_directories(dir + "/a_directory");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
  };
  write("empty.txt", "");
  write("lesson.md", "# A lesson\n\n## Step: Look\n\n```step\npanel: memory\n```\n");
  write("bad_lesson.md",
        "# A lesson\n\n## Step: Racy\n\n```step\nrun.variant: turbo\nrun: lab count3\n```\n");
  std::string garbage;
  for (int i = 0; i < 256; ++i) garbage.push_back(static_cast<char>((i * 151 + 7) & 0xff));
  write("garbage.bin", garbage);
  write("words.txt", "1 2 3\n4 five 6\n");
  write("too_big.txt", "1 2\n2147483648\n");
  write("too_small.txt", "-2147483649\n");
  write("three.txt", "1 2 3\n");
  write("huge.cu", "// template: fountain_particle\n" + std::string(10 << 20, ' '));
  write("include_zero.cu", "// template: fountain_particle\n#include </dev/zero>\n");
  write("open_comment.cu", "// template: fountain_particle\nint x;\n/* never closed\n");
  write("unreadable.txt", "1 2 3\n");
  chmod((dir + "/unreadable.txt").c_str(), 0);
  write("array.json", "[1, 2, 3]\n");
  write("wrong_types.json",
        R"({"version": 1, "scene": "fountain", "scenes": {"fountain": {"count": "many"}}})");
  // Sparse: gigabytes on paper, nothing on disk.
  for (auto [name, size] : {std::pair{"sparse_5g.txt", 5ll << 30}, {"sparse_3g.txt", 3ll << 30}}) {
    write(name, "");
    ASSERT_EQ(truncate((dir + "/" + name).c_str(), size), 0) << name;
  }
}

}  // namespace

TEST(BadInputs, EveryRowAnswersWithTheExitCodeAndNamesTheValueAndTheLimit) {
  const std::string dir =
      (fs::temp_directory_path() / ("cudaviz_bad_inputs_" + std::to_string(getpid()))).string();
  make_inputs(dir);
  std::ostringstream md;
  md << "# Bad inputs and what cudaviz answers\n\n"
     << "Generated by `scripts/bad_inputs.sh` from `tests/app/test_bad_inputs.cpp` (CTest\n"
     << "`BadInputs.*`), which runs each command against the built binary on the CPU backend\n"
     << "and fails when an exit code or the named value/limit changes, or when this file is\n"
     << "not the table it made. Exit 2: usage error (bad value, unreadable file);\n"
     << "0: accepted. `DIR` holds the test's files; sparse files take no disk space.\n"
     << "Allocation rows run with an address-space limit (RLIMIT_AS) so that they fail the\n"
     << "same way on every machine; the app keeps its previous buffers when a count change\n"
     << "fails at run time (`app.scene_alloc_keeps_buffers`). What differs between machines\n"
     << "(free memory, the CUDA devices) is checked against the machine and shown as\n"
     << "a `<placeholder>`, so that this file is the same wherever the test runs. Permission\n"
     << "rows run as user `nobody` when the test runs as root.\n\n"
     << "| group | input | command | exit | message |\n|---|---|---|---|---|\n";
  // The RSS allowance is on top of what the binary takes to start (larger
  // under the sanitizers): a reader that loaded a GiB file would still be far over.
  Row help;
  help.args = {"--help"};
  const long base_rss_mib = run(help, dir).rss_mib;
  for (const Row& row : rows()) {
    const Result r = run(row, dir);
    std::string cmd = "cudaviz";
    for (const auto& a : row.args) cmd += " " + expand(a, "DIR");
    if (row.as_limit_mib) cmd = "(RLIMIT_AS " + std::to_string(row.as_limit_mib) + " MiB) " + cmd;
    if (!r.skipped.empty()) {
      md << "| " << row.group << " | " << md_cell(row.input) << " | `" << md_cell(cmd) << "` | - | "
         << r.skipped << " |\n";
      continue;
    }
    std::string msg = message_of(r.err);
    for (size_t p; (p = msg.find(dir)) != std::string::npos;) msg.replace(p, dir.size(), "DIR");
    SCOPED_TRACE(row.group + " / " + row.input + ": " + cmd);
    EXPECT_EQ(r.code, row.exit_code) << r.err;
    for (const auto& n : row.names) EXPECT_NE(r.err.find(n), std::string::npos) << "missing: " << n;
    if (row.exit_code != 0) EXPECT_FALSE(msg.empty()) << "no message on stderr: " << r.err;
    if (row.exit_code == 0) EXPECT_NE(r.out.find("{\""), std::string::npos) << r.out;
    if (row.max_rss_mib)
      EXPECT_LT(r.rss_mib, base_rss_mib + row.max_rss_mib)
          << "peak RSS in MiB (cudaviz --help: " << base_rss_mib << ")";
    const std::string doc = row.exit_code == 0 ? "(JSON result lines)" : machine_independent(msg);
    md << "| " << row.group << " | " << md_cell(row.input) << " | `" << md_cell(cmd) << "` | "
       << r.code << " | " << md_cell(doc) << " |\n";
  }
  md << "\nShared memory over the per-block limit cannot be asked for from the command line:\n"
     << "the largest need is 32 KiB (the n-body pairs kernels' tile and reaction partials,\n"
     << "and the energy kernel at 1024 threads), under the 48 KiB every CUDA device allows;\n"
     << "`validate()` checks it at each\n"
     << "launch (tests/cpu/test_block_shape.cpp covers its message).\n";
  fs::remove_all(dir);
  const std::string generated = CUDAVIZ_TEST_OUTPUT_DIR "/bad_inputs.md";
  std::ofstream(generated) << md.str();
  // Compared only where the table is the document's: every row ran (sanitizer
  // builds skip the address-space rows, root without `nobody` the permission
  // rows) and no CUDA device changed an answer.
  const bool complete = md.str().find("| not run") == std::string::npos;
  int devices = 0;
  const bool cuda = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  if (!complete || cuda) {
    std::printf("docs/bad_inputs.md not compared (%s); the table is in %s\n",
                cuda ? "a CUDA device answers some rows differently" : "rows were not run",
                generated.c_str());
    return;
  }
  if (std::getenv("CUDAVIZ_REGENERATING_DOCS")) return;  // scripts/bad_inputs.sh copies it
  EXPECT_EQ(md.str(), slurp(CUDAVIZ_SOURCE_DIR "/docs/bad_inputs.md"))
      << "docs/bad_inputs.md is not what the binary answers now: scripts/bad_inputs.sh "
         "regenerates it (the new table is "
      << generated << ")";
}
