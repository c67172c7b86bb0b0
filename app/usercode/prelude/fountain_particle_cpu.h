// cudaviz: the CPU loop around your particle_step (compiled after your file
// with the host C++ compiler). The runner calls it on its threads, each over
// a range of rows, with the kernel's own arguments.
extern "C" void cv_fountain_rows(void** params, unsigned long long row_begin,
                                 unsigned long long row_end) {
  const cv::Span<const float4>& in = *static_cast<const cv::Span<const float4>*>(params[0]);
  const cv::Span<float4>& out = *static_cast<const cv::Span<float4>*>(params[1]);
  const cv::Span<float>& vy = *static_cast<const cv::Span<float>*>(params[2]);
  const cv::Grid g = *static_cast<const cv::Grid*>(params[3]);
  const cv::Frame f = *static_cast<const cv::Frame*>(params[4]);
  const cv::Params p = *static_cast<const cv::Params*>(params[5]);
  for (unsigned long long gy = row_begin; gy < row_end; ++gy)
    for (unsigned gx = 0; gx < g.width; ++gx) {
      const unsigned long long i = gy * g.width + gx;
      if (i >= g.count) return;
      const float4 q = in[i];
      cv::Particle s{q.x, q.y, q.z, q.w, vy[i]};
      particle_step(s, cv::launch_vx(gx, g, p), cv::launch_vz(static_cast<unsigned>(gy), g, p), f, p);
      out[i] = make_float4(s.x, s.y, s.z, s.age);
      vy[i] = s.vy;
    }
}
