#include "usercode/sandbox/landlock.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace cv::sandbox {
namespace {

// The kernel's ABI, spelled out: older <linux/landlock.h> lack the later fields.
#ifndef SYS_landlock_create_ruleset
constexpr long kCreateRuleset = 444, kAddRule = 445, kRestrictSelf = 446;
#else
constexpr long kCreateRuleset = SYS_landlock_create_ruleset, kAddRule = SYS_landlock_add_rule,
               kRestrictSelf = SYS_landlock_restrict_self;
#endif
constexpr uint32_t kCreateRulesetVersion = 1;
constexpr int kRulePathBeneath = 1;
constexpr uint64_t kReadFile = 1ull << 2;

struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;  // ABI 4
  uint64_t scoped;              // ABI 6
};
struct PathBeneathAttr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

// Every file system right the ABI knows (each later ABI adds one).
uint64_t fs_rights(long abi) {
  uint64_t r = (1ull << 13) - 1;  // ABI 1: execute .. make_sym
  if (abi >= 2) r |= 1ull << 13;  // refer
  if (abi >= 3) r |= 1ull << 14;  // truncate
  if (abi >= 5) r |= 1ull << 15;  // ioctl on devices
  return r;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string errno_text(const char* call) { return std::string(call) + ": " + std::strerror(errno); }

}  // namespace

std::string restrict_files_to(const std::string& readable) { return restrict_files_to(readable, ""); }

std::string restrict_files_to(const std::string& readable, const std::string& writable_dir) {
  const long abi = syscall(kCreateRuleset, nullptr, 0, kCreateRulesetVersion);
  if (abi < 1) return errno == ENOSYS ? "the kernel has no Landlock" : errno_text("landlock_create_ruleset (ABI)");
  RulesetAttr attr{fs_rights(abi), 0, 0};
  size_t size = sizeof(uint64_t);
  if (abi >= 4) attr.handled_access_net = 3, size = 2 * sizeof(uint64_t);  // bind and connect TCP
  if (abi >= 6) attr.scoped = 3, size = sizeof attr;                         // abstract sockets, signals
  Fd ruleset(static_cast<int>(syscall(kCreateRuleset, &attr, size, 0)));
  if (ruleset.get() < 0) return errno_text("landlock_create_ruleset");
  if (!readable.empty()) {
    Fd file(open(readable.c_str(), O_PATH | O_CLOEXEC));
    if (file.get() < 0) return errno_text("open (the module, O_PATH)");
    PathBeneathAttr rule{kReadFile, file.get()};
    if (syscall(kAddRule, ruleset.get(), kRulePathBeneath, &rule, 0) != 0) return errno_text("landlock_add_rule");
  }
  if (!writable_dir.empty()) {
    Fd dir(open(writable_dir.c_str(), O_PATH | O_CLOEXEC | O_DIRECTORY));
    if (dir.get() < 0) return errno_text("open (the writable folder, O_PATH)");
    // Read, write and create regular files beneath it (truncate too, where the ABI knows it).
    PathBeneathAttr rule{kReadFile | (1ull << 1) | (1ull << 8) | (abi >= 3 ? 1ull << 14 : 0), dir.get()};
    if (syscall(kAddRule, ruleset.get(), kRulePathBeneath, &rule, 0) != 0) return errno_text("landlock_add_rule (folder)");
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno_text("prctl(PR_SET_NO_NEW_PRIVS)");
  if (syscall(kRestrictSelf, ruleset.get(), 0) != 0) return errno_text("landlock_restrict_self");
  return "";
}

}  // namespace cv::sandbox
