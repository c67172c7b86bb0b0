#include "usercode/templates.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/data_dir.h"


namespace cv::usercode {

const char* to_string(TemplateKind k) {
  switch (k) {
    case TemplateKind::FountainKernel:
      return "fountain_kernel";
    case TemplateKind::FountainParticle:
      return "fountain_particle";
    case TemplateKind::Count3:
      return "count3";
    case TemplateKind::Pi:
      return "pi";
  }
  return "?";
}

const std::vector<TemplateInfo>& templates() {
  static const std::vector<TemplateInfo> list = {
      {"fountain_kernel", TemplateKind::FountainKernel,
       "The fountain's step as a whole __global__ kernel: indexing and launch shape are yours.",
       "fountain_kernel.cu", false},
      {"fountain_particle", TemplateKind::FountainParticle,
       "One particle's step (CV_HD), like the app's *_math.h: runs on the GPU and on the CPU.",
       "fountain_particle.cu", false},
      {"count3", TemplateKind::Count3,
       "Count the multiples of 3 in the lab's data, checked against the CPU's answer.",
       "count3.cu", false},
      {"pi", TemplateKind::Pi,
       "Monte-Carlo pi: count samples inside the quarter circle, checked exactly.", "pi.cu",
       false},
      {"seed_fountain", TemplateKind::FountainKernel,
       "Example: the fountain kernel as seed 004 writes it.", "seed_fountain.cu", true},
      {"count3_racy", TemplateKind::Count3,
       "Example: seed 001's racy count (count++ without an atomic): wrong on purpose.",
       "count3_racy.cu", true},
      {"count3_atomic", TemplateKind::Count3,
       "Example: seed 001's atomic count, one atomicAdd per hit.", "count3_atomic.cu", true},
      {"count3_shared", TemplateKind::Count3,
       "Example: seed 001's shared-memory count, one global atomic per block.",
       "count3_shared.cu", true},
  };
  return list;
}

const TemplateInfo* find_template(std::string_view name) {
  for (const TemplateInfo& t : templates())
    if (t.name == name) return &t;
  return nullptr;
}

std::string template_names() {
  std::string s;
  for (const TemplateInfo& t : templates()) {
    if (t.example) continue;
    s += (s.empty() ? "" : ", ") + t.name;
  }
  return s;
}

std::optional<std::string> template_from_source(std::string_view source) {
  const size_t end = source.find('\n');
  std::string_view line = source.substr(0, end);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return std::nullopt;
  line.remove_prefix(start);
  constexpr std::string_view kTag = "//";
  if (line.substr(0, 2) != kTag) return std::nullopt;
  line.remove_prefix(2);
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  constexpr std::string_view kKey = "template:";
  if (line.substr(0, kKey.size()) != kKey) return std::nullopt;
  line.remove_prefix(kKey.size());
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  const size_t stop = line.find_first_of(" \t");
  std::string name(line.substr(0, stop));
  if (name.empty()) return std::nullopt;
  return name;
}

std::string kernel_dir(const PathConfig& paths) {
  if (!paths.kernel_dir.empty()) return paths.kernel_dir;
  // The shipped data's folder (io/data_dir.h): beside the binary in a build
  // tree, share/cudaviz when installed; never the source tree.
  const io::DataDir d = io::find_data_dir(paths.assets);
  return d.path.empty() ? "" : (std::filesystem::path(d.path) / "kernels").string();
}

std::string read_template_source(const TemplateInfo& t, const PathConfig& paths) {
  const std::string dir = kernel_dir(paths);
  if (dir.empty())
    throw std::runtime_error("cannot find the shipped kernel templates: " +
                             io::data_dir_error(io::find_data_dir(paths.assets)));
  const std::string path = (std::filesystem::path(dir) / t.file).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the template file " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool runs_on_cpu(TemplateKind k) { return k == TemplateKind::FountainParticle; }

}  // namespace cv::usercode
