#include "cuda_arch.h"

#include <cuda_runtime_api.h>

#include <cctype>

#include "build_arch.h"

namespace cv {
namespace {

std::optional<ArchTarget> parse_one(const std::string& entry) {
  size_t i = 0;
  int arch = 0;
  while (i < entry.size() && std::isdigit(static_cast<unsigned char>(entry[i])))
    arch = arch * 10 + (entry[i++] - '0');
  if (i == 0 || i > 3 || arch < 10) return std::nullopt;
  ArchTarget t;
  t.arch = arch;
  if (i < entry.size() && (entry[i] == 'a' || entry[i] == 'f')) t.suffix = entry[i++];
  const std::string rest = entry.substr(i);
  if (rest.empty()) {
    t.sass = t.ptx = true;
  } else if (rest == "-real") {
    t.sass = true;
  } else if (rest == "-virtual") {
    t.ptx = true;
  } else {
    return std::nullopt;
  }
  return t;
}

// Whether code for `t` (as SASS, or as PTX when `jit`) runs on cc.
bool runs_on(const ArchTarget& t, int cc, bool jit) {
  if (t.suffix == 'a') return t.arch == cc;
  if (jit && t.suffix == 0) return t.arch <= cc;
  return t.arch / 10 == cc / 10 && t.arch <= cc;  // SASS, or family PTX
}

}  // namespace

std::optional<std::vector<ArchTarget>> parse_architectures(const std::string& list,
                                                           std::string* error) {
  std::vector<ArchTarget> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t semi = list.find(';', start);
    const std::string entry =
        list.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
    if (!entry.empty()) {
      auto t = parse_one(entry);
      if (!t) {
        if (error) *error = "'" + entry + "' is not an architecture like 86, 86-real or 75-virtual";
        return std::nullopt;
      }
      out.push_back(*t);
    }
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  if (out.empty()) {
    if (error) *error = "the architecture list is empty";
    return std::nullopt;
  }
  return out;
}

const char* to_string(CodeKind k) {
  switch (k) {
    case CodeKind::Sass:
      return "SASS";
    case CodeKind::Ptx:
      return "PTX (JIT)";
    default:
      return "none";
  }
}

CodeMatch code_for(const std::vector<ArchTarget>& targets, int cc_major, int cc_minor) {
  const int cc = cc_major * 10 + cc_minor;
  CodeMatch best;
  for (const ArchTarget& t : targets)  // the newest SASS that runs here
    if (t.sass && runs_on(t, cc, false) && (best.kind == CodeKind::None || t.arch > best.arch))
      best = CodeMatch{CodeKind::Sass, t.arch};
  if (best.kind != CodeKind::None) return best;
  for (const ArchTarget& t : targets)  // else the newest PTX the driver can JIT
    if (t.ptx && runs_on(t, cc, true) && (best.kind == CodeKind::None || t.arch > best.arch))
      best = CodeMatch{CodeKind::Ptx, t.arch};
  return best;
}

std::string describe(const CodeMatch& m, const std::string& built_list) {
  switch (m.kind) {
    case CodeKind::Sass:
      return "sm_" + std::to_string(m.arch) + " SASS";
    case CodeKind::Ptx:
      return "compute_" + std::to_string(m.arch) + " PTX (JIT-compiled by the driver)";
    default:
      return "no code (built for " + built_list + ")";
  }
}

std::string cmake_fix_line(int cc_major, int cc_minor) {
  return "cmake -S . -B build -DCMAKE_CUDA_ARCHITECTURES=" +
         std::to_string(cc_major * 10 + cc_minor) +
         " && cmake --build build (or `cmake --preset dev` on this machine, or --preset portable)";
}

std::string built_architectures() {
  return CUDAVIZ_CUDA_ARCHITECTURES;
}

int built_runtime_version() {
  return CUDART_VERSION;
}

}  // namespace cv
