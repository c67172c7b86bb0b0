// guard_dump: a developer's look at what the guard does to one kernel
// (docs/guard.md). For each FILE.cu: NVRTC's PTX and the guarded PTX, both
// cubins (nvJitLink), and one line of figures: registers unguarded and
// guarded, the guard's counts (memory, checked, grouped, proven), and the PTX
// instructions inside innermost loops (the guard's static cost where it
// matters). scripts/gpu_guard_table.sh runs it on the GPU machine so that
// cuobjdump can count the SASS too.
//   guard_dump [--arch sm_90] [--checked] [--out DIR] FILE.cu...
// --checked: the bounds-checked build (the window's: -DCV_CHECKED=1) on both sides.
#include <cstdint>
#include <cstring>
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

// SASS instructions in a cubin: the .text.* sections' bytes over 16 (one
// instruction is 128 bits on sm_70 and later). Counts the out-of-line
// failure paths too; 0 when the bytes are not a 64-bit ELF.
size_t sass_instructions(const std::vector<char>& elf) {
  auto u16 = [&](size_t at) { uint16_t v = 0; std::memcpy(&v, elf.data() + at, 2); return size_t{v}; };
  auto u32 = [&](size_t at) { uint32_t v = 0; std::memcpy(&v, elf.data() + at, 4); return size_t{v}; };
  auto u64 = [&](size_t at) { uint64_t v = 0; std::memcpy(&v, elf.data() + at, 8); return size_t(v); };
  if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0 || elf[4] != 2) return 0;
  const size_t shoff = u64(0x28), shentsize = u16(0x3a), shnum = u16(0x3c), shstrndx = u16(0x3e);
  if (shoff + shnum * shentsize > elf.size() || shstrndx >= shnum) return 0;
  const size_t names = u64(shoff + shstrndx * shentsize + 0x18);
  size_t n = 0;
  for (size_t k = 0; k < shnum; ++k) {
    const size_t h = shoff + k * shentsize, name = names + u32(h);
    if (name >= elf.size()) continue;
    const std::string s(elf.data() + name, strnlen(elf.data() + name, elf.size() - name));
    if (s.rfind(".text.", 0) == 0) n += u64(h + 0x20) / 16;
  }
  return n;
}

void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

void spit(const std::filesystem::path& p, const std::vector<char>& bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

int dump(const std::string& file, const std::string& arch, const std::string& out_dir, bool checked) {
  using namespace cv::usercode;
  CompileRequest req;
  req.source = slurp(file);
  req.arch = arch;
  req.file_name = std::filesystem::path(file).filename().string();
  req.checked = checked;
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
            << " | memory " << g.guarded.memory_instructions << " checked " << g.guarded.guarded_instructions
            << " grouped " << g.guarded.grouped_instructions << " loop_proven " << g.guarded.loop_proven_instructions
            << " proven_named " << proven << " | innermost-loop PTX instructions " << lr.instructions << " -> "
            << lg.instructions << ", branches " << lr.branches << " -> " << lg.branches << " | SASS instructions "
            << sass_instructions(raw.cubin) << " -> " << sass_instructions(g.cubin) << " (with failure paths)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string arch = "sm_90", out;
  bool checked = false;
  std::vector<std::string> files;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a == "--arch" && k + 1 < argc) arch = argv[++k];
    else if (a == "--out" && k + 1 < argc) out = argv[++k];
    else if (a == "--checked") checked = true;
    else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr << "usage: guard_dump [--arch sm_90] [--checked] [--out DIR] FILE.cu...\n";
    return 2;
  }
  int rc = 0;
  for (const std::string& f : files) rc |= dump(f, arch, out, checked);
  return rc;
}
