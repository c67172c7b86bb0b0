#include "usercode/runner/runner_signals.h"

#include <signal.h>
#include <ucontext.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "usercode/emu/emu.h"
#include "usercode/wire/protocol.h"

namespace cv::usercode::runner {
namespace {

constexpr int kMaxBuffers = 16;
struct Buffer {
  uintptr_t lo, hi;
  unsigned elem;
  char name[32];
};
// What the handler reads. A signal handler is reached from nowhere but the
// kernel, so this one object is the process's; written between launches only.
struct SignalState {
  int sock = -1;
  uintptr_t text_lo = 0, text_hi = 0, base = 0;
  char kernel[64] = {};
  Buffer buffers[kMaxBuffers] = {};
  int count = 0;
  std::atomic<bool> reporting{false};
};
SignalState g_state;

// Appends to a fixed buffer without allocating (async-signal-safe).
struct Writer {
  char* out;
  size_t cap, n = 0;
  void str(const char* s) {
    for (; *s && n + 1 < cap; ++s) out[n++] = *s;
    out[n] = '\0';
  }
  void json_str(const char* s) {  // names are the app's identifiers; quotes and controls dropped anyway
    str("\"");
    for (; *s && n + 2 < cap; ++s)
      if (*s != '"' && *s != '\\' && static_cast<unsigned char>(*s) >= 32) out[n++] = *s;
    out[n] = '\0';
    str("\"");
  }
  void num(unsigned long long v) {
    char d[24];
    int k = 0;
    do d[k++] = static_cast<char>('0' + v % 10), v /= 10;
    while (v);
    while (k && n + 1 < cap) out[n++] = d[--k];
    out[n] = '\0';
  }
  void snum(long long v) {
    if (v < 0) str("-"), num(static_cast<unsigned long long>(-(v + 1)) + 1);
    else num(static_cast<unsigned long long>(v));
  }
  void dim(const unsigned d[3]) {
    str("["), num(d[0]), str(","), num(d[1]), str(","), num(d[2]), str("]");
  }
};

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return "SIG";
  }
}

uintptr_t fault_pc(void* uc) {
  const auto* u = static_cast<const ucontext_t*>(uc);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(u->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(u->uc_mcontext.pc);
#else
  (void)u;
  return 0;
#endif
}

void write_all(int fd, const char* p, size_t n) {
  while (n) {
    const ssize_t w = write(fd, p, n);
    if (w <= 0) return;
    p += w, n -= static_cast<size_t>(w);
  }
}

void on_signal(int sig, siginfo_t* si, void* uc) {
  if (g_state.reporting.exchange(true)) {  // another thread is saying it: wait for the end
    for (;;) {  // nanosleep, not pause(): a sandboxed cell's policy allows only the former
      timespec t{1, 0};
      nanosleep(&t, nullptr);
    }
  }
  SignalFacts f;
  f.signal = sig;
  f.pc = fault_pc(uc);
  f.address = reinterpret_cast<uintptr_t>(si->si_addr);
  cv_emu::Dim b{}, t{};
  if (emu::current_thread(b, t, f.batched)) {
    f.where = true;
    f.block[0] = b.x, f.block[1] = b.y, f.block[2] = b.z;
    f.thread[0] = t.x, f.thread[1] = t.y, f.thread[2] = t.z;
  }
  char json[2048];
  const size_t n = signal_reply_json(f, json, sizeof json);
  const uint32_t header[3] = {wire::kMagic, static_cast<uint32_t>(n), 0};  // runner_protocol.cpp's frame
  write_all(g_state.sock, reinterpret_cast<const char*>(header), sizeof header);
  write_all(g_state.sock, json, n);
  _exit(128 + sig);
}

}  // namespace

size_t signal_reply_json(const SignalFacts& f, char* out, size_t cap) {
  Writer w{out, cap};
  w.str("{\"ok\":false,\"fatal\":true,\"error_name\":\"");
  w.str(signal_name(f.signal));
  w.str("\",\"error\":\"\",\"kernel\":");
  w.json_str(g_state.kernel);
  if (f.pc >= g_state.text_lo && f.pc < g_state.text_hi) {
    w.str(",\"fault_code_offset\":");  // in the student's module: the app reads its line table
    w.num(f.pc - g_state.base);
  }
  w.str(",\"fault_address\":");
  w.num(f.address);
  // The buffer nearest the address, and the element it would be.
  const Buffer* best = nullptr;
  uintptr_t best_d = ~uintptr_t{0};
  for (int i = 0; i < g_state.count; ++i) {
    const Buffer& b = g_state.buffers[i];
    const uintptr_t d = f.address < b.lo ? b.lo - f.address : f.address >= b.hi ? f.address - b.hi : 0;
    if (d < best_d) best_d = d, best = &b;
  }
  if (best && f.address >= 4096) {
    w.str(",\"fault_buffer\":");
    w.json_str(best->name);
    const long long elem = best->elem ? best->elem : 1;
    w.str(",\"fault_index\":");
    w.snum((static_cast<long long>(f.address) - static_cast<long long>(best->lo)) / elem);
    w.str(",\"fault_size\":");
    w.num((best->hi - best->lo) / static_cast<uintptr_t>(elem));
  }
  if (f.where) {
    w.str(",\"fault_block\":"), w.dim(f.block);
    w.str(",\"fault_thread\":"), w.dim(f.thread);
    if (f.batched) w.str(",\"fault_batched\":true");
  }
  w.str("}");
  return w.n;
}

void install_signal_reply(int sock) {
  g_state.sock = sock;
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
}

void set_signal_module(uintptr_t text_lo, uintptr_t text_hi, uintptr_t base, const std::string& kernel) {
  g_state.text_lo = text_lo, g_state.text_hi = text_hi, g_state.base = base;
  std::strncpy(g_state.kernel, kernel.c_str(), sizeof g_state.kernel - 1);
}

void set_signal_buffers(const std::vector<BufferView>& buffers) {
  int n = 0;
  for (const BufferView& b : buffers) {
    if (n == kMaxBuffers) break;
    if (!b.data || !b.bytes) continue;
    Buffer& d = g_state.buffers[n++];
    d.lo = reinterpret_cast<uintptr_t>(b.data), d.hi = d.lo + b.bytes, d.elem = b.elem_bytes;
    std::strncpy(d.name, b.name.c_str(), sizeof d.name - 1);
    d.name[sizeof d.name - 1] = '\0';
  }
  g_state.count = n;
}

}  // namespace cv::usercode::runner
