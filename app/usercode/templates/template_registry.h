#pragma once
// The template registry: every template of "Your kernel" is one TemplateSpec
// (template_spec.h) registered once from its own file
// (`const TemplateRegistrar reg(spec)`, like the scenes' and labs'
// registrars). The editor's list, compile, the runner's launches, bench
// kernel, the labs' "run your kernel" and presets read it. A kernel file
// names its template on its first line:   // template: count3
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"
#include "usercode/templates/template_spec.h"

namespace cv::usercode {

// Adds `spec` during static initialisation; throws std::logic_error on a
// duplicate name (template or example), file, or a spec missing its parts.
struct TemplateRegistrar {
  explicit TemplateRegistrar(TemplateSpec spec);
};
// The same checks, for tests: throws std::logic_error when `spec` cannot join.
void check_can_register(const TemplateSpec& spec);

// Every template, by `order` then name.
const std::vector<const TemplateSpec*>& template_specs();

// One line of the editor's list: a template or one of its examples.
struct TemplateEntry {
  const TemplateSpec* spec = nullptr;
  std::string name, description, file;
  bool example = false;
};
// The templates, then their examples, in a stable order.
const std::vector<TemplateEntry>& template_entries();
const TemplateEntry* find_entry(std::string_view name);
// The template a name means: a template's own name or one of its examples'; nullptr when unknown.
const TemplateSpec* find_template(std::string_view name);
// The templates' names, comma separated, for messages.
std::string template_names();
// The templates that feed `feeds_name` (a scene or a lab), in order.
std::vector<const TemplateSpec*> templates_feeding(std::string_view feeds_name);

// The value of a `// template: NAME` first line (leading whitespace allowed), else nullopt.
std::optional<std::string> template_from_source(std::string_view source);

// Where the shipped kernel files are: paths.kernel_dir ($CUDAVIZ_KERNEL_DIR), else
// kernels/ of the shipped data's folder (io/data_dir.h); "" when there is none.
std::string kernel_dir(const PathConfig& paths);
// The shipped source of a template or example; throws std::runtime_error naming
// the path when it cannot be read.
std::string read_template_source(const TemplateEntry& t, const PathConfig& paths);
std::string read_template_source(const TemplateSpec& t, const PathConfig& paths);

// Whether the template's kernel runs on the CPU backend: items-form templates
// (the host compiler builds their loop) and whole kernels (the CPU emulator,
// app/usercode/emu, docs/emulator.md) alike.
bool runs_on_cpu(const TemplateSpec& t);

}  // namespace cv::usercode
