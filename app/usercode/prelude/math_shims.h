// cudaviz: the few standard names the app's own math (kernels/*/*_math.h)
// uses. NVRTC has no C++ standard headers, so they are declared here for the
// GPU; the host compiler (CPU path) takes them from its own headers.
#if defined(__CUDACC_RTC__)
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef int int32_t;
typedef long long int64_t;
namespace std {
__device__ __forceinline__ float sqrt(float x) { return ::sqrtf(x); }
}  // namespace std
#else
#include <cmath>
#include <cstdint>
#endif
