#pragma once
// CV_HD marks per-element math shared by a CUDA kernel and its CPU twin.
#if defined(__CUDACC__)
#define CV_HD __host__ __device__ __forceinline__
#else
#define CV_HD inline
#endif
