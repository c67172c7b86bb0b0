// template: count3
// expect: correct
// Every lane stays to the end, so the whole warp can vote: a ballot per warp,
// popc, one atomic by lane 0.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  const bool hit = i < data.size && data[i] % 3 == 0;
  const unsigned votes = __ballot_sync(0xffffffffu, hit);
  if ((threadIdx.x & 31) == 0 && votes) atomicAdd(&count[0], (unsigned long long)__popc(votes));
}
