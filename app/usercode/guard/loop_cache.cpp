#include "usercode/guard/loop_cache.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {
namespace {

// The '%' names in one operand ("[%rd4+8]" -> %rd4; "{%cvg_d2, %cvg_d3}" -> both).
std::vector<std::string> names(const std::string& operand) {
  std::vector<std::string> out;
  std::string tok;
  for (char c : operand + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$' || c == '.') {
      tok += c;
      continue;
    }
    if (tok.size() > 1 && tok[0] == '%') out.push_back(tok);
    tok.clear();
  }
  return out;
}

// Set once a function or by the hardware: the same at every entry of the loop.
bool fixed(const std::string& reg) {
  return reg.rfind("%cvg_w", 0) == 0 || reg.rfind("%cvg_k", 0) == 0 || reg.rfind("%cvg_l", 0) == 0 ||
         reg.find('.') != std::string::npos || reg == "%dynamic_smem_size";
}

}  // namespace

std::string CacheRegs::declarations() const {
  std::string s;
  if (p) s += "\t.reg .pred %cvc_p<" + std::to_string(p) + ">;\n";
  if (r) s += "\t.reg .b32 %cvc_r<" + std::to_string(r) + ">;\n";
  if (d) s += "\t.reg .b64 %cvc_d<" + std::to_string(d) + ">;\n";
  return s;
}

std::optional<std::string> cached_check(const std::string& check, const std::string& ok, const std::string& slow,
                                        const std::string& prefix,
                                        const std::function<int(const std::string&)>& reg_bytes, CacheRegs& regs,
                                        size_t max_inputs) {
  // The registers the check reads before it writes them.
  std::set<std::string> written;
  std::vector<std::string> inputs;
  for (const Piece& p : split_ptx(check)) {
    Instruction ins;
    if (p.kind != PieceKind::Stmt || !parse_instruction(p.text, ins)) continue;
    const bool writes_first = !ins.operands.empty() && ins.parts[0] != "bra" && ins.operands[0][0] != '[';
    std::vector<std::string> reads;
    if (!ins.guard.empty()) reads.push_back(ins.guard);
    for (size_t k = writes_first ? 1 : 0; k < ins.operands.size(); ++k)
      for (const std::string& n : names(ins.operands[k])) reads.push_back(n);
    for (const std::string& n : reads)
      if (!written.count(n) && !fixed(n) && std::find(inputs.begin(), inputs.end(), n) == inputs.end())
        inputs.push_back(n);
    if (writes_first)
      for (const std::string& n : names(ins.operands[0])) written.insert(n);
  }
  if (inputs.size() > max_inputs) return std::nullopt;
  std::vector<std::string> saved;
  for (const std::string& in : inputs) {
    const int b = in.rfind("%cv", 0) == 0 ? -1 : reg_bytes(in);
    if (b != 4 && b != 8) return std::nullopt;  // a scratch register read first, or a predicate: not cached
    saved.push_back(b == 8 ? "%cvc_d" + std::to_string(regs.d++) : "%cvc_r" + std::to_string(regs.r++));
  }
  const std::string valid = "%cvc_p" + std::to_string(regs.p++), answer = "%cvc_p" + std::to_string(regs.p++),
                    same = "%cvc_p" + std::to_string(regs.p++);
  regs.init += "\tmov.pred " + valid + ", 0;\n";
  std::ostringstream c;
  // A thread's first entry (nothing remembered yet) goes straight to the
  // check: most threads of a block-stride loop enter the inner loop once
  // (corelated's search), and the compares would be wasted there.
  c << "\t// cudaviz guard: the check's answer is reused while " << inputs.size()
    << " registers it reads hold what they held\n\t@!" << valid << " bra " << prefix << "check;\n";
  for (size_t k = 0; k < inputs.size(); ++k) {
    c << "\tsetp.eq" << (k ? ".and" : "") << ".b" << (saved[k][5] == 'd' ? 64 : 32) << " " << same << ", "
      << inputs[k] << ", " << saved[k];
    c << (k ? ", " + same : std::string()) << ";\n";
  }
  if (inputs.empty()) c << "\tmov.pred " << same << ", 1;\n";
  // Both ways meet at one branch before the proven loop, so that its header
  // has one way in besides its own branch back (a block ptxas can hoist the
  // loop's invariant values into).
  c << "\t@" << same << " bra " << prefix << "known;\n" << prefix << "check:\n" << check;
  for (size_t k = 0; k < inputs.size(); ++k) c << "\tmov.b" << (saved[k][5] == 'd' ? 64 : 32) << " " << saved[k] << ", " << inputs[k] << ";\n";
  c << "\tmov.pred " << answer << ", " << ok << ";\n\tmov.pred " << valid << ", 1;\n"
    << prefix << "known:\n\t@!" << answer << " bra " << slow << ";\n" << prefix << "proven:\n";
  return c.str();
}

}  // namespace cv::usercode::guard
