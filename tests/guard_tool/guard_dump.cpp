// guard_dump: a developer's look at what the guard does to one kernel
// (docs/guard.md). For each FILE.cu: NVRTC's PTX and the guarded PTX, both
// cubins (nvJitLink), and one line of figures: registers unguarded and
// guarded, the guard's counts (memory, checked, grouped, proven), and the PTX
// instructions inside innermost loops (the guard's static cost where it
// matters). scripts/gpu_guard_table.sh runs it on the GPU machine so that
// cuobjdump can count the SASS too.
//   guard_dump [--arch sm_90] [--out DIR] FILE.cu...
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "usercode/compile/compile.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_loops.h"
#include "usercode/guard/ptx_guard.h"

namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

void spit(const std::filesystem::path& p, const std::vector<char>& bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

int dump(const std::string& file, const std::string& arch, const std::string& out_dir) {
  using namespace cv::usercode;
  CompileRequest req;
  req.source = slurp(file);
  req.arch = arch;
  req.file_name = std::filesystem::path(file).filename().string();
  const CompileResult raw = compile(req);
  req.guard = true;
  const CompileResult g = compile(req);
  if (!raw.ok || !g.ok) {
    std::cout << file << ": " << (g.ok ? raw : g).first_error() << (g.ok ? raw : g).error << "\n";
    return 1;
  }
  const std::string stem = std::filesystem::path(file).stem().string();
  if (!out_dir.empty()) {
    const std::filesystem::path d(out_dir);
    std::filesystem::create_directories(d);
    spit(d / (stem + ".raw.ptx"), raw.ptx);
    spit(d / (stem + ".guarded.ptx"), g.guarded.ptx);
    spit(d / (stem + ".raw.cubin"), raw.cubin);
    spit(d / (stem + ".guarded.cubin"), g.cubin);
  }
  const guard::LoopFigures lr = guard::innermost_loop_figures(raw.ptx);
  const guard::LoopFigures lg = guard::innermost_loop_figures(g.guarded.ptx);
  size_t proven = 0;
  for (const guard::GuardSite& s : g.guarded.sites) proven += s.proven;
  std::cout << stem << " regs " << raw.resources.registers << " -> " << g.resources.registers
            << " | memory " << g.guarded.memory_instructions << " checked " << g.guarded.checked_instructions
            << " grouped " << g.guarded.grouped_instructions << " loop_proven " << g.guarded.loop_proven_instructions
            << " proven_named " << proven << " | innermost-loop PTX instructions " << lr.instructions << " -> "
            << lg.instructions << ", branches " << lr.branches << " -> " << lg.branches << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string arch = "sm_90", out;
  std::vector<std::string> files;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a == "--arch" && k + 1 < argc) arch = argv[++k];
    else if (a == "--out" && k + 1 < argc) out = argv[++k];
    else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr << "usage: guard_dump [--arch sm_90] [--out DIR] FILE.cu...\n";
    return 2;
  }
  int rc = 0;
  for (const std::string& f : files) rc |= dump(f, arch, out);
  return rc;
}
