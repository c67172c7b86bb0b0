#include "usercode/emu/explain_request.h"

#include <stdexcept>

namespace cv::emu {
namespace {

// [offset, bytes] of `text` appended to `blob`.
nlohmann::json append(std::vector<char>& blob, const char* p, size_t n) {
  const size_t at = blob.size();
  blob.insert(blob.end(), p, p + n);
  return {at, n};
}

// The bytes `where` ([offset, bytes]) names inside `blob`.
std::string slice(const nlohmann::json& header, const char* field, const std::vector<char>& blob) {
  const nlohmann::json& where = header.at(field);
  if (!where.is_array() || where.size() != 2)
    throw std::runtime_error(std::string("explain: \"") + field + "\" is not [offset, bytes]");
  const size_t off = where[0].get<size_t>(), n = where[1].get<size_t>();
  if (off > blob.size() || n > blob.size() - off)
    throw std::runtime_error(std::string("explain: ") + field + "'s bytes lie outside the " +
                             std::to_string(blob.size()) + "-byte blob");
  return std::string(blob.data() + off, n);
}

}  // namespace

nlohmann::json encode_explain_request(const ExplainRequest& q, std::vector<char>& blob) {
  nlohmann::json headers = nlohmann::json::array();
  for (const TextFile& h : q.headers) headers.push_back({{"name", h.name}, {"text", h.text}});
  nlohmann::json unrolled = nlohmann::json::array();
  for (const UnrolledLoop& u : q.unrolled)
    unrolled.push_back({{"line", u.line}, {"unroll", u.unroll}, {"remainder_first", u.remainder_first},
                        {"body_stores", u.body_stores}});
  const nlohmann::json j = {{"template", q.template_name}, {"n", q.n},
                            {"source", q.source},          {"file_name", q.file_name},
                            {"headers", headers},          {"includes", q.includes},
                            {"after", q.after},            {"entry", q.entry},
                            {"launch", q.launch},          {"explain_block", q.explain_block},
                            {"warp", q.warp},              {"cxx", q.cxx},
                            {"tmpdir", q.tmpdir},          {"unrolled", unrolled}};
  const std::string text = j.dump();
  nlohmann::json header = {{"op", "explain"}};
  header["request"] = append(blob, text.data(), text.size());
  header["launch"] = append(blob, q.launch_blob.data(), q.launch_blob.size());
  return header;
}

ExplainRequest decode_explain_request(const nlohmann::json& header, const std::vector<char>& blob) {
  ExplainRequest q;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(slice(header, "request", blob));
    q.template_name = j.value("template", std::string());
    q.n = j.value("n", 0ll);
    q.source = j.at("source").get<std::string>();
    q.file_name = j.value("file_name", std::string("kernel.cu"));
    for (const nlohmann::json& h : j.at("headers"))
      q.headers.push_back({h.at("name").get<std::string>(), h.at("text").get<std::string>()});
    q.includes = j.at("includes").get<std::vector<std::string>>();
    q.after = j.value("after", std::string());
    q.entry = j.at("entry").get<std::string>();
    q.launch = j.at("launch");
    q.explain_block = j.value("explain_block", 0ull);
    q.warp = j.value("warp", 0u);
    q.cxx = j.value("cxx", std::string("c++"));
    q.tmpdir = j.value("tmpdir", std::string("/tmp"));
    for (const nlohmann::json& u : j.value("unrolled", nlohmann::json::array()))
      q.unrolled.push_back({u.at("line").get<int>(), u.at("unroll").get<unsigned>(), u.at("remainder_first").get<bool>(),
                            u.value("body_stores", false)});
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("the explain request is not valid: ") + e.what());
  }
  const std::string launch = slice(header, "launch", blob);
  q.launch_blob.assign(launch.begin(), launch.end());
  return q;
}

nlohmann::json encode_explain_reply(const std::string& json_text, std::vector<char>& blob) {
  return {{"reply", append(blob, json_text.data(), json_text.size())}};
}

nlohmann::json decode_explain_reply(const nlohmann::json& header, const std::vector<char>& blob) {
  return nlohmann::json::parse(slice(header, "reply", blob));
}

}  // namespace cv::emu
