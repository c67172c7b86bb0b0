// template: reduce
// expect: wrong the demo's default | values near INT_MIN (the sum passes -2^42)
// Each value widened through unsigned: -1 becomes 4294967295.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  const unsigned long long i = cv::global_index();
  if (i < data.size)
    atomicAdd(reinterpret_cast<unsigned long long*>(&sum[0]),
              static_cast<unsigned long long>(static_cast<unsigned>(data[i])));
}
