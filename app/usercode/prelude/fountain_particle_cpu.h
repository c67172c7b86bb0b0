// cudaviz: the CPU loop around your particle_step (compiled after your file
// with the host C++ compiler). The runner calls it on its threads, each over
// a range of rows.
extern "C" void cv_fountain_rows(const float4* in, float4* out, float* vy, cv::Grid g,
                                 cv::Frame f, cv::Params p, unsigned row_begin,
                                 unsigned row_end) {
  for (unsigned gy = row_begin; gy < row_end; ++gy)
    for (unsigned gx = 0; gx < g.width; ++gx) {
      const unsigned i = gy * g.width + gx;
      if (i >= g.count) return;
      const float4 q = in[i];
      cv::Particle s{q.x, q.y, q.z, q.w, vy[i]};
      particle_step(s, cv::launch_vx(gx, g, p), cv::launch_vz(gy, g, p), f, p);
      out[i] = make_float4(s.x, s.y, s.z, s.age);
      vy[i] = s.vy;
    }
}
