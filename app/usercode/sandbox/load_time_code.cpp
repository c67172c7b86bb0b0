#include "usercode/sandbox/load_time_code.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

extern char** environ;

namespace cv::sandbox {
namespace {

// Private dynamic tags (between DT_LOOS and DT_VALRNGLO: glibc's loader ignores them).
constexpr Elf64_Sxword kDeferredInit = 0x6cd00001, kDeferredInitArray = 0x6cd00002,
                       kDeferredInitArraySz = 0x6cd00003;
constexpr size_t kMaxModuleBytes = 256u << 20;

struct Image {
  std::vector<char> bytes;
  const Elf64_Ehdr* eh() const { return reinterpret_cast<const Elf64_Ehdr*>(bytes.data()); }
  template <class T>
  const T* at(uint64_t off, uint64_t count = 1) const {
    if (off > bytes.size() || count > (bytes.size() - off) / sizeof(T)) return nullptr;
    return reinterpret_cast<const T*>(bytes.data() + off);
  }
  // A virtual address of a PT_LOAD segment -> its file offset.
  std::optional<uint64_t> offset_of(uint64_t vaddr) const {
    const auto* ph = at<Elf64_Phdr>(eh()->e_phoff, eh()->e_phnum);
    for (int i = 0; ph && i < eh()->e_phnum; ++i)
      if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr && vaddr < ph[i].p_vaddr + ph[i].p_filesz)
        return ph[i].p_offset + (vaddr - ph[i].p_vaddr);
    return std::nullopt;
  }
};

std::optional<Image> read_image(const std::string& path, std::string& why) {
  std::ifstream f(path, std::ios::binary);
  Image im;
  im.bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  if (im.bytes.size() < sizeof(Elf64_Ehdr) || im.bytes.size() > kMaxModuleBytes ||
      std::memcmp(im.bytes.data(), ELFMAG, SELFMAG) != 0 || im.bytes[EI_CLASS] != ELFCLASS64 ||
      im.bytes[EI_DATA] != ELFDATA2LSB) {
    why = "the built module " + path + " is not a 64-bit little-endian ELF file of at most 256 MiB";
    return std::nullopt;
  }
  return im;
}

// The PT_DYNAMIC entries and their file offset.
std::pair<const Elf64_Dyn*, size_t> dynamic_of(const Image& im, uint64_t& file_off) {
  const auto* ph = im.at<Elf64_Phdr>(im.eh()->e_phoff, im.eh()->e_phnum);
  for (int i = 0; ph && i < im.eh()->e_phnum; ++i)
    if (ph[i].p_type == PT_DYNAMIC) {
      file_off = ph[i].p_offset;
      const size_t n = ph[i].p_filesz / sizeof(Elf64_Dyn);
      if (const auto* d = im.at<Elf64_Dyn>(file_off, n)) return {d, n};
    }
  return {nullptr, 0};
}

uint64_t dyn_value(const Elf64_Dyn* d, size_t n, Elf64_Sxword tag) {
  for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; ++i)
    if (d[i].d_tag == tag) return d[i].d_un.d_val;
  return 0;
}

bool irelative(uint64_t info) {
  const uint32_t type = ELF64_R_TYPE(info);
  return type == 37 /* R_X86_64_IRELATIVE */ || type == 1032 /* R_AARCH64_IRELATIVE */;
}

// ifunc resolvers run during relocation, before anything can be deferred.
bool has_ifunc(const Image& im, const Elf64_Dyn* d, size_t n) {
  for (auto [table, size] : {std::pair{DT_RELA, DT_RELASZ}, std::pair{DT_JMPREL, DT_PLTRELSZ}}) {
    const auto off = im.offset_of(dyn_value(d, n, table));
    const uint64_t bytes = dyn_value(d, n, size);
    if (!off || !bytes) continue;
    const auto* r = im.at<Elf64_Rela>(*off, bytes / sizeof(Elf64_Rela));
    for (uint64_t i = 0; r && i < bytes / sizeof(Elf64_Rela); ++i)
      if (irelative(r[i].r_info)) return true;
  }
  const auto* sh = im.at<Elf64_Shdr>(im.eh()->e_shoff, im.eh()->e_shnum);
  for (int s = 0; sh && s < im.eh()->e_shnum; ++s) {
    if (sh[s].sh_type != SHT_DYNSYM && sh[s].sh_type != SHT_SYMTAB) continue;
    const uint64_t count = sh[s].sh_size / sizeof(Elf64_Sym);
    const auto* sym = im.at<Elf64_Sym>(sh[s].sh_offset, count);
    for (uint64_t i = 0; sym && i < count; ++i)
      if (ELF64_ST_TYPE(sym[i].st_info) == STT_GNU_IFUNC && sym[i].st_shndx != SHN_UNDEF) return true;
  }
  return false;
}

