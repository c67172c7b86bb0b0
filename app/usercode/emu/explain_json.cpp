#include "usercode/emu/explain_json.h"

namespace cv::emu {
namespace {

nlohmann::ordered_json dim(const cv_emu::Dim& d) { return {d.x, d.y, d.z}; }
cv_emu::Dim dim_from(const nlohmann::json& j) { return {j.at(0).get<unsigned>(), j.at(1).get<unsigned>(), j.at(2).get<unsigned>()}; }
int kind_from(const std::string& s) { return s == "write" ? cv_emu::kWrite : s == "atomic" ? cv_emu::kAtomic : cv_emu::kRead; }

nlohmann::ordered_json side(const RaceSide& s) {
  return {{"block", dim(s.who.block)}, {"thread", dim(s.who.thread)}, {"kind", kind_name(s.kind)},
          {"line", s.line}, {"call_line", s.call_line}};
}
RaceSide side_from(const nlohmann::json& j) {
  return {{dim_from(j.at("block")), dim_from(j.at("thread"))}, kind_from(j.at("kind")), j.at("line").get<int>(),
          j.value("call_line", 0)};
}

const char* cause_name(RaceCause c) {
  return c == RaceCause::OtherBlocks ? "other_blocks" : c == RaceCause::NoSyncwarp ? "no_syncwarp" : "no_barrier";
}
RaceCause cause_from(const std::string& s) {
  return s == "other_blocks" ? RaceCause::OtherBlocks : s == "no_syncwarp" ? RaceCause::NoSyncwarp : RaceCause::NoBarrier;
}

nlohmann::ordered_json race_json(const Race& r) {
  return {{"buffer", r.buffer}, {"index", r.index}, {"element", r.element}, {"shared", r.shared},
          {"first", side(r.first)}, {"second", side(r.second)}, {"sentence", r.sentence}};
}
Race race_from(const nlohmann::json& r) {
  Race o;
  o.buffer = r.at("buffer");
  o.index = r.at("index");
  o.element = r.value("element", "");
  o.shared = r.at("shared");
  o.first = side_from(r.at("first"));
  o.second = side_from(r.at("second"));
  o.sentence = r.at("sentence");
  return o;
}

RaceGroup group_from(const nlohmann::json& g) {
  RaceGroup o;
  o.buffer = g.at("buffer");
  o.shared = g.at("shared");
  o.cause = cause_from(g.at("cause"));
  o.lost_update = g.value("lost_update", false);
  o.first = side_from(g.at("first"));
  o.second = side_from(g.at("second"));
  o.elements = g.at("elements");
  o.first_threads = g.at("first_threads");
  o.second_threads = g.at("second_threads");
  o.sentence = g.at("sentence");
  o.fix = g.at("fix");
  for (const auto& r : g.at("instances")) o.instances.push_back(race_from(r));
  return o;
}

SectorLine sector_line_from(const nlohmann::json& s) {
  SectorLine o;
  o.line = s.at("line");
  o.call_line = s.value("call_line", 0);
  o.buffer = s.at("buffer");
  o.kind = kind_from(s.at("kind"));
  o.bytes = s.at("bytes");
  o.requests = s.at("requests");
  o.sectors = s.at("sectors");
  o.sectors_per_request = s.at("sectors_per_request");
  o.efficiency = s.at("efficiency");
  o.repeats = s.value("repeats", 0ull);
  o.unrolled = s.value("unrolled", 1u);
  o.remainder_first = s.value("remainder_first", false);
  return o;
}

}  // namespace

const char* kind_name(int kind) {
  return kind == cv_emu::kWrite ? "write" : kind == cv_emu::kAtomic ? "atomic" : "read";
}

nlohmann::ordered_json to_json(const Explain& x) {
  nlohmann::ordered_json j;
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const RaceGroup& g : x.race_groups) {
    nlohmann::ordered_json inst = nlohmann::ordered_json::array();
    for (const Race& r : g.instances) inst.push_back(race_json(r));
    groups.push_back({{"buffer", g.buffer}, {"shared", g.shared}, {"cause", cause_name(g.cause)},
                      {"lost_update", g.lost_update}, {"first", side(g.first)}, {"second", side(g.second)},
                      {"elements", g.elements}, {"first_threads", g.first_threads},
                      {"second_threads", g.second_threads}, {"sentence", g.sentence}, {"fix", g.fix},
                      {"instances", std::move(inst)}});
  }
  j["race_groups"] = std::move(groups);
  nlohmann::ordered_json races = nlohmann::ordered_json::array();
  for (const Race& r : x.races) races.push_back(race_json(r));
  j["races"] = std::move(races);
  j["racy_elements"] = x.racy_elements;
  nlohmann::ordered_json sec = nlohmann::ordered_json::array();
  for (const SectorLine& s : x.sectors)
    sec.push_back({{"line", s.line}, {"call_line", s.call_line}, {"buffer", s.buffer}, {"kind", kind_name(s.kind)}, {"bytes", s.bytes},
                   {"requests", s.requests}, {"sectors", s.sectors}, {"sectors_per_request", s.sectors_per_request},
                   {"efficiency", s.efficiency}, {"repeats", s.repeats}, {"unrolled", s.unrolled},
                   {"remainder_first", s.remainder_first}});
  j["sectors_per_request"] = std::move(sec);
  // (ordered_json keeps members in a vector: fill arrays first, insert after.)
  nlohmann::ordered_json div = nlohmann::ordered_json::array(), all = nlohmann::ordered_json::array();
  for (const Branch& b : x.branches) {
    nlohmann::ordered_json o = {{"line", b.line},
                                {"warps", b.warps},
                                {"divergent_warps", b.divergent_warps},
                                {"lanes_taken", b.lanes_taken},
                                {"lanes_not_taken", b.lanes_not_taken}};
    if (b.divergent_warps) div.push_back(o);
    all.push_back(o);
  }
  j["divergent_branches"] = std::move(div);
  j["branches"] = std::move(all);
  nlohmann::ordered_json acc = nlohmann::ordered_json::array();
  for (const Touch& t : x.touches)
    acc.push_back({t.thread, t.buffer, t.index, kind_name(t.kind), t.line, t.shared});
  j["touches"] = {{"block", dim(x.block)}, {"threads", x.block_threads}, {"accesses", std::move(acc)}};
  nlohmann::ordered_json reqs = nlohmann::ordered_json::array();
  for (const WarpRequest& w : x.warp_requests)
    reqs.push_back({{"line", w.line}, {"buffer", w.buffer}, {"kind", kind_name(w.kind)}, {"bytes", w.bytes},
                    {"sectors", w.sectors}, {"lanes", w.lane_offset}});
  j["warp"] = {{"block", dim(x.block)}, {"warp", x.warp}, {"requests", std::move(reqs)}};
  j["buffers"] = x.buffers;
  j["recorded_threads"] = x.recorded_threads;
  j["events"] = x.events;
  j["truncated"] = x.truncated;
  j["scope"] = x.scope;
  return j;
}

