// template: nbody_kernel
// Example: document 004's all-pairs kernel ("each particle computes the
// distance and direction to all of the other particles to work out the sum of
// those forces"), written the way the document writes it (posLoc, affect, one
// loop over every particle in global memory) with the physics the app checks:
// Newtonian gravity with softening instead of the document's per-axis 1/dif.
// One thread per body; nothing is shared between the threads of a block, so
// every thread reads all n bodies from global memory (through the caches).
extern "C" __global__ void body_accelerations(cv::Span<const float4> pos, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  unsigned int posLoc = blockIdx.x * blockDim.x + threadIdx.x;

  if (posLoc >= n)
    return;

  float3 affect = {0.0f, 0.0f, 0.0f};
  float3 dif;
  float4 p = pos[posLoc];

  for (unsigned int i = 0; i < n; i++)
    {
    dif.x = pos[i].x - p.x;
    dif.y = pos[i].y - p.y;
    dif.z = pos[i].z - p.z;

    // m / (r^2 + eps^2)^(3/2): eps keeps close pairs (and i == posLoc) finite
    float dist2 = dif.x * dif.x + dif.y * dif.y + dif.z * dif.z + eps2;
    float invDist = 1.0f / sqrtf(dist2);
    float s = pos[i].w * invDist * invDist * invDist;

    affect.x += dif.x * s;
    affect.y += dif.y * s;
    affect.z += dif.z * s;
    }

  // write out the acceleration (the app multiplies by G and integrates)
  acc[posLoc] = make_float4(affect.x, affect.y, affect.z, 0.0f);
}
