#include "usercode/client/fault_words.h"

#include <cstdio>
#include <sstream>

namespace cv::usercode {
namespace {

bool has(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

}  // namespace

std::string explain_error(const std::string& e, double limit_s) {
  if (e == "time-out") {
    char t[32];
    std::snprintf(t, sizeof t, "%.2g s", limit_s);
    return std::string("your kernel ran longer than the time limit (") + t +
           ") and was stopped: an endless loop? Look for a loop whose condition never becomes "
           "false, or a __syncthreads() that some threads of a block never reach.";
  }
  if (e == "out of range")
    return "an index outside its buffer was caught (below: which index, thread, block and line); "
           "that access was skipped and the kernel ran to its end. Unchecked, it would read or write "
           "memory that is not the buffer's.";
  if (has(e, "IllegalAddress") || has(e, "ILLEGAL_ADDRESS"))
    return "your kernel read or wrote memory outside every buffer: an index past the end (a "
           "missing bounds test, x and y swapped, a wrong width) or a bad pointer. The guard "
           "(on unless you turned it off) stops such an access and names its index, thread and line.";
  if (has(e, "Misaligned") || has(e, "MISALIGNED"))
    return "your kernel accessed memory at an address that is not a multiple of the type's size "
           "(e.g. a float4 from an address not divisible by 16): check pointer casts and offsets.";
  if (has(e, "Assert") || has(e, "ASSERT"))
    return "an assert() in your kernel failed.";
  if (has(e, "IllegalInstruction") || has(e, "ILLEGAL_INSTRUCTION") || has(e, "LaunchFailure") ||
      has(e, "LAUNCH_FAILED") || has(e, "HardwareStackError") || has(e, "HARDWARE_STACK"))
    return "your kernel stopped the GPU: a __trap(), an illegal instruction, or a stack overflow "
           "(deep recursion, a huge local array).";
  if (has(e, "LaunchTimeout") || has(e, "LAUNCH_TIMEOUT"))
    return "the display driver's watchdog stopped your kernel for running too long: an endless "
           "loop, or far too much work in one launch.";
  if (has(e, "OutOfResources") || has(e, "OUT_OF_RESOURCES"))
    return "this block needs more registers than the SM has: use a smaller block, or fewer "
           "registers (simpler code, __launch_bounds__).";
  if (has(e, "InvalidValue") || has(e, "INVALID_VALUE") || has(e, "InvalidConfiguration"))
    return "the launch was refused: the block or grid shape is not allowed for this kernel "
           "(too many threads a block, or a dimension too large).";
  if (e == "SIGSEGV" || e == "SIGBUS")
    return "your code read or wrote memory it does not own (a segmentation fault): an index past "
           "the end of a raw pointer's or an array's memory, or a bad pointer. (While the guard is on, "
           "the default, every s[i] and s.at(i) of a cv::Span is checked and named instead.)";
  if (e == "SIGABRT") return "your function called abort() (or an assert failed).";
  if (e == "SIGFPE") return "your function divided an integer by zero.";
  if (e == "SIGILL" || e == "SIGTRAP") return "your function ran an illegal instruction (a trap).";
  if (has(e, "SIG")) return "your function ended the process that runs it (" + e + ").";
  return "the kernel failed with " + e + ".";
}

std::string signal_where(const nlohmann::json& reply, int line) {
  std::ostringstream s;
  auto dim = [](const nlohmann::json& d) {
    return "(" + std::to_string(d.at(0).get<unsigned>()) + "," + std::to_string(d.at(1).get<unsigned>()) + "," +
           std::to_string(d.at(2).get<unsigned>()) + ")";
  };
  if (line) s << " at line " << line;
  if (reply.contains("fault_thread") && reply.contains("fault_block"))
    s << " in thread " << dim(reply["fault_thread"]) << " of block " << dim(reply["fault_block"]);
  if (reply.contains("fault_buffer")) {
    const long long index = reply.value("fault_index", 0ll), size = reply.value("fault_size", 0ll);
    s << ", touching index " << index << " of " << reply.value("fault_buffer", std::string()) << " (" << size
      << " elements";
    if (index >= size) s << ": " << index - size + 1 << " past its end";
    if (index < 0) s << ": before its start";
    s << ")";
  } else if (reply.contains("fault_address") && reply.value("fault_address", 0ull) < 4096) {
    s << ", touching a null pointer";
  }
  const std::string where = s.str();
  return where.empty() ? "" : " It happened" + where + ".";
}

std::string KernelFault::describe() const {
  std::ostringstream s;
  s << error_name << " in " << (kernel.empty() ? "your kernel" : kernel) << " <<<(" << grid[0]
    << "," << grid[1] << "," << grid[2] << "), (" << block.x << "," << block.y << "," << block.z
    << ")>>>: " << explanation;
  if (out_of_range) {
    const OutOfRange& o = *out_of_range;
    s << "\nindex " << o.index << " of a buffer of " << o.size << " elements";
    if (o.line) s << " at line " << o.line;
    else s << " (at a line not known: s.at(i) names it, as the guard does)";
    s << ", thread (" << o.thread[0] << "," << o.thread[1] << "," << o.thread[2] << ") of block ("
      << o.block[0] << "," << o.block[1] << "," << o.block[2] << ")";
  }
  return s.str();
}

}  // namespace cv::usercode
