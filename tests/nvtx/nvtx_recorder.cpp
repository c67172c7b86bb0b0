// A tiny NVTX tool for tests: NVTX loads it through NVTX_INJECTION64_PATH and
// calls InitializeInjectionNvtx2; it fills the domain callbacks (CORE2 module)
// and writes every push, pop and mark, with its domain, to the file named by
// $CUDAVIZ_NVTX_RECORD, one line each: "<thread> push <domain>: <message>".
#define NVTX_NO_IMPL  // a tool: the types and ids only, not the app-side loader
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace {

struct Domain {
  std::string name;
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

FILE* out() {
  static FILE* f = [] {
    const char* path = std::getenv("CUDAVIZ_NVTX_RECORD");
    return std::fopen(path && *path ? path : "nvtx_record.txt", "w");
  }();
  return f;
}

std::string text(const nvtxEventAttributes_t* a) {
  if (!a) return "(no attributes)";
  if (a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii) return a->message.ascii;
  if (a->messageType == NVTX_MESSAGE_TYPE_REGISTERED && a->message.registered)
    return *reinterpret_cast<const std::string*>(a->message.registered);
  return "(unsupported message type " + std::to_string(a->messageType) + ")";
}

void record(const char* what, nvtxDomainHandle_t d, const std::string& message) {
  std::lock_guard<std::mutex> g(lock());
  FILE* f = out();
  if (!f) return;
  const std::string domain = d ? reinterpret_cast<const Domain*>(d)->name : "(default)";
  std::fprintf(f, "%lu %s %s: %s\n", static_cast<unsigned long>(pthread_self()), what,
               domain.c_str(), message.c_str());
  std::fflush(f);
}

nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(new Domain{name ? name : ""});
}
void NVTX_API domain_destroy(nvtxDomainHandle_t) {}  // kept: late pops may still name it
nvtxStringHandle_t NVTX_API register_string(nvtxDomainHandle_t, const char* s) {
  return reinterpret_cast<nvtxStringHandle_t>(new std::string(s ? s : ""));
}
int NVTX_API push(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  record("push", d, text(a));
  return 0;
}
int NVTX_API pop(nvtxDomainHandle_t d) {
  record("pop", d, "");
  return 0;
}
void NVTX_API mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { record("mark", d, text(a)); }

}  // namespace

extern "C" NVTX_DYNAMIC_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  const auto* cb = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (!cb) return 0;
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) || !table) return 0;
  const auto set = [&](unsigned id, auto fn) {
    if (id < size && table[id]) *table[id] = reinterpret_cast<NvtxFunctionPointer>(fn);
  };
  set(NVTX_CBID_CORE2_DomainCreateA, &domain_create);
  set(NVTX_CBID_CORE2_DomainDestroy, &domain_destroy);
  set(NVTX_CBID_CORE2_DomainRegisterStringA, &register_string);
  set(NVTX_CBID_CORE2_DomainRangePushEx, &push);
  set(NVTX_CBID_CORE2_DomainRangePop, &pop);
  set(NVTX_CBID_CORE2_DomainMarkEx, &mark);
  return out() ? 1 : 0;  // no record file: refuse, so the test sees no ranges
}
