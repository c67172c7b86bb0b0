#include "class/class_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cv::classvote {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxFileBytes = 256 * 1024;
constexpr std::uintmax_t kMaxVendorBytes = 1024 * 1024;  // CodeMirror's own file is 400 KiB

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

std::optional<std::string> read_whole(const std::string& path, std::uintmax_t limit) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size > limit) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A listening socket of our own: bind's error names the reason (the port in
// use), and libmicrohttpd takes it over (MHD_OPTION_LISTEN_SOCKET).
int listen_on(const std::string& address, int port, std::string* why) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    *why = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, address.c_str(), &a.sin_addr) != 1) {
    close(fd);
    *why = "not an IPv4 address";
    return -1;
  }
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 1024) != 0) {
    *why = std::strerror(errno);
    close(fd);
    return -1;
  }
  return fd;
}

std::string client_address(MHD_Connection* c) {
  const MHD_ConnectionInfo* ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  char buf[INET_ADDRSTRLEN] = "";
  if (ci && ci->client_addr && ci->client_addr->sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(ci->client_addr)->sin_addr, buf, sizeof buf);
  return buf;
}

// One request between libmicrohttpd's calls: its head, the body so far, and
// whether it was answered already (a refusal from its head).
struct Pending {
  HttpRequest request;
  long long max_body = 0;
  bool answered = false;
};

MHD_Result send_reply(MHD_Connection* c, const HttpReply& r) {
  MHD_Response* resp = MHD_create_response_from_buffer(r.body.size(), const_cast<char*>(r.body.data()),
                                                       MHD_RESPMEM_MUST_COPY);
  if (!resp) return MHD_NO;
  MHD_add_response_header(resp, "Content-Type", r.type.c_str());
  // One request per connection: a phone polls once a second, and a kept-alive
  // idle connection would only hold one of its address's few connections.
  MHD_add_response_header(resp, "Connection", "close");
  MHD_add_response_header(resp, "Cache-Control", "no-store");
  MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
  MHD_add_response_header(resp, "Content-Security-Policy",
                          "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                          "form-action 'none'");
  const MHD_Result ok = MHD_queue_response(c, static_cast<unsigned>(r.status), resp);
  MHD_destroy_response(resp);
  return ok;
}

long long content_length(MHD_Connection* c) {
  const char* v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
  if (!v || !*v || std::strlen(v) > 18) return -1;
  for (const char* p = v; *p; ++p)
    if (*p < '0' || *p > '9') return -1;
  return std::stoll(v);
}

MHD_Result on_request(void* cls, MHD_Connection* c, const char* url, const char* method,
                      const char*, const char* upload, size_t* upload_size, void** state) {
  auto* self = static_cast<ClassServer*>(cls);
  auto* p = static_cast<Pending*>(*state);
  if (!p) {  // the head has arrived: refuse it now, or wait for the body
    p = new Pending;
    *state = p;
    p->request.method = method ? method : "";
    p->request.path = url ? url : "";
    p->request.address = client_address(c);
    const char* token = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Class-Token");
    p->request.token = token && std::strlen(token) <= 64 ? token : "";
    const char* type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    if (auto refuse = self->admit(p->request, type ? type : "", content_length(c))) {
      p->answered = true;
      self->count(refuse->status);
      return send_reply(c, *refuse);
    }
    p->max_body = p->request.method == "POST" ? content_length(c) : 0;
    if (p->max_body > 0) return MHD_YES;
  }
  if (*upload_size) {
    if (!p->answered) {
      const size_t room = static_cast<size_t>(p->max_body) - std::min(p->request.body.size(), static_cast<size_t>(p->max_body));
      p->request.body.append(upload, std::min(*upload_size, room));
    }
    *upload_size = 0;
    return MHD_YES;
  }
  if (p->answered) return MHD_YES;
  p->answered = true;
  const HttpReply r = self->dispatch(p->request);
  self->count(r.status);
  return send_reply(c, r);
}

void on_completed(void*, MHD_Connection*, void** state, MHD_RequestTerminationCode) {
  delete static_cast<Pending*>(*state);
  *state = nullptr;
}

unsigned file_limit_connections(unsigned wanted) {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return wanted;
  const rlim_t room = r.rlim_cur > 128 ? r.rlim_cur - 128 : 16;  // the app's own files, runners, GL
  return static_cast<unsigned>(std::min<rlim_t>(wanted, room));
}

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

std::map<std::string, std::string> codemirror_files(const std::string& dir) {
  // Fixed names, chosen here (no URL reaches another file); links are the
  // package's own (Debian links codemirror.js to lib/).
  static const std::pair<const char*, const char*> kFiles[] = {
      {"/cm/codemirror.js", "lib/codemirror.js"},
      {"/cm/codemirror.css", "lib/codemirror.css"},
      {"/cm/clike.js", "mode/clike/clike.js"},
      {"/cm/matchbrackets.js", "addon/edit/matchbrackets.js"},
  };
  std::map<std::string, std::string> out;
  if (dir.empty()) return out;
  for (const auto& [name, rel] : kFiles) {
    const fs::path p = fs::path(dir) / rel;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return {};
    out[name] = p.string();
  }
  return out;
}

ClassServer::ClassServer(VoteStore& store, ServerOptions options)
    : store_(store),
      opt_(std::move(options)),
      joins_per_minute_(opt_.joins_per_minute),
      per_address_(opt_.address_burst, opt_.address_rate),
      joins_(opt_.joins_per_minute, opt_.joins_per_minute / 60),
      wrong_codes_(opt_.wrong_code_burst, opt_.wrong_code_rate),
      per_token_(opt_.token_burst, opt_.token_rate, 1 << 14) {
  add_route("POST", "/api/join", kMaxBody, [this](const HttpRequest& r) { return api_join(r); });
  add_route("GET", "/api/step", 0, [this](const HttpRequest& r) { return api_step(r); });
  add_route("POST", "/api/vote", kMaxBody, [this](const HttpRequest& r) { return api_vote(r); });
}

ClassServer::~ClassServer() { stop(); }

void ClassServer::add_route(const std::string& method, const std::string& path, long long max_body,
                            Handler h) {
  routes_[path] = Route{method, max_body, std::move(h)};
}

void ClassServer::set_joins_per_minute(double n) {
  n = std::max(1.0, n);
  joins_per_minute_ = n;
  joins_.set_limits(n, n / 60);
}

std::optional<std::string> ClassServer::load_files() {
  std::string why;
  const auto names = web_files(opt_.web_dir, &why);
  if (!why.empty()) return "class server: " + why;
  files_.clear();
  for (const auto& [name, path] : names) {
    const auto body = read_whole(path, kMaxFileBytes);
    if (!body) return "class server: cannot read " + path;
    File f{*body, mime_of(fs::path(name).extension().string())};
    files_["/" + name] = f;
    if (name == "index.html") files_["/"] = f;
  }
  has_editor_ = false;
  std::map<std::string, File> vendor;
  for (const auto& [name, path] : codemirror_files(opt_.codemirror_dir)) {
    const auto body = read_whole(path, kMaxVendorBytes);
    if (!body) return std::nullopt;  // the page falls back to a plain textarea
    vendor[name] = File{*body, mime_of(fs::path(name).extension().string())};
  }
  has_editor_ = !vendor.empty();
  files_.insert(vendor.begin(), vendor.end());
  return std::nullopt;
}

std::optional<std::string> ClassServer::start() {
  if (daemon_) return std::nullopt;
  if (opt_.address.empty() || opt_.address == "0.0.0.0" || opt_.address.find(':') != std::string::npos)
    return "class server: bind one interface's IPv4 address (got '" + opt_.address + "')";
  if (opt_.port < 0 || opt_.port > 65535)
    return "class server: port " + std::to_string(opt_.port) + " is out of range [0, 65535]";
  if (auto err = load_files()) return err;
  const std::string where = opt_.address + ":" + std::to_string(opt_.port);
  std::string why;
  const int fd = listen_on(opt_.address, opt_.port, &why);
  if (fd < 0)
    return "class server: cannot listen on " + where + ": " + why +
           " (another program may hold the port: choose another)";
  const unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
  daemon_ = MHD_start_daemon(
      flags, 0, nullptr, nullptr, &on_request, this,
      MHD_OPTION_LISTEN_SOCKET, fd,
      MHD_OPTION_THREAD_POOL_SIZE, static_cast<unsigned>(std::clamp(opt_.threads, 1, 64)),
      MHD_OPTION_CONNECTION_LIMIT, file_limit_connections(opt_.connections),
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, opt_.connections_per_address,
      MHD_OPTION_CONNECTION_TIMEOUT, std::max(1u, opt_.idle_timeout_s),
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<size_t>(16 * 1024),  // headers: at most ~8 KiB
      MHD_OPTION_NOTIFY_COMPLETED, &on_completed, nullptr,
      MHD_OPTION_END);
  if (!daemon_) {
    close(fd);
    return "class server: cannot serve on " + where + " (libmicrohttpd refused to start)";
  }
  const MHD_DaemonInfo* di = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT);
  port_ = di ? di->port : opt_.port;
  return std::nullopt;
}

