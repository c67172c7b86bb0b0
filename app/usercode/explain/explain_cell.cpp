#include "usercode/explain/explain_cell.h"

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <dlfcn.h>

#include "common/parallel_for.h"
#include "usercode/emu/explain_json.h"
#include "usercode/emu/pc_lines.h"
#include "usercode/emu/shared_names.h"
#include "usercode/wire/protocol.h"
#include "usercode/sandbox/cell.h"
#include "usercode/sandbox/load_time_code.h"

namespace cv::emu {
namespace {

using json = nlohmann::json;

std::vector<char> text_blob(const std::string& s) { return std::vector<char>(s.begin(), s.end()); }

// The child: load, lock, run; code addresses go to the parent for their lines.
int cell_main(int sock, sandbox::Violation* record, const CellRun& job) {
  sandbox::CellLimits limits;
  sandbox::Protections p = sandbox::confine(sock, job.so_path, limits);
  sock = 3;
  cpu_threads();  // the pool starts before the policy (it reads /sys)
  json result;
  try {
    Module m(job.so_path, true, job.file_name);
    sandbox::lock(p, record, limits);
    sandbox::run_deferred_init_all();  // under the policy where it is in force
    link_map* lm = nullptr;
    dlinfo(m.handle(), RTLD_DI_LINKMAP, &lm);
    const uint64_t base = lm ? lm->l_addr : 0;
    Options o = job.options;
    // This cell may not start programs: addr2line and readelf run in the parent.
    auto ask = [&](const json& head, const std::vector<char>& blob) {
      usercode::wire::Frame f;
      std::string why;
      if (!usercode::wire::send(sock, head, blob).empty() ||
          usercode::wire::receive(sock, f, -1, why) != usercode::wire::Status::Ok)
        return json();
      return f.json;
    };
    o.resolve_frames = [&](const std::vector<uint64_t>& pcs) {
      std::vector<char> blob(pcs.size() * sizeof(uint64_t));
      if (!pcs.empty()) std::memcpy(blob.data(), pcs.data(), blob.size());
      std::map<uint64_t, std::vector<int>> frames;
      for (const auto& pair : ask({{"op", "lines"}, {"base", base}}, blob).value("frames", json::array()))
        frames[pair[0].get<uint64_t>()] = pair[1].get<std::vector<int>>();
      return frames;
    };
    o.variable_shapes = [&](const std::set<std::string>& names) {
      std::map<std::string, ArrayShape> shapes;
      for (const auto& [name, v] : ask({{"op", "shapes"}, {"names", names}}, {}).value("shapes", json::object()).items())
        shapes[name] = ArrayShape{v.at(0).get<unsigned>(), v.at(1).get<std::vector<unsigned long long>>()};
      return shapes;
    };
    const Report r = run(m.kernel(job.entry), job.shape, job.params, job.buffers, o);
    result = {{"ok", r.ok}, {"run_ms", r.ms}, {"fibers", r.fibers}, {"printf", r.printf_lines}};
    if (!r.ok) result.update({{"error", r.error}, {"error_kind", r.error_kind}, {"error_line", r.error_line}});
    if (r.explain) result["explain"] = to_json(*r.explain);
  } catch (const std::exception& e) {
    result = {{"ok", false}, {"error", e.what()}};
  }
  result["sandbox"] = p.describe();
  usercode::wire::send(sock, {{"op", "result"}}, text_blob(result.dump()));
  return 0;
}

bool short_strings(const json& v, size_t count) {
  if (!v.is_array() || v.size() > count) return false;
  for (const json& s : v)
    if (!s.is_string() || s.get_ref<const std::string&>().size() > 4096) return false;
  return true;
}

// The child's answer, field by field, rebuilt from checked values only.
std::string take_result(const json& r, nlohmann::ordered_json& out) {
  auto is = [&](const char* k, bool (json::*test)() const) { return !r.contains(k) || (r[k].*test)(); };
  if (!r.is_object() || !r.contains("ok") || !r["ok"].is_boolean() || !is("run_ms", &json::is_number) ||
      !is("fibers", &json::is_boolean) || !is("error_line", &json::is_number_integer) ||
      !is("error", &json::is_string) || !is("error_kind", &json::is_string) || !is("sandbox", &json::is_string) ||
      (r.contains("printf") && !short_strings(r["printf"], 64)))
    return "a malformed answer";
  out["ok"] = r["ok"];
  for (const char* k : {"run_ms", "fibers", "printf", "error_line", "sandbox"})
    if (r.contains(k)) out[k] = r[k];
  for (const char* k : {"error", "error_kind"})
    if (r.contains(k)) out[k] = r[k].get<std::string>().substr(0, 4096);
  try {
    if (r.contains("explain")) out["explain"] = to_json(explain_from_json(r["explain"]));
  } catch (const std::exception& e) {
    return std::string("a malformed explain: ") + e.what();
  }
  return "";
}

// A name the module's symbol table could hold: no path, no option for readelf.
bool plain_name(const json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  return !s.empty() && s.size() <= 256 && s.find_first_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:.$") == std::string::npos;
}

// The cell's "lines" (code addresses -> the student's lines) or "shapes" (shared
// variables' debug shapes); a question out of bounds gets an empty answer.
void answer_question(int sock, const usercode::wire::Frame& f, const CellRun& job) {
  const std::string op = f.json.value("op", "");
  if (op == "lines") {
    json frames = json::array();
    if (f.json.contains("base") && f.json["base"].is_number_unsigned() && f.blob.size() % sizeof(uint64_t) == 0 &&
        f.blob.size() <= (32u << 20)) {
      std::vector<uint64_t> pcs(f.blob.size() / sizeof(uint64_t));
      if (!pcs.empty()) std::memcpy(pcs.data(), f.blob.data(), f.blob.size());
      for (const auto& [pc, lines] : resolve_frames(job.so_path, f.json["base"].get<uint64_t>(), pcs, job.file_name))
        frames.push_back({pc, lines});
    }
    usercode::wire::send(sock, {{"op", "lines"}, {"frames", frames}});  // a dead cell: seen next read
    return;
  }
  json shapes = json::object();
  const json names = f.json.value("names", json::array());
  if (names.is_array() && names.size() <= 4096 && std::all_of(names.begin(), names.end(), plain_name)) {
    std::set<std::string> wanted;
    for (const json& n : names) wanted.insert(n.get<std::string>());
    for (const auto& [name, shape] : variable_shapes(job.so_path, wanted)) shapes[name] = {shape.elem_bytes, shape.dims};
  }
  usercode::wire::send(sock, {{"op", "shapes"}, {"shapes", shapes}});
}

}  // namespace

int explain_in_cell(const CellRun& job, nlohmann::ordered_json& out) {
  sandbox::Cell cell([&](int sock, sandbox::Violation* record) { return cell_main(sock, record, job); });
  for (;;) {
    usercode::wire::Frame f;
    std::string why;
    const usercode::wire::Status s = usercode::wire::receive(cell.socket(), f, -1, why);
    for (int fd : f.fds) close(fd);
    const std::string op = s == usercode::wire::Status::Ok ? f.json.value("op", "") : "";
    if (op == "lines" || op == "shapes") {  // the cell's questions, checked: it runs the student's code
      answer_question(cell.socket(), f, job);
      continue;
    }
    if (op == "result") {
      const json r = json::parse(f.blob.begin(), f.blob.end(), nullptr, false);
      const std::string bad = take_result(r, out);
      if (bad.empty()) return out["ok"].get<bool>() ? 0 : 1;
      out["ok"] = false;
      out["error"] = "the kernel's process answered with " + bad + ": did your kernel write to its channel?";
      return 1;
    }
    out["ok"] = false;
    if (s == usercode::wire::Status::Ok || !cell.has_ended(0.05)) {
      cell.kill();
      out["error"] = "your kernel wrote to the socket its process answers on; submissions cannot use explain's sockets";
      out["error_kind"] = "channel";
      return 1;
    }
    std::string name;
    const int signal = cell.signal();
    const std::string words = cell.ended(name, 1.0, sandbox::CellLimits{}.max_mapping_bytes);
    if (words.empty() && signal > 0) return -signal;  // a crash: this process ends the same way
    out["error"] = words;
    out["error_kind"] = name;
    return 1;
  }
}

}  // namespace cv::emu
