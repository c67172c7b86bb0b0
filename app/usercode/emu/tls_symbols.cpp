#include "usercode/emu/tls_symbols.h"

#include <cxxabi.h>
#include <elf.h>
#include <link.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace cv::emu {
namespace {

std::string short_name(const char* mangled) {
  // Only C++ names are mangled: "s" is the variable s, not the type short.
  if (std::strncmp(mangled, "_Z", 2) != 0) return mangled;
  int status = 0;
  char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string s = (status == 0 && d) ? d : mangled;
  std::free(d);
  const size_t colon = s.rfind("::");
  return colon == std::string::npos ? s : s.substr(colon + 2);
}

}  // namespace

std::vector<TlsSymbol> tls_symbols(const std::string& path) {
  std::vector<TlsSymbol> out;
  std::ifstream in(path, std::ios::binary);
  const std::string f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (f.size() < sizeof(Elf64_Ehdr) || std::memcmp(f.data(), ELFMAG, SELFMAG) != 0 ||
      f[EI_CLASS] != ELFCLASS64)
    return out;
  Elf64_Ehdr eh;
  std::memcpy(&eh, f.data(), sizeof eh);
  if (eh.e_shoff == 0 || eh.e_shoff + eh.e_shnum * sizeof(Elf64_Shdr) > f.size()) return out;
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  std::memcpy(sh.data(), f.data() + eh.e_shoff, eh.e_shnum * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& s : sh) {
    if (s.sh_type != SHT_SYMTAB || s.sh_link >= sh.size()) continue;
    const Elf64_Shdr& strtab = sh[s.sh_link];
    if (s.sh_offset + s.sh_size > f.size() || strtab.sh_offset + strtab.sh_size > f.size()) continue;
    for (size_t i = 0; i < s.sh_size / sizeof(Elf64_Sym); ++i) {
      Elf64_Sym sym;
      std::memcpy(&sym, f.data() + s.sh_offset + i * sizeof sym, sizeof sym);
      if (ELF64_ST_TYPE(sym.st_info) != STT_TLS || sym.st_name >= strtab.sh_size) continue;
      const char* name = f.data() + strtab.sh_offset + sym.st_name;
      out.push_back({sym.st_value, sym.st_size, short_name(name)});
    }
  }
  return out;
}

uint64_t tls_segment_bytes(uintptr_t load_address) {
  struct Find {
    uintptr_t addr;
    uint64_t bytes = 0;
  } find{load_address};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* fd = static_cast<Find*>(data);
        if (info->dlpi_addr != fd->addr) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_TLS) fd->bytes = info->dlpi_phdr[i].p_memsz;
        return fd->bytes ? 1 : 0;
      },
      &find);
  return find.bytes;
}

}  // namespace cv::emu
