// split_kernels(): libclang's tree, each kernel analysed and rewritten (fission.h).
#include "usercode/emu/fission.h"

#include <chrono>

#include "usercode/emu/fission_emit.h"
#include "usercode/emu/fission_plan.h"
#include "usercode/emu/fission_tree.h"

namespace cv::emu::fission {

Split split_kernels(const std::string& assembled, const std::string& dir, const std::vector<std::string>& entries,
                    const std::string& file_name, bool checked) {
  const auto t0 = std::chrono::steady_clock::now();
  Split out;
  const std::string marker = "#line 1 \"" + file_name + "\"\n";
  const size_t at = assembled.find(marker);
  const size_t student_start = at == std::string::npos ? assembled.size() : at + marker.size();
  const Tree tree = build_tree(assembled, dir, entries, &out.why);
  for (size_t i = 0; i < entries.size(); ++i) {
    KernelSplit k;
    k.name = entries[i];
    std::string usr;
    for (const std::string& u : tree.kernels)
      if (tree.functions.at(u).def.name == entries[i]) usr = u;
    if (!out.why.empty()) {
      k.why = out.why;
    } else if (usr.empty()) {
      k.why = "libclang did not find the kernel '" + entries[i] + "'";
    } else {
      const Analysis a = analyse(tree, usr);
      if (!a.ok) {
        k.why = a.why, k.line = a.line;
      } else {
        const Emitted e = emit_kernel(a, entries[i], file_name, student_start, dir, checked);
        k.ok = e.ok, k.why = e.why, k.line = e.line;
        out.code += e.code;
      }
    }
    out.kernels.push_back(k);
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace cv::emu::fission
