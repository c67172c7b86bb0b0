#pragma once
// Which kernel parameter an address register's pointer comes from (docs/
// guard.md "Accesses through a parameter"): `ld.param.u64 %rd1,
// [k_param_2]`, then cvta.to.global, moves and additions of offsets that
// are not themselves pointers. Every definition of the register must agree
// (the analysis does not follow control flow). A hint only: the guard
// compares that parameter's buffer first, and an address outside it is
// still guarded against every buffer before it is called a fault.
#include <map>
#include <string>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

// Registers of pieces [begin, end) (an entry's body) -> parameter index.
std::map<std::string, int> parameter_roots(const std::vector<Piece>& pieces, size_t begin, size_t end);

}  // namespace cv::usercode::guard
