#include "usercode/emu/shared_names.h"

#include <unistd.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "usercode/emu/build.h"
#include "usercode/emu/source_scan.h"

namespace cv::emu {
namespace {

struct Die {
  std::string tag, name;
  uint64_t type = 0;
  long long byte_size = -1, upper = -1, count = -1;
  std::vector<uint64_t> children;
};

// " (indirect string, offset: 0x30): tile" -> "tile"
std::string attr_text(const std::string& v) {
  if (v.rfind("(indirect", 0) == 0) {
    const size_t c = v.find("): ");
    return c == std::string::npos ? "" : v.substr(c + 3);
  }
  return v;
}

uint64_t ref(const std::string& v) {  // "<0x65>"
  const size_t lt = v.find("<0x");
  return lt == std::string::npos ? 0 : std::stoull(v.substr(lt + 3), nullptr, 16);
}

std::map<uint64_t, Die> parse_dies(const std::string& text) {
  std::map<uint64_t, Die> dies;
  std::vector<uint64_t> parents;  // by depth
  Die* cur = nullptr;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    size_t i = l.find_first_not_of(' ');
    if (i == std::string::npos || l[i] != '<') continue;
    const size_t close = l.find('>', i);
    if (close == std::string::npos) continue;
    if (close + 1 < l.size() && l[close + 1] == '<') {  // " <1><2d>: Abbrev Number: 5 (DW_TAG_variable)"
      const int depth = std::atoi(l.c_str() + i + 1);
      const size_t close2 = l.find('>', close + 1);
      if (close2 == std::string::npos) continue;
      const uint64_t off = std::stoull(l.substr(close + 2, close2 - close - 2), nullptr, 16);
      const size_t tag = l.find("(DW_TAG_", close2);
      if (tag == std::string::npos) {  // "Abbrev Number: 0": the end of a list of children
        cur = nullptr;
        continue;
      }
      cur = &dies[off];
      cur->tag = l.substr(tag + 1, l.find(')', tag) - tag - 1);
      if (parents.size() <= static_cast<size_t>(depth)) parents.resize(depth + 1);
      parents[depth] = off;
      if (depth > 0) dies[parents[depth - 1]].children.push_back(off);
      continue;
    }
    if (!cur) continue;
    const size_t at = l.find("DW_AT_", close);
    if (at == std::string::npos) continue;
    const size_t colon = l.find(": ", at);
    if (colon == std::string::npos) continue;
    std::string key = l.substr(at, colon - at);
    key.erase(key.find_last_not_of(' ') + 1);
    const std::string v = l.substr(colon + 2);
    if (key == "DW_AT_name") cur->name = attr_text(v);
    else if (key == "DW_AT_type") cur->type = ref(v);
    else if (key == "DW_AT_byte_size") cur->byte_size = std::atoll(v.c_str());
    else if (key == "DW_AT_upper_bound") cur->upper = std::atoll(v.c_str());
    else if (key == "DW_AT_count") cur->count = std::atoll(v.c_str());
  }
  return dies;
}

ArrayShape shape_of(const std::map<uint64_t, Die>& dies, uint64_t type) {
  ArrayShape s;
  for (int hops = 0; hops < 32 && type; ++hops) {
    auto it = dies.find(type);
    if (it == dies.end()) break;
    const Die& d = it->second;
    if (d.tag == "DW_TAG_array_type") {
      for (uint64_t c : d.children) {
        auto sub = dies.find(c);
        if (sub == dies.end() || sub->second.tag != "DW_TAG_subrange_type") continue;
        const Die& r = sub->second;
        s.dims.push_back(r.count >= 0 ? static_cast<unsigned long long>(r.count)
                         : r.upper >= 0 ? static_cast<unsigned long long>(r.upper) + 1
                                        : 0);
      }
      type = d.type;
      continue;
    }
    if (d.byte_size > 0) {
      s.elem_bytes = static_cast<unsigned>(d.byte_size);
      return s;
    }
    type = d.type;  // typedef, const, volatile, ...
  }
  return s;
}

bool known_bounds(const ArrayShape& s) {
  for (unsigned long long d : s.dims)
    if (!d) return false;
  return true;
}

bool names(const std::string& line, const std::string& id) {
  for (size_t at = line.find(id); at != std::string::npos; at = line.find(id, at + 1)) {
    const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    const bool before = at > 0 && word(line[at - 1]);
    const bool after = at + id.size() < line.size() && word(line[at + id.size()]);
    if (!before && !after) return true;
  }
  return false;
}

}  // namespace

