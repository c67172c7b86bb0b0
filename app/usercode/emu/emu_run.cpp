// run(): a launch over the thread pool, the hooks the kernel calls, and the
// explain recording (emu.h).
#include <dlfcn.h>
#include <link.h>

#include <cstring>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>

#include "common/parallel_for.h"
#include "usercode/emu/block_stepper.h"
#include "usercode/emu/emu.h"
#include "usercode/emu/explain_analysis.h"
#include "usercode/emu/explain_record.h"
#include "usercode/emu/explain_recorder.h"
#include "usercode/emu/pc_lines.h"
#include "usercode/emu/shared_names.h"
#include "usercode/emu/tls_symbols.h"
#include "usercode/emu/verdict_interleaver.h"

namespace cv::emu {
namespace {

struct Range {
  uintptr_t lo, hi;
};

struct RunState {
  const cv_emu::Entry* entry;
  void** params;
  cv_emu::Dim grid, block;
  const Options* opt;
  std::mutex m;
  std::optional<BlockError> error;
  // The lowest block that failed so far: blocks after it are skipped, blocks
  // before it still run, so the error named is the first block's whatever
  // order the workers took them in (the same message every run).
  std::atomic<unsigned long long> error_block{~0ull};
  std::vector<std::string> prints;
  std::string partial;
  bool print_truncated = false;
  // explain and verdict
  std::vector<Range> buffers;
  std::vector<Range> writable;  // the buffers a kernel may write (verdict: accesses that can race)
  unsigned long long record_blocks = 0;
  std::vector<std::unique_ptr<WorkerRecord>> records;
  std::atomic<size_t> events{0};
  uint64_t seed = 0;  // verdict schedules' shuffles
};

// One parallel_for chunk on one thread.
struct Worker {
  RunState* run = nullptr;
  cv_emu::Ctx* ctx = nullptr;
  BlockStepper* stepper = nullptr;  // null: the loop mode
  WorkerRecord* rec = nullptr;
  Range shared{0, 0}, ctx_range{0, 0};
  bool verdict = false;
  bool batched = false;  // the fast path or plain loops: many emulated threads in one compiled loop
  TextRange text;  // the module's code: an access's call stack is walked inside it
};

thread_local Worker* tl = nullptr;

struct Trap {
  BlockError e;
};

void fail(RunState& s, unsigned long long block, BlockError e) {
  std::lock_guard<std::mutex> l(s.m);
  if (block < s.error_block.load()) s.error = std::move(e), s.error_block.store(block);
}

void hook_barrier(int line) {
  if (!tl->stepper)
    throw Trap{{"barrier", "__syncthreads() at line " + std::to_string(line) +
                               " was reached in a kernel the emulator runs without fibers", line}};
  tl->stepper->wait_barrier(line);
}

void hook_warp(int line) {
  if (!tl->stepper)
    throw Trap{{"warp", "a warp operation at line " + std::to_string(line) +
                            " was reached in a kernel the emulator runs without fibers", line}};
  tl->stepper->wait_warp(line);
}

void hook_print(const char* text, unsigned long long n) {
  RunState& s = *tl->run;
  std::lock_guard<std::mutex> l(s.m);
  for (unsigned long long i = 0; i < n; ++i) {
    if (text[i] != '\n') {
      if (s.partial.size() < 1000) s.partial += text[i];
      continue;
    }
    if (s.prints.size() < s.opt->max_print_lines) s.prints.push_back(s.partial);
    else s.print_truncated = true;
    s.partial.clear();
  }
}

void hook_trap(const char* what, int line) {
  const cv_emu::Ctx& c = *tl->ctx;
  BlockError e{"trap", std::string(what) + " at line " + std::to_string(line) + " in thread " +
                           dim_text(c.thread_idx) + " of block " + dim_text(c.block_idx), line};
  if (tl->stepper) tl->stepper->abort_block(std::move(e));
  throw Trap{std::move(e)};
}

uint32_t block_linear(const cv_emu::Dim& b, const cv_emu::Dim& g) { return (b.z * g.y + b.y) * g.x + b.x; }

// Verdict schedules: a store to memory other threads may touch ends the
// thread's turn before it lands. Every thread of a round has then read what it
// read before any of them writes back, so a read-modify-write without an
// atomic loses updates, in a block (shared memory) and across the blocks that
// take turns (global memory), and a value read before the barrier that should
// have ordered it is stale. (Ending turns at loads too costs a switch per
// read, n-body's tiles millions, and finds no lost update stores do not.)
void verdict_access(Worker& w, uintptr_t a) {
  if (!w.stepper) return;
  const bool shared = a >= w.shared.lo && a < w.shared.hi && !(a >= w.ctx_range.lo && a < w.ctx_range.hi);
  bool racy = shared;
  for (size_t i = 0; !racy && i < w.run->writable.size(); ++i)
    racy = a >= w.run->writable[i].lo && a < w.run->writable[i].hi;
  if (racy) w.stepper->park();
}

void hook_access(const void* p, unsigned bytes, int kind, const void* pc, const void* frame) {
  Worker& w = *tl;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (w.verdict) {  // a store ends the thread's turn; its loads need not (see verdict_access)
    if (kind != cv_emu::kRead) verdict_access(w, a);
    return;
  }
  if (!w.rec) return;
  RunState& s = *w.run;
  uint8_t space = 0;
  uint64_t offset = 0;
  bool found = false;
  for (size_t i = 0; i < s.buffers.size(); ++i)
    if (a >= s.buffers[i].lo && a < s.buffers[i].hi) {
      space = static_cast<uint8_t>(i), offset = a - s.buffers[i].lo, found = true;
      break;
    }
  if (!found) {
    if (a < w.shared.lo || a >= w.shared.hi || (a >= w.ctx_range.lo && a < w.ctx_range.hi)) return;
    space = kSharedSpace, offset = a - w.shared.lo;
  }
  const cv_emu::Ctx& c = *w.ctx;
  const uint32_t block = block_linear(c.block_idx, c.grid_dim);
  if (block >= s.record_blocks) return;
  if (s.events.fetch_add(1, std::memory_order_relaxed) >= s.opt->max_events) {
    w.rec->truncated = true;
    return;
  }
  Event e;
  e.address = offset;
  e.where = w.rec->stacks.intern(walk_stack(pc, frame, w.text));
  e.block = block;
  e.thread = (c.thread_idx.z * c.block_dim.y + c.thread_idx.y) * c.block_dim.x + c.thread_idx.x;
  const Lane* lane = w.stepper ? w.stepper->current() : nullptr;
  e.bepoch = lane ? lane->bepoch : 0;
  e.wepoch = lane ? lane->wepoch : 0;
  e.bytes = bytes;
  e.kind = static_cast<uint8_t>(kind);
  e.space = space;
  w.rec->events.push_back(e);
}

void hook_branch(int line, int taken) {
  Worker& w = *tl;
  if (!w.rec) return;
  const cv_emu::Ctx& c = *w.ctx;
  const uint32_t block = block_linear(c.block_idx, c.grid_dim);
  if (block >= w.run->record_blocks) return;
  const uint32_t t = (c.thread_idx.z * c.block_dim.y + c.thread_idx.y) * c.block_dim.x + c.thread_idx.x;
  const uint32_t k = w.rec->evaluations[lane_key(line, block, t)]++;
  BranchMasks& m = w.rec->branches[BranchKey{line, block, t / 32, k}];
  (taken ? m.taken : m.not_taken) |= 1u << (t % 32);
}

void hook_enter(const void*) {}
void hook_leave() {}

unsigned block_threads(const cv_emu::Ctx& c) { return c.block_dim.x * c.block_dim.y * c.block_dim.z; }

int hook_fission_barrier(const unsigned char* done, int line) {
  const cv_emu::Ctx& c = *tl->ctx;
  const unsigned n = block_threads(c);
  unsigned left = 0;
  for (unsigned i = 0; done && i < n; ++i) left += done[i] != 0;
  if (left == 0) return 0;
  if (left == n) return 1;
  throw Trap{{"barrier", barrier_not_reached(line, n - left, n, left, c.block_idx), line}};
}

void hook_fission_warp(cv_emu::LaneSlot* slots, const unsigned char* done, int) {
  const cv_emu::Ctx& c = *tl->ctx;
  if (std::optional<BlockError> e = fission_warps(slots, done, block_threads(c), c.block_idx)) throw Trap{*e};
}

const cv_emu::Hooks kHooks = {&hook_barrier, &hook_warp,  &hook_print, &hook_trap,
                              &hook_access,  &hook_branch, &hook_enter, &hook_leave,
                              &hook_fission_barrier, &hook_fission_warp};

// How a launch runs its blocks: the fast path where the kernel has one (and
// neither fibers nor explain's recording were asked for), fibers where it
// names a barrier or a warp operation, else plain loops.
enum class Path { Fission, Fibers, Loop, Verdict };
Path path_of(const cv_emu::Entry& e, const Options& o) {
  if (o.verdict) return Path::Verdict;
  if (e.fission && !o.force_fibers && !o.explain) return Path::Fission;
  return e.uses_sync || o.force_fibers ? Path::Fibers : Path::Loop;
}

unsigned worker_index() {
  static std::atomic<unsigned> next{0};
  thread_local const unsigned mine = next++;
  return mine;
}

BlockStepper& block_stepper(size_t stack_bytes) {
  thread_local std::unique_ptr<BlockStepper> r;
  if (!r || r->stack_bytes() != stack_bytes) r = std::make_unique<BlockStepper>(stack_bytes);
  return *r;
}

VerdictInterleaver& verdict_interleaver(size_t stack_bytes) {
  thread_local std::unique_ptr<VerdictInterleaver> r;
  if (!r || r->stack_bytes() != stack_bytes) r = std::make_unique<VerdictInterleaver>(stack_bytes);
  return *r;
}

// The verdict schedule's blocks on this worker: several at once, their shared
// variables (the worker's TLS block but for the emulator's context) swapped.
void run_verdict(RunState& s, Worker& w, size_t first, size_t last) {
  std::vector<MemoryRange> shared;
  if (w.shared.lo < w.ctx_range.lo) shared.push_back({w.shared.lo, std::min(w.ctx_range.lo, w.shared.hi)});
  if (w.ctx_range.hi < w.shared.hi) shared.push_back({std::max(w.ctx_range.hi, w.shared.lo), w.shared.hi});
  uint64_t seed = s.opt->verdict_seed ? s.opt->verdict_seed : s.seed;
  seed = seed * 0x9e3779b97f4a7c15ull + first;
  const std::optional<BlockFailure> f = verdict_interleaver(s.opt->stack_bytes).run(
      *s.entry, s.params, w.ctx, first, last, shared, seed, [&](BlockStepper* r) { w.stepper = r; },
      [&](unsigned long long b) { return b < s.error_block.load(std::memory_order_relaxed); },
      s.opt->blocks_done ? &s.opt->blocks_done->of(w.ctx->worker) : nullptr);
  if (f) fail(s, f->block, f->error);
}

// The module's TLS block on this thread, where its __shared__ variables are:
// found from the context's own address and its offset in the block (the ELF
// symbol table's), which works for static and dynamic TLS alike.
Range shared_range(const Module& m, const cv_emu::Ctx* ctx) {
  if (!m.tls_bytes || m.ctx_tls_offset > reinterpret_cast<uintptr_t>(ctx)) return {0, 0};
  const uintptr_t lo = reinterpret_cast<uintptr_t>(ctx) - m.ctx_tls_offset;
  return {lo, lo + m.tls_bytes};
}

void run_chunk(RunState& s, const Kernel& k, size_t first, size_t last) {
  Worker w;
  w.run = &s;
  w.ctx = k.module->ctx();  // also makes the module's TLS block exist on this thread
  cv_emu::Ctx& c = *w.ctx;
  c.block_dim = s.block;
  c.grid_dim = s.grid;
  c.hooks = &kHooks;
  c.worker = worker_index();
  static_assert(sizeof(std::atomic<unsigned long long>) == sizeof(unsigned long long), "one counter, two views");
  // The module adds to this worker's own slot (no cache line shared between workers).
  c.blocks_done = s.opt->blocks_done ? reinterpret_cast<unsigned long long*>(&s.opt->blocks_done->of(c.worker)) : nullptr;
  const Path path = path_of(*s.entry, *s.opt);
  c.fibers = path == Path::Fibers;
  if (s.opt->explain) {
    std::lock_guard<std::mutex> l(s.m);
    s.records.push_back(std::make_unique<WorkerRecord>());
    w.rec = s.records.back().get();
  }
  if (s.opt->explain || path == Path::Verdict) {
    w.shared = shared_range(*k.module, w.ctx);
    w.ctx_range = {reinterpret_cast<uintptr_t>(w.ctx), reinterpret_cast<uintptr_t>(w.ctx) + sizeof(cv_emu::Ctx)};
    w.text = k.module->text;
  }
  w.verdict = path == Path::Verdict;
  w.batched = path == Path::Fission || path == Path::Loop;
  c.fibers = c.fibers || w.verdict;
  Worker* saved = tl;
  tl = &w;
  try {
    if (path == Path::Verdict) {
      run_verdict(s, w, first, last);
    } else if (path == Path::Fission) {
      s.entry->fission(s.params, w.ctx, first, last);
    } else if (path == Path::Loop) {
      s.entry->loop(s.params, w.ctx, first, last);
    } else {
      BlockStepper& r = block_stepper(s.opt->stack_bytes);
      w.stepper = &r;
      for (size_t b = first; b < last && b < s.error_block.load(std::memory_order_relaxed); ++b) {
        c.block_idx = {static_cast<unsigned>(b % s.grid.x), static_cast<unsigned>((b / s.grid.x) % s.grid.y),
                       static_cast<unsigned>(b / (static_cast<size_t>(s.grid.x) * s.grid.y))};
        if (std::optional<BlockError> e = r.run(*s.entry, s.params, w.ctx)) {
          fail(s, b, std::move(*e));
          break;
        }
        if (s.opt->blocks_done) s.opt->blocks_done->add(c.worker, 1);
      }
    }
  } catch (const Trap& t) {
    fail(s, block_linear(c.block_idx, s.grid), t.e);
  } catch (const std::exception& e) {
    fail(s, block_linear(c.block_idx, s.grid), {"trap", std::string("the kernel threw: ") + e.what(), 0});
  }
  tl = saved;
}

// After the launch: the workers' records merged, their call stacks placed at
// the student's lines, shared memory named, and the analysis.
Explain explain_launch(RunState& s, const Kernel& k, const Options& opt,
                       const std::vector<usercode::BufferView>& buffers, unsigned long long blocks,
                       unsigned long long threads) {
  MergedRecord m = merge_records(s.records);
  std::vector<uint64_t> pcs;
  for (const CallStack& st : m.stacks)
    for (uint64_t pc : st)
      if (pc) pcs.push_back(pc);
  link_map* lm = nullptr;
  dlinfo(k.module->handle(), RTLD_DI_LINKMAP, &lm);
  const std::vector<Place> places = place_stacks(
      m.stacks, opt.resolve_frames ? opt.resolve_frames(pcs)
                                   : resolve_frames(k.module->path, lm ? lm->l_addr : 0, pcs, k.module->student_file));
  std::set<std::string> names;
  for (const TlsSymbol& t : k.module->tls) names.insert(t.name);
  const SharedNamer namer(k.module->tls,
                          opt.variable_shapes ? opt.variable_shapes(names) : variable_shapes(k.module->path, names),
                          opt.source);
  AnalysisInput in;
  in.buffers = &buffers;
  in.grid = s.grid;
  in.block = s.block;
  in.chosen_block = std::min<unsigned long long>(opt.explain_block, blocks - 1);
  in.chosen_warp = opt.explain_warp;
  in.unrolled = opt.unrolled;
  in.place_of = [&](uint64_t where) { return where < places.size() ? places[where] : Place{}; };
  in.shared_name = [&](uint64_t off, unsigned bytes, int line) { return namer.name(off, bytes, line); };
  in.shared_unit = [&](uint64_t off, unsigned bytes) { return namer.element_start(off, bytes); };
  Explain x = analyse(m.events, m.branches, in);
  x.truncated = m.truncated;
  x.recorded_threads = std::min<unsigned long long>(s.record_blocks, blocks) * threads;
  return x;
}

// What the emulator cannot run, refused with the value and the limit.
void check_launch(const Kernel& k, const usercode::LaunchShape& shape, const Options& opt, unsigned long long threads,
                  unsigned long long blocks) {
  if (threads == 0 || threads > 1024)
    throw std::invalid_argument("a block of " + std::to_string(shape.block[0]) + "x" +
                                std::to_string(shape.block[1]) + "x" + std::to_string(shape.block[2]) + " = " +
                                std::to_string(threads) +
                                " threads: a block has 1 to 1024 threads");
  if (blocks == 0 || blocks > (1ull << 32))
    throw std::invalid_argument("a grid of " + std::to_string(blocks) + " blocks: the emulator runs 1 to 2^32");
  if (shape.dynamic_shared_bytes > k.module->dynamic_shared_capacity && k.module->dynamic_shared_capacity)
    throw std::invalid_argument("dynamic shared memory of " + std::to_string(shape.dynamic_shared_bytes) +
                                " bytes: the emulator gives at most " +
                                std::to_string(k.module->dynamic_shared_capacity));
  if (opt.explain && !k.module->explain_build)
    throw std::invalid_argument("explain needs a module built for it (BuildRequest::explain)");
  if (opt.verdict && !k.module->verdict_build)
    throw std::invalid_argument("a verdict schedule needs a module built for it (BuildRequest::verdict)");
}

}  // namespace

Report run(const Kernel& k, const usercode::LaunchShape& shape, void** params,
           const std::vector<usercode::BufferView>& buffers, const Options& opt) {
  if (!k.entry || !k.module) throw std::invalid_argument("emu::run: no kernel");
  const cv_emu::Dim grid{shape.grid[0], shape.grid[1], shape.grid[2]};
  const cv_emu::Dim block{shape.block[0], shape.block[1], shape.block[2]};
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  const unsigned long long blocks = 1ull * grid.x * grid.y * grid.z;
  check_launch(k, shape, opt, threads, blocks);
  RunState s;
  s.entry = k.entry;
  s.params = params;
  s.grid = grid;
  s.block = block;
  s.opt = &opt;
  for (const usercode::BufferView& b : buffers) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(b.data);
    s.buffers.push_back({lo, lo + b.bytes});
    if (b.writable) s.writable.push_back({lo, lo + b.bytes});
  }
  s.seed = opt.verdict_seed ? opt.verdict_seed : std::random_device{}();
  s.record_blocks = opt.explain ? std::max<unsigned long long>(1, opt.max_recorded_threads / threads) : 0;
  if (k.module->fault_record()) std::memset(k.module->fault_record(), 0, kFaultRecordBytes);

