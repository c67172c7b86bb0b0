#include "usercode/wire/protocol.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace cv::usercode::wire {
namespace {

struct Header {
  uint32_t magic, json_bytes, blob_bytes;
};

using Clock = std::chrono::steady_clock;

std::string errno_text(const char* call) { return std::string(call) + ": " + std::strerror(errno); }

bool write_all(int sock, const char* p, size_t n, std::string& error) {
  while (n) {
    const ssize_t w = ::send(sock, p, n, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      error = errno_text("send");
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Waits until readable or the deadline; Ok when readable.
Status wait_readable(int sock, Clock::time_point deadline, bool forever, std::string& error) {
  for (;;) {
    int ms = -1;
    if (!forever) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return Status::Timeout;
      ms = static_cast<int>(std::min<long long>(left, 1 << 30));
    }
    pollfd p{sock, POLLIN, 0};
    const int r = poll(&p, 1, ms);
    if (r > 0) return Status::Ok;
    if (r == 0) return Status::Timeout;
    if (errno == EINTR) continue;
    error = errno_text("poll");
    return Status::Error;
  }
}

Status read_all(int sock, char* p, size_t n, Clock::time_point deadline, bool forever,
                std::string& error) {
  while (n) {
    if (Status s = wait_readable(sock, deadline, forever, error); s != Status::Ok) return s;
    const ssize_t r = ::recv(sock, p, n, 0);
    if (r == 0) return Status::Closed;
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      error = errno_text("recv");
      return Status::Error;
    }
    p += r;
    n -= static_cast<size_t>(r);
  }
  return Status::Ok;
}

}  // namespace

std::string send(int sock, const nlohmann::json& json, const std::vector<char>& blob,
                 const std::vector<int>& fds) {
  const std::string text = json.dump();
  if (text.size() > kMaxJson || blob.size() > kMaxBlob || fds.size() > kMaxFds)
    return "frame too large to send (" + std::to_string(text.size()) + " + " +
           std::to_string(blob.size()) + " bytes)";
  Header h{kMagic, static_cast<uint32_t>(text.size()), static_cast<uint32_t>(blob.size())};
  iovec iov{&h, sizeof h};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  if (!fds.empty()) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  for (;;) {
    const ssize_t w = sendmsg(sock, &msg, MSG_NOSIGNAL);
    if (w == static_cast<ssize_t>(sizeof h)) break;
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return errno_text("sendmsg");
    return "sendmsg: short write of a frame header";
  }
  std::string error;
  if (!write_all(sock, text.data(), text.size(), error)) return error;
  if (!blob.empty() && !write_all(sock, blob.data(), blob.size(), error)) return error;
  return "";
}

// The expected reply: sleep until shortly before it, then poll without
// sleeping; true when the socket became readable meanwhile.
bool readable_soon(int sock, const Expect& e) {
  if (e.spin_s <= 0) return false;
  const auto t0 = Clock::now();
  if (e.sleep_s > 0) {
    const long long ns = static_cast<long long>(e.sleep_s * 1e9);
    const timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    pollfd p{sock, POLLIN, 0};
    if (ppoll(&p, 1, &ts, nullptr) > 0) return true;
  }
  const auto until = t0 + std::chrono::nanoseconds(static_cast<long long>((e.sleep_s + e.spin_s) * 1e9));
  while (Clock::now() < until) {
    pollfd p{sock, POLLIN, 0};
    if (poll(&p, 1, 0) > 0) return true;
  }
  return false;
}

Status receive(int sock, Frame& out, double timeout_s, std::string& error, Expect expect) {
  const bool forever = timeout_s < 0;
  const auto deadline =
      Clock::now() + std::chrono::microseconds(static_cast<long long>((forever ? 0 : timeout_s) * 1e6));
  out = Frame{};
  if (!readable_soon(sock, expect))
    if (Status s = wait_readable(sock, deadline, forever, error); s != Status::Ok) return s;
  Header h{};
  iovec iov{&h, sizeof h};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t r;
  do r = recvmsg(sock, &msg, MSG_WAITALL | MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  if (r == 0) return Status::Closed;
  if (r < 0) {
    error = errno_text("recvmsg");
    return Status::Error;
  }
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < n; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
        out.fds.push_back(fd);
      }
    }
  auto fail = [&](std::string why) {
    for (int fd : out.fds) close(fd);
    out.fds.clear();
    error = std::move(why);
    return Status::Error;
  };
  if (r != static_cast<ssize_t>(sizeof h) || h.magic != kMagic || h.json_bytes > kMaxJson ||
      h.blob_bytes > kMaxBlob)
    return fail("a malformed frame header");
  std::string text(h.json_bytes, '\0');
  if (Status s = read_all(sock, text.data(), text.size(), deadline, forever, error); s != Status::Ok) {
    fail(error);
    return s;
  }
  out.blob.resize(h.blob_bytes);
  if (Status s = read_all(sock, out.blob.data(), out.blob.size(), deadline, forever, error);
      s != Status::Ok) {
    fail(error);
    return s;
  }
  out.json = nlohmann::json::parse(text, nullptr, false);
  if (out.json.is_discarded()) return fail("a frame whose JSON does not parse");
  return Status::Ok;
}

}  // namespace cv::usercode::wire
