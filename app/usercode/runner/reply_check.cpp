#include "usercode/runner/reply_check.h"

#include <functional>
#include <map>

namespace cv::usercode::runner {
namespace {

using json = nlohmann::json;

bool short_string(const json& v, size_t max) { return v.is_string() && v.get_ref<const std::string&>().size() <= max; }

bool numbers(const json& v, size_t count) {
  if (!v.is_array() || v.size() > count) return false;
  for (const json& x : v)
    if (!x.is_number()) return false;
  return true;
}

bool unsigned_triple(const json& v) {
  if (!v.is_array() || v.size() != 3) return false;
  for (const json& x : v)
    if (!x.is_number_unsigned() || x.get<unsigned long long>() > 0xffffffffull) return false;
  return true;
}

bool read_back(const json& v, size_t blob_bytes) {
  if (!v.is_array() || v.size() > 64) return false;
  for (const json& r : v) {
    if (!r.is_object() || r.size() != 2 || !r.contains("name") || !short_string(r["name"], 256) || !r.contains("at"))
      return false;
    const json& at = r["at"];
    if (!at.is_array() || at.size() != 2 || !at[0].is_number_unsigned() || !at[1].is_number_unsigned()) return false;
    const unsigned long long o = at[0].get<unsigned long long>(), n = at[1].get<unsigned long long>();
    if (o > blob_bytes || n > blob_bytes - o) return false;
  }
  return true;
}

bool out_of_range(const json& v) {
  if (!v.is_object() || v.size() != 5) return false;
  for (const char* k : {"index", "size", "line"})
    if (!v.contains(k) || !v[k].is_number_integer()) return false;
  return v.contains("thread") && unsigned_triple(v["thread"]) && v.contains("block") && unsigned_triple(v["block"]);
}

bool printed(const json& v) {
  if (!v.is_array() || v.size() > 64) return false;
  for (const json& l : v)
    if (!short_string(l, 4096)) return false;
  return true;
}

bool resources(const json& v) {
  if (!v.is_object() || v.size() > 8) return false;
  for (const auto& [k, x] : v.items())
    if (!x.is_number_integer()) return false;
  return true;
}

}  // namespace

std::string check_reply(const json& reply, size_t blob_bytes) {
  using Check = std::function<bool(const json&)>;
  const auto boolean = [](const json& v) { return v.is_boolean(); };
  const std::map<std::string, Check> keys = {
      {"ok", boolean},
      {"fatal", boolean},
      {"emulated", boolean},
      {"fibers", boolean},
      {"printf_truncated", boolean},
      {"sandbox_seccomp", boolean},
      {"error_name", [](const json& v) { return short_string(v, 64); }},
      {"error", [](const json& v) { return short_string(v, 4096); }},
      {"kernel", [](const json& v) { return short_string(v, 256); }},
      {"sandbox", [](const json& v) { return short_string(v, 1024); }},
      {"path", [](const json& v) { return short_string(v, 16); }},             // the emulator's way: fission, fibers, ...
      {"fast_path_off", [](const json& v) { return short_string(v, 4096); }},  // why a kernel has no fast path
      {"error_line", [](const json& v) { return v.is_number_integer(); }},
      {"kernel_ms", [](const json& v) { return numbers(v, 100000); }},
      {"read_back", [&](const json& v) { return read_back(v, blob_bytes); }},
      {"printf", printed},
      {"out_of_range", out_of_range},
      {"resources", resources},
      {"grid", unsigned_triple},
      // A signal's last words (runner_signals.h), sent by the cell before it ends.
      {"fault_code_offset", [](const json& v) { return v.is_number_unsigned(); }},
      {"fault_address", [](const json& v) { return v.is_number_unsigned(); }},
      {"fault_buffer", [](const json& v) { return short_string(v, 64); }},
      {"fault_index", [](const json& v) { return v.is_number_integer(); }},
      {"fault_size", [](const json& v) { return v.is_number_unsigned(); }},
      {"fault_block", unsigned_triple},
      {"fault_thread", unsigned_triple},
      {"fault_batched", boolean},
      {"block", unsigned_triple},
  };
  if (!reply.is_object()) return "not an object";
  if (!reply.contains("ok")) return "no 'ok'";
  for (const auto& [k, v] : reply.items()) {
    auto it = keys.find(k);
    if (it == keys.end()) return "an unknown key";
    if (!it->second(v)) return "key '" + k + "' is malformed";
  }
  return "";
}

}  // namespace cv::usercode::runner
