// Module: one host-compiled kernel module, dlopened (emu.h).
#include <dlfcn.h>
#include <link.h>

#include <stdexcept>

#include "usercode/emu/emu.h"

namespace cv::emu {

Module::Module(const std::string& p, bool explain, const std::string& file)
    : explain_build(explain), path(p), student_file(file) {
  h_ = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h_) throw std::runtime_error(std::string("dlopen: ") + dlerror());
  ctx = reinterpret_cast<cv_emu::Ctx* (*)()>(dlsym(h_, "cv_emu_ctx"));
  if (!ctx) {
    dlclose(h_);
    throw std::runtime_error("the module " + p + " was not built for the emulator (no cv_emu_ctx)");
  }
  if (auto* cap = static_cast<const unsigned long long*>(dlsym(h_, "cv_emu_dynamic_shared_capacity")))
    dynamic_shared_capacity = *cap;
  fault_ = dlsym(h_, "cv_fault");
  if (explain) {
    for (TlsSymbol& t : tls_symbols(p)) {
      if (t.name == "cv_emu_ctx_tls") ctx_tls_offset = t.offset;
      else tls.push_back(std::move(t));
    }
    link_map* lm = nullptr;
    if (dlinfo(h_, RTLD_DI_LINKMAP, &lm) == 0 && lm) {
      tls_bytes = tls_segment_bytes(lm->l_addr);
      text = module_text(lm->l_addr);
    }
  }
}

Module::~Module() { dlclose(h_); }

Kernel Module::kernel(const std::string& name) const {
  const std::string sym = "cv_emu_entry_" + name;
  const auto* e = static_cast<const cv_emu::Entry*>(dlsym(h_, sym.c_str()));
  if (!e) throw std::runtime_error("the module has no entry point '" + name + "'");
  if (e->abi != cv_emu::kAbiVersion)
    throw std::runtime_error("the module was built for emulator ABI " + std::to_string(e->abi) +
                             ", this one is " + std::to_string(cv_emu::kAbiVersion));
  return Kernel{e, this, name};
}

std::vector<std::string> Module::entry_names() const {
  std::vector<std::string> names;
  if (auto* list = static_cast<const cv_emu::Entry* const*>(dlsym(h_, "cv_emu_entries")))
    for (; *list; ++list) names.push_back((*list)->name);
  return names;
}

}  // namespace cv::emu
