// The launch request on the wire (wire/protocol.h): a small JSON header
// that points into the frame's blob, where the request itself lies in a
// compact binary form. A frame of the scene sends one; building and parsing
// it as a JSON document cost about 40 us a frame on the development machine
// (nlohmann's DOM, both ends), as much as the socket itself.
#include <cstring>
#include <stdexcept>

#include "usercode/wire/launch_request.h"

namespace cv::usercode::wire {
namespace {

using json = nlohmann::json;

constexpr uint32_t kLaunchMagic = 0x324c5643;  // "CVL2": this layout, version 2 (the schedule byte)
constexpr uint32_t kMaxArgs = 256, kMaxSwaps = 64;

class Writer {
 public:
  explicit Writer(std::vector<char>& out) : out_(out) {}
  template <class T>
  void pod(const T& v) {
    const char* p = reinterpret_cast<const char*>(&v);
    out_.insert(out_.end(), p, p + sizeof v);
  }
  void u8(uint8_t v) { pod(v); }
  void u32(uint32_t v) { pod(v); }
  void u64(uint64_t v) { pod(v); }
  void bytes(const char* p, size_t n) {
    u64(n);
    out_.insert(out_.end(), p, p + n);
  }
  void str(const std::string& s) { bytes(s.data(), s.size()); }
  void vec(const std::vector<char>& v) { bytes(v.data(), v.size()); }

