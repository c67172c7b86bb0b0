// template: count3
// expect: correct
// A warp vote: the warp's hits counted with one ballot, one atomic a warp.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  const bool hit = i < data.size && data[i] % 3 == 0;
  const unsigned lanes = __ballot_sync(__activemask(), hit);
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (t % 32 == 0 && lanes) atomicAdd(&count[0], static_cast<unsigned long long>(__popc(lanes)));
}
