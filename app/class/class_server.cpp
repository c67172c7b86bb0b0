#include "class/class_server.h"

#include <civetweb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace cv::classvote {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxFileBytes = 256 * 1024;

const char* mime_of(const std::string& ext) {
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  return nullptr;
}

bool plain_name(const std::string& n) {
  int dots = 0;
  for (char c : n) {
    if (c == '.') {
      ++dots;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_'))
      return false;
  }
  return dots == 1 && n.front() != '.';
}

const char* header(const mg_request_info* ri, const char* name) {
  for (int i = 0; i < ri->num_headers; ++i)
    if (strcasecmp(ri->http_headers[i].name, name) == 0) return ri->http_headers[i].value;
  return nullptr;
}

int begin_request(mg_connection* conn) {
  auto* self = static_cast<ClassServer*>(mg_get_request_info(conn)->user_data);
  return self ? self->handle(conn) : 0;
}

// civetweb's own log lines (a refused bind, a malformed request) stay out of
// the app's output: start() reports what matters.
int log_message(const mg_connection*, const char*) { return 1; }

std::once_flag g_library_once;

}  // namespace

std::map<std::string, std::string> web_files(const std::string& dir, std::string* error) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (error) *error = "the students' page is missing: no folder '" + dir + "'";
    return out;
  }
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    // Not a link (it could lead out of the folder), not a folder, a plain name.
    if (e.is_symlink(ec) || !e.is_regular_file(ec) || !plain_name(name) ||
        !mime_of(e.path().extension().string()) || e.file_size(ec) > kMaxFileBytes)
      continue;
    out[name] = e.path().string();
  }
  if (!out.count("index.html") && error)
    *error = "the students' page is missing: no index.html in '" + dir + "'";
  return out;
}

ClassServer::ClassServer(VoteStore& store, ServerOptions options)
    : store_(store),
      opt_(std::move(options)),
      per_address_(opt_.address_burst, opt_.address_rate),
      joins_(opt_.join_burst, opt_.join_rate),
      wrong_codes_(opt_.wrong_code_burst, opt_.wrong_code_rate),
      per_token_(opt_.token_burst, opt_.token_rate, 1 << 14) {}

ClassServer::~ClassServer() { stop(); }

std::optional<std::string> ClassServer::start() {
  if (ctx_) return std::nullopt;
  if (opt_.address.empty() || opt_.address == "0.0.0.0" || opt_.address.find(':') != std::string::npos)
    return "class server: bind one interface's IPv4 address (got '" + opt_.address + "')";
  if (opt_.port < 0 || opt_.port > 65535)
    return "class server: port " + std::to_string(opt_.port) + " is out of range [0, 65535]";
  std::string why;
  const auto names = web_files(opt_.web_dir, &why);
  if (!why.empty()) return "class server: " + why;
  files_.clear();
  for (const auto& [name, path] : names) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (!in && !in.eof()) return "class server: cannot read " + path;
    File f{s.str(), mime_of(fs::path(name).extension().string())};
    files_["/" + name] = f;
    if (name == "index.html") files_["/"] = f;
  }
  std::call_once(g_library_once, [] { mg_init_library(0); });
  const std::string ports = opt_.address + ":" + std::to_string(opt_.port);
  const std::string threads = std::to_string(opt_.threads);
  const char* options[] = {"listening_ports", ports.c_str(),
                           "num_threads", threads.c_str(),
                           "request_timeout_ms", "5000",
                           "enable_keep_alive", "no",
                           "max_request_size", "4096",
                           "listen_backlog", "512",
                           nullptr};
  mg_callbacks cb;
  std::memset(&cb, 0, sizeof cb);
  cb.begin_request = begin_request;
  cb.log_message = log_message;
  mg_init_data init;
  init.callbacks = &cb;
  init.user_data = this;
  init.configuration_options = options;
  char text[256] = "";
  unsigned code = 0;
  mg_error_data err;
  err.code = &code;
  err.text = text;
  err.text_buffer_size = sizeof text;
  ctx_ = mg_start2(&init, &err);
  if (!ctx_)
    return "class server: cannot listen on " + ports + ": " +
           (text[0] ? std::string(text) : "refused") +
           " (another program may hold the port: choose another)";
  mg_server_port sp[4];
  const int n = mg_get_server_ports(ctx_, 4, sp);
  port_ = n > 0 ? sp[0].port : opt_.port;
  return std::nullopt;
}

void ClassServer::stop() {
  if (ctx_) mg_stop(ctx_);  // joins its threads
  ctx_ = nullptr;
}

std::string ClassServer::url() const {
  return "http://" + opt_.address + ":" + std::to_string(port_) + "/";
}

int ClassServer::reply(mg_connection* conn, int status, const std::string& type,
                       const std::string& body) {
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\n"
            "Content-Type: %s\r\n"
            "Content-Length: %zu\r\n"
            "Connection: close\r\n"
            "Cache-Control: no-store\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            "Referrer-Policy: no-referrer\r\n"
            "Content-Security-Policy: default-src 'self'; img-src 'self' data:; "
            "frame-ancestors 'none'; form-action 'none'\r\n\r\n",
            status, mg_get_response_code_text(conn, status), type.c_str(), body.size());
  mg_write(conn, body.data(), body.size());
  if (status < 400)
    ++counters_.ok;
  else
    ++counters_.client_errors;
  return status;
}

int ClassServer::reply_json(mg_connection* conn, int status, const json& j) {
  // Student input is never echoed; dump() escapes any non-ASCII in what the lesson wrote.
  return reply(conn, status, "application/json", j.dump(-1, ' ', true));
}

