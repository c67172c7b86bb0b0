#include "usercode/emu/explain_recorder.h"

#include <link.h>

namespace cv::emu {

TextRange module_text(uintptr_t load_address) {
  struct Find {
    uintptr_t addr;
    TextRange r;
  } find{load_address, {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* f = static_cast<Find*>(data);
        if (info->dlpi_addr != f->addr) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& p = info->dlpi_phdr[i];
          if (p.p_type != PT_LOAD || !(p.p_flags & PF_X)) continue;
          const uintptr_t lo = info->dlpi_addr + p.p_vaddr, hi = lo + p.p_memsz;
          if (f->r.hi == 0 || lo < f->r.lo) f->r.lo = lo;
          if (hi > f->r.hi) f->r.hi = hi;
        }
        return 1;
      },
      &find);
  return find.r;
}

CallStack walk_stack(const void* pc, const void* frame, TextRange text) {
  CallStack s{};
  s[0] = reinterpret_cast<uintptr_t>(pc);
  uintptr_t f = reinterpret_cast<uintptr_t>(frame);
  // A frame record is {the caller's frame pointer, the return address} on
  // x86-64 and AArch64 alike. Frame f belongs to the function s[k-1] is in,
  // read only while that function is the module's.
  for (int k = 1; k < kMaxFrames && text.contains(s[k - 1]) && f && f % sizeof(uintptr_t) == 0; ++k) {
    const auto* record = reinterpret_cast<const uintptr_t*>(f);
    const uintptr_t next = record[0], ret = record[1];
    if (!text.contains(ret)) break;
    s[k] = ret;
    if (next <= f) break;
    f = next;
  }
  return s;
}

MergedRecord merge_records(std::vector<std::unique_ptr<WorkerRecord>>& records) {
  MergedRecord m;
  size_t total = 0;
  for (const auto& r : records) total += r->events.size();
  m.events.reserve(total);  // one allocation: a truncated explain holds 4 M events
  StackTable all;
  for (auto& r : records) {
    std::vector<uint32_t> remap;
    for (const CallStack& s : r->stacks.stacks()) remap.push_back(all.intern(s));
    for (Event e : r->events) {
      e.where = remap[e.where];
      m.events.push_back(e);
    }
    std::vector<Event>().swap(r->events);  // freed as it is merged, not all at the end
    for (const auto& [key, masks] : r->branches) {
      BranchMasks& d = m.branches[key];
      d.taken |= masks.taken, d.not_taken |= masks.not_taken;
    }
    m.truncated = m.truncated || r->truncated;
  }
  m.stacks = all.stacks();
  return m;
}

std::vector<Place> place_stacks(const std::vector<CallStack>& stacks,
                                const std::map<uint64_t, std::vector<int>>& lines) {
  std::vector<Place> out;
  out.reserve(stacks.size());
  for (const CallStack& s : stacks) {
    std::vector<int> chain;
    for (uint64_t pc : s) {
      if (!pc) break;
      auto it = lines.find(pc);
      if (it == lines.end()) continue;
      for (int l : it->second)
        if (chain.empty() || chain.back() != l) chain.push_back(l);
    }
    Place p;
    if (!chain.empty()) p.line = chain[0];
    if (chain.size() > 1) p.call_line = chain[1];
    out.push_back(p);
  }
  return out;
}

}  // namespace cv::emu
