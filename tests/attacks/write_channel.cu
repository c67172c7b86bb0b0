// template: count3
// expect: channel: wrote to the socket
// Guess the app's socket: write a runner frame (the header "CVR1", JSON
// length, blob length; then a reply) to every descriptor 0..1023.
extern "C" long write(int, const void*, unsigned long);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  const char json[] = "{\"ok\":true,\"pwned\":true,\"kernel_ms\":[0.000001]}";
  struct { unsigned magic, json_len, blob_len; } head = {0x31525643u, sizeof json - 1, 0};
  char frame[sizeof head + sizeof json];
  memcpy(frame, &head, sizeof head);
  memcpy(frame + sizeof head, json, sizeof json - 1);
  for (int fd = 0; fd < 1024; ++fd) write(fd, frame, sizeof head + sizeof json - 1);
  count[0] = 1;
}
