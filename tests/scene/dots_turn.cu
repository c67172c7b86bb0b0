// template: dots_turn
// A template that exists only in the tests, fed by the test-only dots scene:
// its step the way a student would write it, one thread a dot (the math of
// tests/scene/dots_math.h written out). out[i] is dot i's (x, y, z, inside).
extern "C" __global__ void dots_turn(cv::Span<float4> out, unsigned n, float turn, unsigned spiral) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = 6.2831853f * static_cast<float>(i) / static_cast<float>(n) + turn;
  const float r = spiral ? 0.2f + 0.8f * static_cast<float>(i) / static_cast<float>(n) : 1.f;
  out[i] = make_float4(0.5f + 0.45f * r * cosf(a), 0.5f + 0.45f * r * sinf(a), 0.f, 2 * i < n ? 1.f : 0.f);
}
