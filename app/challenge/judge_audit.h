#pragma once
// The launches a leaderboard time may come from, each one checked. bench
// kernel checks one launch on the template's fixed data and then times
// launches it does not check: a kernel that remembers the answer to that data,
// counts its launches (a __device__ counter) and does nothing after the check,
// or keeps the last answer for data it saw before, would stand first on the
// board. Here every launch runs from a reset on inputs drawn afresh (a new
// seed each, from the submission's), and each launch's answer is checked; the
// time a student gets is never less than these launches' median.
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_info.h"
#include "usercode/templates/template_spec.h"

namespace cv::usercode {
class RunnerClient;
}

namespace cv::challenge {

struct Audit {
  bool correct = true;
  std::string message;         // why not, in words (the first failing launch)
  int message_line = 0;        // a fault's line, where the runner knows it
  bool fault = false;          // the kernel faulted (else: a wrong answer)
  std::vector<double> ms;      // each audited launch's kernel time
};

// The seed of audited launch `k` of a submission whose seed is `seed`: every
// launch different, the low 32 bits too (some generators take only those).
uint64_t audit_seed(uint64_t seed, int k);

// How many audited launches: a scene's template runs its test set's cases
// again (each replays its steps from its own start, checked at the end);
// any other template launches that many times, each from a reset.
int audit_launches(const usercode::TemplateSpec& t, Backend backend);

// The kernel already loaded in `runner` under `module`, at size `n`.
// Templates without a check are not audited (correct, no times).
Audit audit(const usercode::TemplateSpec& t, usercode::RunnerClient& runner, const std::string& module,
            long long n, uint64_t seed, Backend backend);

}  // namespace cv::challenge
