#pragma once
// Shared memory named as the student named it (explain): an offset in the
// module's thread-local block -> the __shared__ variable, its element in the
// variable's own type and shape ("tile[2][5]", "s[17]"). The element type and
// the dimensions come from the module's debug information (binutils'
// readelf, installed with the compiler, as addr2line is); the block's
// `extern __shared__` arrays all alias one block of memory, as on the GPU, so
// the one the access's line names is chosen.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "usercode/emu/tls_symbols.h"

namespace cv::emu {

struct ArrayShape {
  unsigned elem_bytes = 0;              // 0: unknown
  std::vector<unsigned long long> dims;  // outermost first; empty: a scalar; 0: unknown bound
};

// `readelf --debug-dump=info` text -> the shape of each variable in `wanted`
// (pure, tested).
std::map<std::string, ArrayShape> parse_variable_shapes(const std::string& readelf_text,
                                                        const std::set<std::string>& wanted);
// Runs readelf on the module (empty when it cannot: indexes then count in the access's width).
std::map<std::string, ArrayShape> variable_shapes(const std::string& so_path, const std::set<std::string>& wanted);

// "tile[2][5]" for flat element 39 of float tile[16][17].
std::string element_label(const std::string& name, long long flat, const std::vector<unsigned long long>& dims);

struct SharedName {
  std::string name;
  long long index = 0;  // flat, in elements of the variable's type
  std::string element;  // "tile[2][5]"
};

class SharedNamer {
 public:
  SharedNamer(std::vector<TlsSymbol> symbols, std::map<std::string, ArrayShape> shapes, std::string_view source);
  // The variable at `offset` (aliases: the one line `line` of the source names).
  SharedName name(uint64_t offset, unsigned bytes, int line) const;
  // The start of the element at `offset` (its variable's own element size).
  uint64_t element_start(uint64_t offset, unsigned bytes) const;

 private:
  std::vector<TlsSymbol> symbols_;
  std::map<std::string, ArrayShape> shapes_;
  std::vector<std::string> lines_;  // the source without comments, by line
};

}  // namespace cv::emu
