// template: count3
// expect: compile: ifunc or target_clones
// ifunc resolvers would run while loading, before the sandbox is in force.
__attribute__((target_clones("avx2", "default"))) int twice(int x) { return 2 * x; }
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(twice(3));
}