bool allowed_library(const std::string& name) {
  for (const char* p : {"libstdc++.so.", "libm.so.", "libgcc_s.so.", "libc.so.", "ld-linux", "libpthread.so.",
                        "libdl.so.", "librt.so.", "libmvec.so."})
    if (name.rfind(p, 0) == 0) return true;
  return false;
}

std::vector<std::string> needed_of(const Image& im, const Elf64_Dyn* d, size_t n) {
  std::vector<std::string> out;
  const auto strtab = im.offset_of(dyn_value(d, n, DT_STRTAB));
  const uint64_t strsz = dyn_value(d, n, DT_STRSZ);
  for (size_t i = 0; strtab && i < n && d[i].d_tag != DT_NULL; ++i) {
    if (d[i].d_tag != DT_NEEDED || d[i].d_un.d_val >= strsz) continue;
    const char* s = im.at<char>(*strtab + d[i].d_un.d_val, 1);
    if (s) out.emplace_back(s, strnlen(s, strsz - d[i].d_un.d_val));
  }
  return out;
}

}  // namespace

std::string defer_load_time_code(const std::string& so_path) {
  std::string why;
  std::optional<Image> im = read_image(so_path, why);
  if (!im) return why;
  uint64_t dyn_off = 0;
  auto [d, n] = dynamic_of(*im, dyn_off);
  if (!d) return "the built module " + so_path + " has no dynamic section";
  if (has_ifunc(*im, d, n))
    return "your file uses an ifunc or target_clones: code chosen while loading is not available "
           "(write one version of the function)";
  for (const std::string& lib : needed_of(*im, d, n))
    if (!allowed_library(lib)) return "the built module needs " + lib + ", which kernels cannot use";
  std::vector<Elf64_Dyn> patched(d, d + n);
  for (Elf64_Dyn& e : patched) {
    if (e.d_tag == DT_AUDIT || e.d_tag == DT_DEPAUDIT || e.d_tag == DT_FILTER || e.d_tag == DT_AUXILIARY)
      return "the built module asks the loader for other libraries (audit or filter entries)";
    if (e.d_tag == DT_INIT) e.d_tag = kDeferredInit;
    else if (e.d_tag == DT_INIT_ARRAY) e.d_tag = kDeferredInitArray;
    else if (e.d_tag == DT_INIT_ARRAYSZ) e.d_tag = kDeferredInitArraySz;
  }
  std::fstream f(so_path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(dyn_off));
  f.write(reinterpret_cast<const char*>(patched.data()), static_cast<std::streamsize>(n * sizeof(Elf64_Dyn)));
  if (!f) return "cannot rewrite the built module " + so_path;
  return "";
}

std::vector<std::string> needed_libraries(const std::string& so_path) {
  std::string why;
  std::optional<Image> im = read_image(so_path, why);
  if (!im) return {};
  uint64_t off = 0;
  auto [d, n] = dynamic_of(*im, off);
  if (!d) return {};
  return needed_of(*im, d, n);
}

void preload_needed(const std::string& so_path) {
  for (const std::string& lib : needed_libraries(so_path))
    if (allowed_library(lib)) dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept for the process's life
}

namespace {

bool run_deferred(ElfW(Addr) base, const ElfW(Dyn)* dyn) {
  uint64_t init = 0, array = 0, array_bytes = 0;
  for (const ElfW(Dyn)* e = dyn; e->d_tag != DT_NULL; ++e) {
    if (e->d_tag == kDeferredInit) init = e->d_un.d_ptr;
    else if (e->d_tag == kDeferredInitArray) array = e->d_un.d_ptr;
    else if (e->d_tag == kDeferredInitArraySz) array_bytes = e->d_un.d_val;
  }
  if (!init && !array) return false;
  using InitFn = void (*)(int, char**, char**);
  static char* no_args[] = {nullptr};
  // As glibc's call_init: DT_INIT first, then the array in order.
  if (init) reinterpret_cast<InitFn>(base + init)(0, no_args, environ);
  const auto* fns = reinterpret_cast<const InitFn*>(base + array);
  for (uint64_t i = 0; array && i < array_bytes / sizeof(InitFn); ++i) fns[i](0, no_args, environ);
  return true;
}

}  // namespace

bool run_deferred_init(void* dl_handle) {
  link_map* lm = nullptr;
  if (dlinfo(dl_handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm || !lm->l_ld) return false;
  return run_deferred(lm->l_addr, lm->l_ld);
}

int run_deferred_init_all() {
  // Collected first: the init functions run outside dl_iterate_phdr's lock.
  std::vector<std::pair<ElfW(Addr), const ElfW(Dyn)*>> objects;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            static_cast<std::vector<std::pair<ElfW(Addr), const ElfW(Dyn)*>>*>(out)->push_back(
                {info->dlpi_addr, reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr)});
        return 0;
      },
      &objects);
  int n = 0;
  for (const auto& [base, dyn] : objects) n += run_deferred(base, dyn) ? 1 : 0;
  return n;
}

}  // namespace cv::sandbox
