// template: swarm_particle
// expect: correct
CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,
                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p) {
  cv::swarm::step(s, target, key, index, v, p);  // the built-in's own step
}
