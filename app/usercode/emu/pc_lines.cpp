#include "usercode/emu/pc_lines.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "process/run_program.h"

namespace cv::emu {
namespace {
constexpr double kAddr2lineLimitS = 60;  // binutils' addr2line over one module
}  // namespace

std::map<uint64_t, std::vector<int>> parse_addr2line(const std::string& out, const std::string& student_file) {
  std::map<uint64_t, std::vector<int>> m;
  std::istringstream in(out);
  std::vector<int>* frames = nullptr;
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("0x", 0) == 0) {
      frames = &m[std::stoull(l, nullptr, 16)];
      continue;
    }
    if (!frames) continue;
    if (l.rfind(" (inlined by) ", 0) == 0) l = l.substr(14);
    const size_t colon = l.rfind(':');
    if (colon == std::string::npos) continue;
    std::string file = l.substr(0, colon);
    const size_t slash = file.rfind('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    if (file != student_file) continue;
    const int line = std::atoi(l.c_str() + colon + 1);  // "12 (discriminator 3)" reads as 12
    if (line > 0 && (frames->empty() || frames->back() != line)) frames->push_back(line);
  }
  return m;
}

std::map<uint64_t, std::vector<int>> resolve_frames(const std::string& so_path, uintptr_t load_base,
                                                    const std::vector<uint64_t>& pcs,
                                                    const std::string& student_file) {
  std::map<uint64_t, std::vector<int>> out;
  const std::set<uint64_t> unique(pcs.begin(), pcs.end());
  if (unique.empty()) return out;
  const std::string list = so_path + ".pcs";
  {
    std::ofstream f(list);
    for (uint64_t pc : unique) f << "0x" << std::hex << (pc - load_base - 1) << "\n";  // the call, not its return
  }
  std::string text;
  int status = 0;
  run_capture({"addr2line", "-a", "-i", "-e", so_path}, list, kAddr2lineLimitS, text, status);
  unlink(list.c_str());
  const std::map<uint64_t, std::vector<int>> rel = parse_addr2line(text, student_file);
  for (uint64_t pc : unique) {
    auto it = rel.find(pc - load_base - 1);
    if (it != rel.end()) out[pc] = it->second;
  }
  return out;
}

}  // namespace cv::emu
