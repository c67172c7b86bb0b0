// The launch request on the wire (runner_protocol.h): JSON for the structure,
// the frame's blob for raw bytes, each referenced as "at": [offset, bytes].
#include <stdexcept>

#include "usercode/launch_request.h"

namespace cv::usercode::wire {
namespace {

using json = nlohmann::json;

json put(std::vector<char>& blob, const std::vector<char>& bytes) {
  const size_t at = blob.size();
  blob.insert(blob.end(), bytes.begin(), bytes.end());
  return json::array({at, bytes.size()});
}

std::vector<char> take(const json& at, const std::vector<char>& blob, const char* what) {
  if (!at.is_array() || at.size() != 2) throw std::runtime_error(std::string(what) + ": \"at\" is not [offset, bytes]");
  const size_t off = at[0].get<size_t>(), n = at[1].get<size_t>();
  if (off > blob.size() || n > blob.size() - off)
    throw std::runtime_error(std::string(what) + ": bytes [" + std::to_string(off) + ", +" +
                             std::to_string(n) + ") lie outside the " + std::to_string(blob.size()) +
                             "-byte blob");
  return std::vector<char>(blob.begin() + static_cast<long>(off), blob.begin() + static_cast<long>(off + n));
}

json dims(const unsigned d[3]) { return {d[0], d[1], d[2]}; }

void dims_from(const json& j, unsigned d[3], const char* what) {
  if (!j.is_array() || j.size() != 3) throw std::runtime_error(std::string(what) + " is not [x, y, z]");
  for (int i = 0; i < 3; ++i) d[i] = j[i].get<unsigned>();
}

json encode_span(const SpanArg& s, std::vector<char>& blob) {
  json j = {{"elem_bytes", s.elem_bytes}, {"count", s.count}, {"writable", s.writable},
            {"read_back", s.read_back}};
  switch (s.from) {
    case SpanArg::From::Shared: j["from"] = {{"shared", s.shared_id}}; break;
    case SpanArg::From::Generate:
      j["from"] = {{"generate", s.generator}, {"n", s.gen_n}, {"seed", s.seed}};
      break;
    case SpanArg::From::Zero: j["from"] = {{"zero", true}}; break;
    case SpanArg::From::State: {
      json f = {{"state", s.state}};
      if (s.init == SpanArg::Init::Bytes) f["init"] = {{"bytes", put(blob, s.init_bytes)}};
      if (s.init == SpanArg::Init::Generate)
        f["init"] = {{"generate", s.generator}, {"n", s.gen_n}, {"seed", s.seed}};
      if (s.init == SpanArg::Init::Zero) f["init"] = {{"zero", true}};
      j["from"] = f;
      break;
    }
  }
  if (!s.tail.empty()) j["tail"] = put(blob, s.tail);
  return j;
}

SpanArg decode_span(const json& j, const std::vector<char>& blob, const std::string& name) {
  SpanArg s;
  s.elem_bytes = j.at("elem_bytes").get<unsigned>();
  s.count = j.at("count").get<unsigned long long>();
  s.writable = j.value("writable", true);
  s.read_back = j.value("read_back", false);
  if (s.elem_bytes == 0) throw std::runtime_error("span " + name + ": elem_bytes is 0");
  const json& f = j.at("from");
  if (f.contains("shared")) {
    s.from = SpanArg::From::Shared;
    s.shared_id = f["shared"].get<uint64_t>();
  } else if (f.contains("generate")) {
    s.from = SpanArg::From::Generate;
    s.generator = f["generate"].get<std::string>();
    s.gen_n = f.at("n").get<unsigned long long>();
    s.seed = f.value("seed", uint64_t{0});
  } else if (f.contains("zero")) {
    s.from = SpanArg::From::Zero;
  } else if (f.contains("state")) {
    s.from = SpanArg::From::State;
    s.state = f["state"].get<std::string>();
    if (f.contains("init")) {
      const json& i = f["init"];
      if (i.contains("bytes")) {
        s.init = SpanArg::Init::Bytes;
        s.init_bytes = take(i["bytes"], blob, ("span " + name + " init").c_str());
      } else if (i.contains("generate")) {
        s.init = SpanArg::Init::Generate;
        s.generator = i["generate"].get<std::string>();
        s.gen_n = i.at("n").get<unsigned long long>();
        s.seed = i.value("seed", uint64_t{0});
      } else {
        s.init = SpanArg::Init::Zero;
      }
    }
  } else {
    throw std::runtime_error("span " + name + ": \"from\" names no source (shared, generate, zero, state)");
  }
  if (j.contains("tail")) s.tail = take(j["tail"], blob, ("span " + name + " tail").c_str());
  return s;
}

}  // namespace

json encode_launch(const LaunchRequest& r, std::vector<char>& blob) {
  json args = json::array();
  for (const LaunchArg& a : r.args) {
    if (a.is_span) {
      json s = encode_span(a.span, blob);
      s["span"] = a.name;
      args.push_back(std::move(s));
    } else {
      args.push_back({{"scalar", a.name}, {"at", put(blob, a.scalar)}});
    }
  }
  json swaps = json::array();
  for (const auto& [a, b] : r.swaps) swaps.push_back({a, b});
  json j = {{"op", "launch"},
            {"module", r.module},
            {"grid", dims(r.shape.grid)},
            {"block", dims(r.shape.block)},
            {"shared_bytes", r.shape.dynamic_shared_bytes},
            {"reps", r.reps},
            {"args", args}};
  if (!swaps.empty()) j["swap"] = swaps;
  if (r.cpu_items) j["cpu_items"] = r.cpu_items;
  return j;
}

LaunchRequest decode_launch(const json& j, const std::vector<char>& blob) {
  LaunchRequest r;
  r.module = j.value("module", "editor");
  dims_from(j.at("grid"), r.shape.grid, "grid");
  dims_from(j.at("block"), r.shape.block, "block");
  r.shape.dynamic_shared_bytes = j.value("shared_bytes", 0u);
  r.reps = j.value("reps", 1);
  if (r.reps < 1) throw std::runtime_error("reps " + std::to_string(r.reps) + " is below 1");
  for (const json& a : j.at("args")) {
    LaunchArg arg;
    if (a.contains("span")) {
      arg.is_span = true;
      arg.name = a["span"].get<std::string>();
      arg.span = decode_span(a, blob, arg.name);
    } else if (a.contains("scalar")) {
      arg.name = a["scalar"].get<std::string>();
      arg.scalar = take(a.at("at"), blob, ("scalar " + arg.name).c_str());
    } else {
      throw std::runtime_error("an argument that is neither \"span\" nor \"scalar\"");
    }
    r.args.push_back(std::move(arg));
  }
  if (j.contains("swap"))
    for (const json& s : j["swap"]) r.swaps.emplace_back(s.at(0).get<std::string>(), s.at(1).get<std::string>());
  r.cpu_items = j.value("cpu_items", 0ull);
  return r;
}

}  // namespace cv::usercode::wire
