// template: count3
// expect: ok: count at most 1
// Threads are allowed (the emulator needs them); they inherit the policy.
extern "C" int pthread_create(unsigned long*, const void*, void* (*)(void*), void*);
extern "C" int pthread_join(unsigned long, void**);
static void* work(void* p) { *static_cast<int*>(p) = 1; return nullptr; }
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  int done = 0;
  unsigned long t = 0;
  if (pthread_create(&t, nullptr, work, &done) == 0) pthread_join(t, nullptr);
  count[0] = static_cast<unsigned long long>(done);
}
