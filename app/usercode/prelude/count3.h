// cudaviz: what a count3 file must define. The app zeroes *count, launches a
// 1D grid of ceil(n / threads) blocks of your block shape and reads *count.
extern "C" __global__ void count3(cv::Span<const int> data, unsigned long long* count);
