#pragma once
// AddressSanitizer reserves terabytes of address space for its shadow, so a
// process of an ASan build (scripts/sanitize.sh) cannot run under a fixed
// RLIMIT_AS: its next mmap fails ("ERROR: Failed to mmap") before it execs
// the compiler. Such builds leave that one limit out of the compiler's jail
// and say so; the cells' limit counts from what is already mapped and holds.
namespace cv::sandbox {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace cv::sandbox
