#include "usercode/emu/explain_request.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cv::emu {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const char* data, size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(data, static_cast<std::streamsize>(bytes));
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace

void write_explain_request(const ExplainRequest& q, const std::string& json_path, const std::string& blob_path) {
  nlohmann::json headers = nlohmann::json::array();
  for (const TextFile& h : q.headers) headers.push_back({{"name", h.name}, {"text", h.text}});
  const nlohmann::json j = {{"template", q.template_name}, {"n", q.n},
                            {"source", q.source},          {"file_name", q.file_name},
                            {"headers", headers},          {"includes", q.includes},
                            {"after", q.after},            {"entry", q.entry},
                            {"launch", q.launch},          {"explain_block", q.explain_block},
                            {"warp", q.warp},              {"cxx", q.cxx},
                            {"tmpdir", q.tmpdir}};
  const std::string text = j.dump();
  write_file(json_path, text.data(), text.size());
  write_file(blob_path, q.launch_blob.data(), q.launch_blob.size());
}

ExplainRequest read_explain_request(const std::string& json_path, const std::string& blob_path) {
  ExplainRequest q;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(json_path));
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
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("the explain request '" + json_path + "' is not valid: " + e.what());
  }
  const std::string blob = read_file(blob_path);
  q.launch_blob.assign(blob.begin(), blob.end());
  return q;
}

}  // namespace cv::emu
