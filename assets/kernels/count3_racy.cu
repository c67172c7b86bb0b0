// template: count3
// Example: document 001's first parallel count. Every thread that finds a
// multiple of 3 does `count[0]++` on the same global counter without an atomic:
// read, add, write race with each other and most updates are lost. The lab
// shows the wrong answer; the atomic example fixes it.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) count[0]++;  // the race
}
