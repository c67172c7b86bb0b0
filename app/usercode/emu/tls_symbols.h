#pragma once
// The thread-local variables of a kernel module (its __shared__ arrays live
// there on the CPU): offset in the module's TLS block, size and name, read
// from the ELF symbol table, so explain can say "block_count" rather than an
// address. Empty when the file cannot be read.
#include <cstdint>
#include <string>
#include <vector>

namespace cv::emu {

struct TlsSymbol {
  uint64_t offset = 0, size = 0;
  std::string name;  // demangled, without the function: "count3::block_count" -> "block_count"
                     // (the emulator's own context is "cv_emu_ctx_tls")
};

std::vector<TlsSymbol> tls_symbols(const std::string& elf_path);
// The TLS segment's size (PT_TLS p_memsz) of a loaded module (by its load address).
uint64_t tls_segment_bytes(uintptr_t load_address);

}  // namespace cv::emu
