#include "usercode/templates/template_registry.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "io/data_dir.h"

namespace cv::usercode {
namespace {

struct Registry {
  std::vector<std::unique_ptr<TemplateSpec>> owned;  // stable addresses
  std::vector<const TemplateSpec*> sorted;
  std::vector<TemplateEntry> entries;
};

Registry& registry() {
  static Registry r;  // filled during static initialisation, read-only after
  return r;
}

void rebuild(Registry& r) {
  r.sorted.clear();
  for (const auto& s : r.owned) r.sorted.push_back(s.get());
  std::stable_sort(r.sorted.begin(), r.sorted.end(), [](const TemplateSpec* a, const TemplateSpec* b) {
    return a->order != b->order ? a->order < b->order : a->name < b->name;
  });
  r.entries.clear();
  for (const TemplateSpec* s : r.sorted) r.entries.push_back({s, s->name, s->description, s->file, false});
  for (const TemplateSpec* s : r.sorted)
    for (const Example& e : s->examples) r.entries.push_back({s, e.name, e.description, e.file, true});
}

}  // namespace

const char* to_string(Feeds f) { return f == Feeds::Scene ? "scene" : "lab"; }

void check_can_register(const TemplateSpec& t) {
  auto bad = [&](const std::string& why) { throw std::logic_error("template registry: " + why); };
  if (t.name.empty()) bad("a template without a name");
  if (t.file.empty() || t.entry.empty() || t.feeds_name.empty() || !t.shape)
    bad(t.name + " needs a file, an entry point, what it feeds and a launch shape");
  if (t.cpu_form == CpuForm::Items && (t.cpu_entry.empty() || !t.cpu_items || t.cpu_epilogue.empty()))
    bad(t.name + ": an items-form CPU path needs its host entry, item count and loop");
  for (const ArgSpec& a : t.args) {
    if (a.name.empty()) bad(t.name + ": an argument without a name");
    if (a.is_span && (!a.span.size || a.span.elem_bytes == 0 || a.span.elem_type.empty()))
      bad(t.name + "'s span " + a.name + " needs an element type, its bytes and a size rule");
    if (a.is_span && a.span.source == SpanArg::From::Generate && a.span.generator.empty())
      bad(t.name + "'s span " + a.name + " is generated but names no generator");
    if (!a.is_span && a.scalar.type.empty()) bad(t.name + "'s scalar " + a.name + " has no type");
    if (std::count_if(t.args.begin(), t.args.end(), [&](const ArgSpec& o) { return o.name == a.name; }) > 1)
      bad(t.name + " has two arguments named " + a.name);
  }
  std::vector<std::string> names = {t.name}, files = {t.file};
  for (const Example& e : t.examples) names.push_back(e.name), files.push_back(e.file);
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = i + 1; j < names.size(); ++j)
      if (names[i] == names[j] || files[i] == files[j])
        bad(t.name + " lists '" + names[i] + "' (" + files[i] + ") twice");
  for (const TemplateEntry& e : template_entries())
    for (size_t i = 0; i < names.size(); ++i) {
      if (e.name == names[i]) bad("'" + names[i] + "' registered twice (already " + e.spec->name + "'s)");
      if (e.file == files[i]) bad(files[i] + " registered twice (already " + e.name + "'s file)");
    }
}

TemplateRegistrar::TemplateRegistrar(TemplateSpec spec) {
  // A check defined by its preparation is the plain check too.
  if (spec.prepare && !spec.check) spec.check = prepared_check(spec.prepare);
  for (VerdictCase& c : spec.cases)
    if (c.prepare && !c.check) c.check = prepared_check(c.prepare);
  check_can_register(spec);
  Registry& r = registry();
  r.owned.push_back(std::make_unique<TemplateSpec>(std::move(spec)));
  rebuild(r);
}

const std::vector<const TemplateSpec*>& template_specs() { return registry().sorted; }

const std::vector<TemplateEntry>& template_entries() { return registry().entries; }

const TemplateEntry* find_entry(std::string_view name) {
  for (const TemplateEntry& e : template_entries())
    if (e.name == name) return &e;
  return nullptr;
}

const TemplateSpec* find_template(std::string_view name) {
  const TemplateEntry* e = find_entry(name);
  return e ? e->spec : nullptr;
}

std::string template_names() {
  std::string s;
  for (const TemplateSpec* t : template_specs()) s += (s.empty() ? "" : ", ") + t->name;
  return s;
}

std::vector<const TemplateSpec*> templates_feeding(std::string_view feeds_name) {
  std::vector<const TemplateSpec*> out;
  for (const TemplateSpec* t : template_specs())
    if (t->feeds_name == feeds_name) out.push_back(t);
  return out;
}

std::optional<std::string> template_from_source(std::string_view source) {
  std::string_view line = source.substr(0, source.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  auto skip_blanks = [&] { line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size())); };
  skip_blanks();
  if (line.substr(0, 2) != "//") return std::nullopt;
  line.remove_prefix(2);
  skip_blanks();
  constexpr std::string_view kKey = "template:";
  if (line.substr(0, kKey.size()) != kKey) return std::nullopt;
  line.remove_prefix(kKey.size());
  skip_blanks();
  std::string name(line.substr(0, line.find_first_of(" \t")));
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

namespace {

std::string read_kernel_file(const std::string& file, const PathConfig& paths) {
  // A template outside the shipped ones (a test's) names its file by its full path.
  const std::string dir = std::filesystem::path(file).is_absolute() ? "/" : kernel_dir(paths);
  if (dir.empty())
    throw std::runtime_error("cannot find the shipped kernel templates: " +
                             io::data_dir_error(io::find_data_dir(paths.assets)));
  const std::string path = (std::filesystem::path(dir) / file).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the template file " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string read_template_source(const TemplateEntry& t, const PathConfig& paths) {
  return read_kernel_file(t.file, paths);
}

std::string read_template_source(const TemplateSpec& t, const PathConfig& paths) {
  return read_kernel_file(t.file, paths);
}

bool runs_on_cpu(const TemplateSpec& t) {
  // Items: the host loop; Emulated: whole kernels in the CPU emulator (app/usercode/emu).
  return t.cpu_form == CpuForm::Items || t.cpu_form == CpuForm::Emulated;
}

}  // namespace cv::usercode
