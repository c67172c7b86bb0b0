// A template's rules applied to one workload: the launch request the runner gets.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "usercode/templates/template_spec.h"

namespace cv::usercode {
namespace {

SpanArg make_span(const std::string& name, const SpanSpec& s, const Workload& w,
                  const std::string& template_name) {
  SpanArg a;
  a.elem_bytes = s.elem_bytes;
  a.count = s.size(w);
  a.writable = s.access != Access::Read;
  a.from = s.source;
  if (s.tail) a.tail = s.tail(w);
  if (s.source == SpanArg::From::Shared) {
    auto it = w.shared.find(name);
    if (it != w.shared.end()) {
      a.shared_id = it->second.id;
      a.shared = it->second;
      if (it->second.bytes < a.count * a.elem_bytes)
        throw std::invalid_argument(template_name + ": the shared buffer for " + name + " holds " +
                                    std::to_string(it->second.bytes) + " bytes, fewer than " +
                                    std::to_string(a.count * a.elem_bytes));
      return a;
    }
    a.from = SpanArg::From::State;  // not shared here: the runner keeps it
  }
  const std::string generator = generator_of(w, name, s);
  if (a.from == SpanArg::From::Generate) {
    a.generator = generator;
    a.gen_n = a.count;
    a.seed = w.seed;
  }
  if (a.from == SpanArg::From::State) {
    a.state = w.state_scope + name;
    auto init = w.init.find(name);
    if (w.reset && (init != w.init.end() || s.init)) {
      a.init = SpanArg::Init::Bytes;
      a.init_bytes = init != w.init.end() ? init->second : s.init(w);
      if (a.init_bytes.size() != a.count * a.elem_bytes)
        throw std::invalid_argument(template_name + ": the first bytes of " + name + " are " +
                                    std::to_string(a.init_bytes.size()) + ", not " +
                                    std::to_string(a.count * a.elem_bytes));
    } else if (w.reset) {
      a.init = generator.empty() ? SpanArg::Init::Zero : SpanArg::Init::Generate;
      a.generator = generator;
      a.gen_n = a.count;
      a.seed = w.seed;
    }
  }
  const bool kept_state = a.from == SpanArg::From::State && s.access != Access::Read;
  a.read_back = (s.read_back || (w.read_state && kept_state)) && w.read_back;
  return a;
}

// Extern shared memory: the template's bytes a thread, for this block (the
// guard's proofs rely on every launch having it).
unsigned extern_shared_bytes(const TemplateSpec& t, const LaunchShape& s) {
  const unsigned long long bytes = 1ull * t.shared_bytes_per_thread * s.block[0] * s.block[1] * s.block[2];
  if (bytes > UINT32_MAX)
    throw std::invalid_argument(t.name + ": " + std::to_string(bytes) + " bytes of extern shared memory a block");
  return static_cast<unsigned>(bytes);
}

}  // namespace

std::string generator_of(const Workload& w, const std::string& span, const SpanSpec& s) {
  auto it = w.generators.find(span);
  return it != w.generators.end() ? it->second : s.generator;
}

Workload first_launch(const TemplateSpec& t, long long n, const BlockShape& block) {
  Workload w;
  w.n = n;
  w.block = block;
  w.seed = t.default_seed;
  w.reset = true;
  w.read_back = false;
  return w;
}

LaunchRequest make_launch(const TemplateSpec& t, const Workload& w, const std::string& module) {
  LaunchRequest r;
  r.module = module;
  r.shape = t.shape(w);
  r.reps = std::max(1, w.reps);
  for (const ArgSpec& spec : t.args) {
    LaunchArg a;
    a.name = spec.name;
    a.is_span = spec.is_span;
    if (spec.is_span) {
      a.span = make_span(spec.name, spec.span, w, t.name);
    } else if (auto it = w.scalars.find(spec.name); it != w.scalars.end()) {
      a.scalar = it->second;
    } else if (spec.scalar.value) {
      a.scalar = spec.scalar.value(w);
    } else {
      throw std::invalid_argument(t.name + ": the " + spec.name + " argument (" + spec.scalar.type +
                                  ") must come from what runs it");
    }
    r.args.push_back(std::move(a));
  }
  if (t.shared_bytes_per_thread) r.shape.dynamic_shared_bytes = extern_shared_bytes(t, r.shape);
  // A span said to have another's size has it: the guard's proofs rely on it.
  for (size_t i = 0; i < t.args.size(); ++i) {
    const std::string& other = t.args[i].is_span ? t.args[i].span.same_size_as : "";
    if (other.empty()) continue;
    const auto o = std::find_if(r.args.begin(), r.args.end(), [&](const LaunchArg& a) { return a.name == other; });
    if (o == r.args.end() || !o->is_span || o->span.count != r.args[i].span.count)
      throw std::logic_error(t.name + ": span " + t.args[i].name + " must have " + other + "'s size (" +
                             std::to_string(r.args[i].span.count) + " vs " +
                             (o == r.args.end() ? std::string("none") : std::to_string(o->span.count)) + ")");
  }
  for (size_t i = 0; i < t.args.size(); ++i) {
    if (t.args[i].is_span) continue;
    for (const ScalarSpec::AtMost& m : t.args[i].scalar.at_most) {
      const std::vector<char>& bytes = r.args[i].scalar;
      if (m.offset + m.bytes > bytes.size() || (m.bytes != 4 && m.bytes != 8))
        throw std::logic_error(t.name + ": " + t.args[i].name + " has no field at byte " + std::to_string(m.offset));
      unsigned long long v = 0;
      std::memcpy(&v, bytes.data() + m.offset, m.bytes);  // little-endian, as the GPU reads it
      for (const std::string& span : m.spans) {
        const auto o = std::find_if(r.args.begin(), r.args.end(), [&](const LaunchArg& a) { return a.name == span; });
        if (o == r.args.end() || !o->is_span || v > o->span.count)
          throw std::logic_error(t.name + ": " + t.args[i].name + "'s field at byte " + std::to_string(m.offset) +
                                 " (" + std::to_string(v) + ") must be at most " + span + "'s size");
      }
    }
  }
  auto kept = [&](const std::string& n) {
    for (const LaunchArg& a : r.args)
      if (a.name == n) return a.is_span && a.span.from == SpanArg::From::State;
    return false;
  };
  for (const auto& [x, y] : t.swaps)
    if (kept(x) && kept(y)) r.swaps.emplace_back(w.state_scope + x, w.state_scope + y);
  if (t.cpu_items) r.cpu_items = t.cpu_items(w);
  return r;
}

std::string parameter_text(const TemplateSpec& t) {
  std::string s;
  for (const ArgSpec& a : t.args) {
    const std::string type = !a.is_span ? a.scalar.type
                             : !a.span.param_type.empty() ? a.span.param_type
                                                          : "cv::Span<" + a.span.elem_type + ">";
    s += (s.empty() ? "" : ", ") + type + " " + a.name;
  }
  return s;
}

std::string declaration_text(const TemplateSpec& t) {
  std::string s = t.notes;
  if (!s.empty() && s.back() != '\n') s += '\n';
  s += t.helpers;
  if (!s.empty() && s.back() != '\n') s += '\n';
  if (!t.declaration.empty()) return s + t.declaration + (t.declaration.back() == '\n' ? "" : "\n");
  return s + "extern \"C\" __global__ void " + t.entry + "(" + parameter_text(t) + ");\n";
}

}  // namespace cv::usercode