 private:
  std::vector<char>& out_;
};

// Every read is bounds-checked: a short or corrupt request is an exception
// naming the field, never a read past the blob.
class Reader {
 public:
  Reader(const char* p, size_t n) : p_(p), n_(n) {}
  template <class T>
  T pod(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, p_ + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  uint8_t u8(const char* what) { return pod<uint8_t>(what); }
  uint32_t u32(const char* what) { return pod<uint32_t>(what); }
  uint64_t u64(const char* what) { return pod<uint64_t>(what); }
  std::vector<char> vec(const char* what) {
    const uint64_t n = u64(what);
    need(n, what);
    std::vector<char> v(p_ + at_, p_ + at_ + n);
    at_ += n;
    return v;
  }
  std::string str(const char* what) {
    const std::vector<char> v = vec(what);
    return std::string(v.begin(), v.end());
  }
  bool done() const { return at_ == n_; }

 private:
  void need(uint64_t bytes, const char* what) const {
    if (bytes > n_ - at_)
      throw std::runtime_error(std::string("launch request: ") + what + " runs past its end (" +
                               std::to_string(n_) + " bytes)");
  }
  const char* p_;
  size_t n_, at_ = 0;
};

template <class E>
E enum_of(uint8_t v, E last, const char* what) {
  if (v > static_cast<uint8_t>(last))
    throw std::runtime_error(std::string("launch request: ") + what + " " + std::to_string(v) + " is not known");
  return static_cast<E>(v);
}

void write_span(Writer& w, const SpanArg& s) {
  w.u32(s.elem_bytes);
  w.u64(s.count);
  w.u8(s.writable);
  w.u8(s.read_back);
  w.u8(static_cast<uint8_t>(s.from));
  w.u64(s.shared_id);
  w.str(s.generator);
  w.u64(s.gen_n);
  w.u64(s.seed);
  w.str(s.state);
  w.u8(static_cast<uint8_t>(s.init));
  w.vec(s.init_bytes);
  w.vec(s.tail);
}

SpanArg read_span(Reader& r, const std::string& name) {
  SpanArg s;
  s.elem_bytes = r.u32("elem_bytes");
  if (s.elem_bytes == 0) throw std::runtime_error("span " + name + ": elem_bytes is 0");
  s.count = r.u64("count");
  s.writable = r.u8("writable") != 0;
  s.read_back = r.u8("read_back") != 0;
  s.from = enum_of(r.u8("from"), SpanArg::From::State, "span source");
  s.shared_id = r.u64("shared id");
  s.generator = r.str("generator");
  s.gen_n = r.u64("generator n");
  s.seed = r.u64("seed");
  s.state = r.str("state");
  s.init = enum_of(r.u8("init"), SpanArg::Init::Zero, "span start");
  s.init_bytes = r.vec("init bytes");
  s.tail = r.vec("tail");
  if (s.from == SpanArg::From::Generate && s.generator.empty())
    throw std::runtime_error("span " + name + ": generated, but names no generator");
  if (s.from == SpanArg::From::State && s.state.empty())
    throw std::runtime_error("span " + name + ": kept, but names no state");
  return s;
}

}  // namespace

json encode_launch(const LaunchRequest& r, std::vector<char>& blob) {
  const size_t at = blob.size();
  Writer w(blob);
  w.u32(kLaunchMagic);
  w.str(r.module);
  for (unsigned d : r.shape.grid) w.u32(d);
  for (unsigned d : r.shape.block) w.u32(d);
  w.u32(r.shape.dynamic_shared_bytes);
  w.pod<int32_t>(r.reps);
  w.u64(r.cpu_items);
  w.u8(static_cast<uint8_t>(r.schedule));
  w.u32(static_cast<uint32_t>(r.args.size()));
  for (const LaunchArg& a : r.args) {
    w.str(a.name);
    w.u8(a.is_span);
    if (a.is_span) write_span(w, a.span);
    else w.vec(a.scalar);
  }
  w.u32(static_cast<uint32_t>(r.swaps.size()));
  for (const auto& [x, y] : r.swaps) w.str(x), w.str(y);
  return {{"op", "launch"}, {"module", r.module}, {"request", {at, blob.size() - at}}};
}

LaunchRequest decode_launch(const json& j, const std::vector<char>& blob) {
  const json& where = j.at("request");
  if (!where.is_array() || where.size() != 2) throw std::runtime_error("launch: \"request\" is not [offset, bytes]");
  const size_t off = where[0].get<size_t>(), n = where[1].get<size_t>();
  if (off > blob.size() || n > blob.size() - off)
    throw std::runtime_error("launch: the request's bytes [" + std::to_string(off) + ", +" + std::to_string(n) +
                             ") lie outside the " + std::to_string(blob.size()) + "-byte blob");
  Reader rd(blob.data() + off, n);
  if (rd.u32("magic") != kLaunchMagic) throw std::runtime_error("launch request: not this version's layout");
  LaunchRequest r;
  r.module = rd.str("module");
  for (unsigned& d : r.shape.grid) d = rd.u32("grid");
  for (unsigned& d : r.shape.block) d = rd.u32("block");
  r.shape.dynamic_shared_bytes = rd.u32("shared bytes");
  r.reps = rd.pod<int32_t>("reps");
  if (r.reps < 1) throw std::runtime_error("reps " + std::to_string(r.reps) + " is below 1");
  r.cpu_items = rd.u64("cpu items");
  const uint8_t schedule = rd.u8("schedule");
  if (schedule > static_cast<uint8_t>(Schedule::Verdict))
    throw std::runtime_error("launch request: schedule " + std::to_string(schedule) + " is not 0, 1 or 2");
  r.schedule = static_cast<Schedule>(schedule);
  const uint32_t args = rd.u32("argument count");
  if (args > kMaxArgs) throw std::runtime_error("launch request: " + std::to_string(args) + " arguments");
  for (uint32_t k = 0; k < args; ++k) {
    LaunchArg a;
    a.name = rd.str("argument name");
    a.is_span = rd.u8("argument kind") != 0;
    if (a.is_span) a.span = read_span(rd, a.name);
    else a.scalar = rd.vec("scalar bytes");
    r.args.push_back(std::move(a));
  }
  const uint32_t swaps = rd.u32("swap count");
  if (swaps > kMaxSwaps) throw std::runtime_error("launch request: " + std::to_string(swaps) + " swaps");
  for (uint32_t k = 0; k < swaps; ++k) {
    std::string x = rd.str("swap"), y = rd.str("swap");
    r.swaps.emplace_back(std::move(x), std::move(y));
  }
  if (!rd.done()) throw std::runtime_error("launch request: bytes left after its end");
  return r;
}

}  // namespace cv::usercode::wire
