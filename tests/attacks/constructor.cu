// template: count3
// expect: load: open or look at a file
// Code that runs when the module is loaded, before any launch.
__attribute__((constructor)) static void early() {
  FILE* f = fopen("/etc/passwd", "r");
  if (f) fclose(f);
}
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = 1;
}
