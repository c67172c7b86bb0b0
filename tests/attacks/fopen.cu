// template: count3
// expect: forbidden: open or look at a file
// Reading the teacher's files (the contents would come back as the count or a printf).
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  FILE* f = fopen("/etc/passwd", "r");
  if (f) count[0] = static_cast<unsigned long long>(fgetc(f));
}