void ClassServer::stop() {
  if (daemon_) MHD_stop_daemon(daemon_);  // joins its threads, closes the socket
  daemon_ = nullptr;
}

std::string ClassServer::url() const {
  return "http://" + opt_.address + ":" + std::to_string(port_) + "/";
}

void ClassServer::count(int status) {
  if (status < 400)
    ++counters_.ok;
  else
    ++counters_.client_errors;
  if (status == 429) ++counters_.rate_limited;
}

std::optional<HttpReply> ClassServer::admit(const HttpRequest& head, const std::string& content_type,
                                            long long content_length) {
  ++counters_.requests;
  if (!per_address_.allow(head.address)) return error_reply(429, "too many requests: wait a moment");
  const auto route = routes_.find(head.path);
  if (route == routes_.end()) {
    if (head.method != "GET") return error_reply(405, "only GET here");
    if (!files_.count(head.path)) return error_reply(404, "no such page");
    return std::nullopt;
  }
  if (head.method != route->second.method) return error_reply(405, "use " + route->second.method);
  if (head.method != "POST") return std::nullopt;
  if (content_type.compare(0, 16, "application/json") != 0)
    return error_reply(415, "send JSON (Content-Type: application/json)");
  if (content_length < 0) return error_reply(411, "give a Content-Length");
  if (content_length > route->second.max_body)
    return error_reply(413, "the body is over " + std::to_string(route->second.max_body) + " bytes");
  return std::nullopt;
}

HttpReply ClassServer::dispatch(const HttpRequest& r) {
  const auto route = routes_.find(r.path);
  if (route != routes_.end()) {
    if (r.method != route->second.method) return error_reply(405, "use " + route->second.method);
    if (r.body.size() > static_cast<size_t>(std::max(0ll, route->second.max_body)))
      return error_reply(413, "the body is too long");
    return route->second.handler(r);
  }
  if (r.method != "GET") return error_reply(405, "only GET here");
  const auto it = files_.find(r.path);
  if (it == files_.end()) return error_reply(404, "no such page");
  return {200, it->second.type, it->second.body};
}

}  // namespace cv::classvote