Explain explain_from_json(const nlohmann::json& j) {
  Explain x;
  for (const auto& r : j.at("races")) x.races.push_back(race_from(r));
  for (const auto& g : j.value("race_groups", nlohmann::json::array())) x.race_groups.push_back(group_from(g));
  x.racy_elements = j.value("racy_elements", 0ull);
  for (const auto& s : j.at("sectors_per_request")) x.sectors.push_back(sector_line_from(s));
  for (const auto& b : j.at("branches")) {
    Branch o;
    o.line = b.at("line");
    o.warps = b.at("warps");
    o.divergent_warps = b.at("divergent_warps");
    o.lanes_taken = b.at("lanes_taken");
    o.lanes_not_taken = b.at("lanes_not_taken");
    x.branches.push_back(o);
  }
  const auto& t = j.at("touches");
  x.block = dim_from(t.at("block"));
  x.block_threads = t.at("threads");
  for (const auto& a : t.at("accesses")) {
    Touch o;
    o.thread = a.at(0);
    o.buffer = a.at(1);
    o.index = a.at(2);
    o.kind = kind_from(a.at(3));
    o.line = a.at(4);
    o.shared = a.at(5);
    x.touches.push_back(o);
  }
  const auto& w = j.at("warp");
  x.warp = w.at("warp");
  for (const auto& r : w.at("requests")) {
    WarpRequest o;
    o.line = r.at("line");
    o.buffer = r.at("buffer");
    o.kind = kind_from(r.at("kind"));
    o.bytes = r.at("bytes");
    o.sectors = r.at("sectors");
    o.lane_offset = r.at("lanes").get<std::vector<long long>>();
    x.warp_requests.push_back(o);
  }
  x.buffers = j.value("buffers", std::vector<std::string>{});
  x.recorded_threads = j.value("recorded_threads", 0ull);
  x.events = j.value("events", 0ull);
  x.truncated = j.value("truncated", false);
  x.scope = j.value("scope", "");
  return x;
}

}  // namespace cv::emu