std::map<std::string, ArrayShape> parse_variable_shapes(const std::string& text, const std::set<std::string>& wanted) {
  std::map<std::string, ArrayShape> out;
  const std::map<uint64_t, Die> dies = parse_dies(text);
  for (const auto& [off, d] : dies) {
    if (d.tag != "DW_TAG_variable" || !wanted.count(d.name) || !d.type) continue;
    const ArrayShape s = shape_of(dies, d.type);
    if (!s.elem_bytes) continue;
    auto it = out.find(d.name);
    // A declaration without its bound (`extern __shared__ int s[];`) yields to the definition.
    if (it == out.end() || (!known_bounds(it->second) && known_bounds(s))) out[d.name] = s;
  }
  return out;
}

std::map<std::string, ArrayShape> variable_shapes(const std::string& so_path, const std::set<std::string>& wanted) {
  if (wanted.empty()) return {};
  const std::string log = so_path + ".dwarf";
  int status = 0;
  if (!run_tool({"readelf", "--debug-dump=info", so_path}, log, status).empty()) return {};
  std::ifstream in(log, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  unlink(log.c_str());
  return parse_variable_shapes(text.str(), wanted);
}

std::string element_label(const std::string& name, long long flat, const std::vector<unsigned long long>& dims) {
  std::vector<long long> idx;
  long long rest = flat;
  for (size_t k = dims.size(); k-- > 1;) {  // the innermost dimensions; the outermost takes what is left
    const long long d = static_cast<long long>(dims[k]);
    if (d <= 0) break;
    idx.insert(idx.begin(), rest % d);
    rest /= d;
  }
  std::string s = name + "[" + std::to_string(rest) + "]";
  for (long long i : idx) s += "[" + std::to_string(i) + "]";
  return s;
}

SharedNamer::SharedNamer(std::vector<TlsSymbol> symbols, std::map<std::string, ArrayShape> shapes,
                         std::string_view source)
    : symbols_(std::move(symbols)), shapes_(std::move(shapes)) {
  std::istringstream in(code_only(source));
  for (std::string l; std::getline(in, l);) lines_.push_back(l);
}

uint64_t SharedNamer::element_start(uint64_t offset, unsigned bytes) const {
  for (const TlsSymbol& t : symbols_) {
    if (offset < t.offset || offset >= t.offset + std::max<uint64_t>(t.size, 1) || t.name == "cv_emu_dynamic_shared")
      continue;
    auto s = shapes_.find(t.name);
    const uint64_t elem = s != shapes_.end() && s->second.elem_bytes ? s->second.elem_bytes : std::max(1u, bytes);
    return t.offset + (offset - t.offset) / elem * elem;
  }
  return offset / std::max(1u, bytes) * std::max(1u, bytes);
}

SharedName SharedNamer::name(uint64_t offset, unsigned bytes, int line) const {
  const TlsSymbol* best = nullptr;
  for (const TlsSymbol& t : symbols_) {
    if (offset < t.offset || offset >= t.offset + std::max<uint64_t>(t.size, 1)) continue;
    const bool backing = t.name == "cv_emu_dynamic_shared";  // the aliases' block, not a student's name
    const bool on_line = line > 0 && static_cast<size_t>(line) <= lines_.size() && names(lines_[line - 1], t.name);
    if (!best || (best->name == "cv_emu_dynamic_shared" && !backing) || (on_line && !backing)) best = &t;
    if (on_line && !backing) break;
  }
  SharedName n;
  if (!best) {
    n.name = "shared";
    n.index = static_cast<long long>(offset / std::max(1u, bytes));
    n.element = n.name + "[" + std::to_string(n.index) + "]";
    return n;
  }
  n.name = best->name;
  auto s = shapes_.find(best->name);
  const unsigned elem = s != shapes_.end() && s->second.elem_bytes ? s->second.elem_bytes : std::max(1u, bytes);
  n.index = static_cast<long long>((offset - best->offset) / elem);
  if (s != shapes_.end() && s->second.dims.empty() && n.index == 0) n.element = n.name;  // a scalar
  else n.element = element_label(n.name, n.index, s != shapes_.end() ? s->second.dims : std::vector<unsigned long long>{});
  return n;
}

}  // namespace cv::emu
