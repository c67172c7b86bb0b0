// cudaviz: the CPU loop around your particle_step (compiled after your file
// with the host C++ compiler). The runner calls it on its threads, each over
// a range of particles, with the kernel's own arguments.
extern "C" void cv_swarm_range(void** params, unsigned long long begin, unsigned long long end) {
  const cv::Span<const float4>& in = *static_cast<const cv::Span<const float4>*>(params[0]);
  const cv::Span<float4>& out = *static_cast<const cv::Span<float4>*>(params[1]);
  const cv::Span<float4>& state = *static_cast<const cv::Span<float4>*>(params[2]);
  const cv::swarm::Grid g = *static_cast<const cv::swarm::Grid*>(params[3]);
  const float3 target = *static_cast<const float3*>(params[4]);
  const unsigned key = *static_cast<const unsigned*>(params[5]);
  const cv::swarm::Variant v = *static_cast<const cv::swarm::Variant*>(params[6]);
  const cv::swarm::Params p = *static_cast<const cv::swarm::Params*>(params[7]);
  for (unsigned long long i = begin; i < end && i < g.count; ++i) {
    const float4 q = in[i], st = state[i];
    cv::swarm::Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
    particle_step(s, target, key, static_cast<uint32_t>(i), v, p);
    out[i] = make_float4(s.x, s.y, s.z, cv::swarm::age01(s.age, p));
    state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
  }
}
