// cudaviz: the CPU loop around your particle_step (compiled after your file
// with the host C++ compiler). The runner calls it on its threads, each over
// a range of particles.
extern "C" void cv_swarm_range(const float4* in, float4* out, float4* state, cv::swarm::Grid g,
                               float3 target, unsigned key, cv::swarm::Variant v,
                               cv::swarm::Params p, unsigned begin, unsigned end) {
  for (unsigned i = begin; i < end && i < g.count; ++i) {
    const float4 q = in[i], st = state[i];
    cv::swarm::Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
    particle_step(s, target, key, i, v, p);
    out[i] = make_float4(s.x, s.y, s.z, cv::swarm::age01(s.age, p));
    state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
  }
}