  Report rep;
  rep.blocks = blocks;
  rep.threads = blocks * threads;
  const Path path = path_of(*k.entry, opt);
  rep.fibers = path == Path::Fibers || path == Path::Verdict;
  rep.path = path == Path::Fission ? "fission" : path == Path::Fibers ? "fibers" : path == Path::Verdict ? "verdict" : "loop";
  if (path != Path::Fission && k.entry->fission_note) {
    rep.fission_note = k.entry->fission_note;
    rep.fission_line = k.entry->fission_line;
  }
  const auto t0 = std::chrono::steady_clock::now();
  parallel_for(blocks, [&](size_t b, size_t e) { run_chunk(s, k, b, e); });
  rep.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!s.partial.empty() && s.prints.size() < opt.max_print_lines) s.prints.push_back(s.partial);
  rep.printf_lines = std::move(s.prints);
  rep.printf_truncated = s.print_truncated;
  if (s.error) {
    rep.ok = false;
    rep.error = s.error->message;
    rep.error_kind = s.error->kind;
    rep.error_line = s.error->line;
  }
  if (opt.explain) rep.explain = explain_launch(s, k, opt, buffers, blocks, threads);
  return rep;
}

bool current_thread(cv_emu::Dim& block, cv_emu::Dim& thread, bool& batched) {
  const Worker* w = tl;  // the calling thread's own: safe in a signal handler
  if (!w || !w->ctx) return false;
  block = w->ctx->block_idx, thread = w->ctx->thread_idx;
  batched = w->batched;
  return true;
}

}  // namespace cv::emu
