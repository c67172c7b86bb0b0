#include "usercode/args/arg_binder.h"

#include <cstring>
#include <stdexcept>

#include "usercode/wire/data_generators.h"

namespace cv::usercode::runner {
namespace {

struct SpanSlot {  // cv::Span<T> of the prelude
  void* data;
  unsigned long long size;
};

size_t span_bytes(const SpanArg& s) {
  if (s.elem_bytes && s.count > ~size_t{0} / s.elem_bytes)
    throw std::runtime_error("a span of " + std::to_string(s.count) + " elements does not fit in memory");
  return static_cast<size_t>(s.count) * s.elem_bytes;
}

std::string a_span_failed(const std::string& why) { return "a span cannot be prepared: " + why; }

}  // namespace

Block& ArgBinder::state(const std::string& key, size_t bytes, bool& fresh) {
  auto it = states_.find(key);
  fresh = it == states_.end() || it->second.bytes() != bytes;
  if (fresh) {
    if (it != states_.end()) states_.erase(it);  // free before the new one
    it = states_.emplace(key, Block(m_, bytes)).first;
  }
  return it->second;
}

ArgBinder::Generated& ArgBinder::generated(const std::string& slot, const std::string& generator,
                                           unsigned long long n, uint64_t seed, size_t bytes) {
  Generated& g = generated_[slot];
  if (g.generator != generator || g.n != n || g.seed != seed || g.bytes != bytes || !g.block.get()) {
    // A block at least this large is kept (a verdict's small cases after its
    // large one cost no free and no new allocation, which on a GPU each wait
    // for the device); a larger one replaces it, the old one freed first: at
    // a lab's size two would not fit a small device.
    Block keep = g.block.bytes() >= bytes ? std::move(g.block) : Block();
    g = Generated{};
    g.in_place = bytes && m_.generates(generator, n, bytes);
    if (!g.in_place) {
      g.host = generate_data(generator, n, seed);
      if (g.host.size() != bytes)
        throw std::runtime_error("generator " + generator + " made " + std::to_string(g.host.size()) +
                                 " bytes for a span of " + std::to_string(bytes));
    }
    g.block = keep.get() ? std::move(keep) : Block(m_, bytes);
    g.bytes = bytes;
    if (g.in_place)
      m_.generate(g.block.get(), generator, n, seed);
    else if (bytes)
      m_.upload(g.block.get(), g.host.data(), bytes);
    g.generator = generator, g.n = n, g.seed = seed;
  }
  return g;
}

void* ArgBinder::resolve(const LaunchArg& a, const SharedLookup& shared, std::string& error) {
  const SpanArg& s = a.span;
  const size_t bytes = span_bytes(s);
  switch (s.from) {
    case SpanArg::From::Shared: {
      const auto [p, have] = shared(s.shared_id);
      if (!p || have < bytes) {
        error = "the shared buffer for " + a.name + " is unknown or holds fewer than " +
                std::to_string(bytes) + " bytes";
        return nullptr;
      }
      return p;
    }
    case SpanArg::From::Generate:
      return generated(a.name, s.generator, s.gen_n, s.seed, bytes).block.get();
    case SpanArg::From::Zero: {
      Block& z = zeros_[a.name];
      if (z.bytes() < bytes || !z.get()) z = Block(), z = Block(m_, bytes);  // a larger one is kept, as above
      return z.get();
    }
    case SpanArg::From::State: {
      bool fresh = false;
      Block& b = state(s.state, bytes, fresh);
      if (s.init == SpanArg::Init::Bytes) {
        if (s.init_bytes.size() != bytes) {
          error = "the first bytes of " + a.name + " are " + std::to_string(s.init_bytes.size()) +
                  ", not " + std::to_string(bytes);
          return nullptr;
        }
        if (bytes) m_.upload(b.get(), s.init_bytes.data(), bytes);
      } else if (s.init == SpanArg::Init::Generate) {
        const std::vector<char> host = generate_data(s.generator, s.gen_n, s.seed);
        if (host.size() != bytes) {
          error = "generator " + s.generator + " made " + std::to_string(host.size()) + " bytes for " + a.name;
          return nullptr;
        }
        if (bytes) m_.upload(b.get(), host.data(), bytes);
      } else if ((s.init == SpanArg::Init::Zero || fresh) && bytes) {
        m_.zero(b.get(), bytes);
      }
      return b.get();
    }
  }
  return nullptr;
}

std::string ArgBinder::prepare(LaunchRequest request, const SharedLookup& shared) {
  req_ = std::move(request);
  base_.assign(req_.args.size(), nullptr);
  std::string error;
  try {
    for (size_t i = 0; i < req_.args.size(); ++i) {
      const LaunchArg& a = req_.args[i];
      if (!a.is_span) continue;
      base_[i] = resolve(a, shared, error);
      if (!error.empty()) return error;
    }
  } catch (const std::exception& e) {
    // An unknown generator, a size that does not fit, memory the device lacks:
    // this request cannot run, the runner and its context can.
    return a_span_failed(e.what());
  }
  for (const auto& [x, y] : req_.swaps)
    if (!states_.count(x) || !states_.count(y)) return "a swap names a state no span keeps: " + x + ", " + y;
  // Init bytes are applied; a kept copy would only cost memory.
  for (LaunchArg& a : req_.args) a.span.init_bytes.clear(), a.span.init_bytes.shrink_to_fit();
  return "";
}

const BoundArgs& ArgBinder::bind_rep() {
  slots_.assign(req_.args.size(), {});
  bound_.params.assign(req_.args.size(), nullptr);
  bound_.buffers.clear();
  for (size_t i = 0; i < req_.args.size(); ++i) {
    const LaunchArg& a = req_.args[i];
    if (!a.is_span) {
      slots_[i] = a.scalar;
      if (slots_[i].empty()) slots_[i].push_back(0);
      bound_.params[i] = slots_[i].data();
      continue;
    }
    const SpanArg& s = a.span;
    const size_t bytes = span_bytes(s);
    if (s.from == SpanArg::From::State) base_[i] = states_.at(s.state).get();  // after swaps
    if (s.from == SpanArg::From::Zero && bytes) m_.zero(base_[i], bytes);
    if (s.from == SpanArg::From::Generate && s.writable && bytes) {  // the kernel may have written them
      const Generated& g = generated_.at(a.name);
      if (g.in_place)
        m_.generate(base_[i], g.generator, g.n, g.seed);
      else
        m_.upload(base_[i], g.host.data(), bytes);
    }
    const SpanSlot span{base_[i], s.count};
    slots_[i].resize(sizeof span + s.tail.size());
    std::memcpy(slots_[i].data(), &span, sizeof span);
    if (!s.tail.empty()) std::memcpy(slots_[i].data() + sizeof span, s.tail.data(), s.tail.size());
    bound_.params[i] = slots_[i].data();
    bound_.buffers.push_back({base_[i], bytes, s.elem_bytes, a.name, s.writable, static_cast<int>(i)});
  }
  return bound_;
}

nlohmann::json ArgBinder::read_back(std::vector<char>& blob) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < req_.args.size(); ++i) {
    const LaunchArg& a = req_.args[i];
    if (!a.is_span || !a.span.read_back) continue;
    const size_t bytes = span_bytes(a.span), at = blob.size();
    blob.resize(at + bytes);
    if (bytes) m_.download(blob.data() + at, base_[i], bytes);
    list.push_back({{"name", a.name}, {"at", {at, bytes}}});
  }
  return list;
}

void ArgBinder::after_rep() {
  for (const auto& [x, y] : req_.swaps) std::swap(states_.at(x), states_.at(y));
}

}  // namespace cv::usercode::runner