int ClassServer::error(mg_connection* conn, int status, const std::string& why) {
  return reply_json(conn, status, {{"error", why}});
}

int ClassServer::handle(mg_connection* conn) {
  ++counters_.requests;
  const mg_request_info* ri = mg_get_request_info(conn);
  const std::string addr = ri->remote_addr;
  if (!per_address_.allow(addr)) {
    ++counters_.rate_limited;
    return error(conn, 429, "too many requests: wait a moment");
  }
  const std::string method = ri->request_method ? ri->request_method : "";
  const std::string uri = ri->local_uri_raw ? ri->local_uri_raw : "";
  if (uri == "/api/join" || uri == "/api/vote") {
    if (method != "POST") return error(conn, 405, "use POST");
    return uri == "/api/join" ? api_join(conn, addr) : api_vote(conn);
  }
  if (uri == "/api/step") {
    if (method != "GET") return error(conn, 405, "use GET");
    return api_step(conn);
  }
  if (method != "GET") return error(conn, 405, "only GET here");
  const auto it = files_.find(uri);
  if (it == files_.end()) return error(conn, 404, "no such page");
  return reply(conn, 200, it->second.type, it->second.body);
}

std::optional<std::string> ClassServer::read_body(mg_connection* conn, int* status) {
  const mg_request_info* ri = mg_get_request_info(conn);
  const char* type = header(ri, "Content-Type");
  if (!type || std::strncmp(type, "application/json", 16) != 0) {
    *status = error(conn, 415, "send JSON (Content-Type: application/json)");
    return std::nullopt;
  }
  if (ri->content_length < 0) {
    *status = error(conn, 411, "give a Content-Length");
    return std::nullopt;
  }
  if (ri->content_length > kMaxBody) {
    *status = error(conn, 413, "the body is over 1024 bytes");
    return std::nullopt;
  }
  std::string body(static_cast<size_t>(ri->content_length), '\0');
  size_t got = 0;
  while (got < body.size()) {
    const int n = mg_read(conn, body.data() + got, body.size() - got);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  if (got != body.size()) {
    *status = error(conn, 400, "the body ended early");
    return std::nullopt;
  }
  return body;
}

int ClassServer::api_join(mg_connection* conn, const std::string& addr) {
  if (!joins_.allow(addr)) {
    ++counters_.rate_limited;
    return error(conn, 429, "too many joins from this address: wait a moment");
  }
  int status = 0;
  const auto body = read_body(conn, &status);
  if (!body) return status;
  const json j = json::parse(*body, nullptr, false);
  if (!j.is_object() || !j.contains("code") || !j["code"].is_string() ||
      j["code"].get_ref<const std::string&>().size() > 16)
    return error(conn, 400, "send {\"code\": \"ABCDE\"}");
  // Guessing codes is slow: a few wrong ones, then one per five seconds per
  // address (only wrong ones count).
  if (!wrong_codes_.has_room(addr)) {
    ++counters_.rate_limited;
    return error(conn, 429, "too many wrong codes from this address: wait a moment");
  }
  bool full = false;
  const auto token = store_.join(j["code"].get<std::string>(), &full);
  if (full) return error(conn, 403, "the class is full");
  if (!token) {
    wrong_codes_.allow(addr);
    return error(conn, 403, "wrong code");
  }
  return reply_json(conn, 200, {{"token", *token}});
}

int ClassServer::api_step(mg_connection* conn) {
  const char* token = header(mg_get_request_info(conn), "X-Class-Token");
  if (!token || std::strlen(token) > 64 || !store_.known(token))
    return error(conn, 403, "join with the code first");
  if (!per_token_.allow(token)) {
    ++counters_.rate_limited;
    return error(conn, 429, "too many requests: wait a moment");
  }
  return reply_json(conn, 200, store_.view(token));
}

int ClassServer::api_vote(mg_connection* conn) {
  int status = 0;
  const auto body = read_body(conn, &status);
  if (!body) return status;
  const json j = json::parse(*body, nullptr, false);
  if (!j.is_object() || !j.contains("token") || !j["token"].is_string() || !j.contains("round") ||
      !j["round"].is_number_unsigned() || (j.contains("choice") == j.contains("value")))
    return error(conn, 400, "send {\"token\", \"round\", and \"choice\" or \"value\"}");
  const std::string token = j["token"].get<std::string>();
  if (token.size() > 64 || !store_.known(token)) return error(conn, 403, "join with the code first");
  if (!per_token_.allow(token)) {
    ++counters_.rate_limited;
    return error(conn, 429, "too many votes: wait a moment");
  }
  const uint64_t round = j["round"].get<uint64_t>();
  uint64_t seq = 0;
  VoteResult r;
  if (j.contains("choice")) {
    if (!j["choice"].is_number_integer()) return error(conn, 400, "\"choice\" is a whole number");
    const long long c = j["choice"].get<long long>();
    r = store_.vote_choice(token, round, c < 0 || c > 1000 ? -2 : static_cast<int>(c), &seq);
  } else {
    if (!j["value"].is_number()) return error(conn, 400, "\"value\" is a number");
    r = store_.vote_number(token, round, j["value"].get<double>(), &seq);
  }
  if (r != VoteResult::Ok) return error(conn, http_status(r), to_string(r));
  return reply_json(conn, 200, {{"ok", true}, {"seq", seq}});
}

}  // namespace cv::classvote
