// template: swarm_particle
// expect: wrong the swarm's respawn at the target | the sparkler's respawn (a burst)
// Every particle respawns with particle 0's random numbers: all at one point.
CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,
                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p) {
  if (s.age >= p.max_age) cv::swarm::respawn(s, target, key, 0u, v, p);
  cv::swarm::step(s, target, key, index, v, p);
}
