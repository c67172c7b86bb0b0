// cudaviz: what an nbody_kernel file must define. Every step the app launches
// it as a 1D grid of ceil(n / block.x) blocks of the block from the slider,
// with block.x * 16 bytes of dynamic shared memory (extern __shared__ float4
// tile[] holds one float4 a thread), then integrates the bodies itself
// (leapfrog: it multiplies by G and moves them).
//   bodies[j] = (x, y, z, mass) of body j < n, then zero-mass padding of at
//               least a block, so a tile may read bodies[base + t] untested;
//   acc[i]    = (ax, ay, az, unused) for every i < n: the sum over all j of
//               m_j d / (|d|^2 + eps2)^(3/2), d = x_j - x_i, without G.
// eps2 = softening^2 > 0, so a body's pull on itself is exactly 0.
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2);
