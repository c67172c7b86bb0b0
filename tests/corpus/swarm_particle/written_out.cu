// template: swarm_particle
// expect: correct
// The step written out, the push as a unit vector first.
CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,
                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p) {
  if (s.age >= p.max_age) cv::swarm::respawn(s, target, key, index, v, p);
  const float dx = target.x - s.x, dy = target.y - s.y, dz = target.z - s.z;
  const float len = std::sqrt(dx * dx + dy * dy + dz * dz + 1e-12f);
  const float a = (v == cv::swarm::Variant::Swarm ? 1.f : -1.f) * p.attraction * p.dt;
  const float keep = 1.f - p.drag * p.dt;
  s.vx = (s.vx + a * (dx / len)) * keep;
  s.vy = (s.vy + a * (dy / len) - p.gravity * p.dt) * keep;
  s.vz = (s.vz + a * (dz / len)) * keep;
  s.x += s.vx * p.dt;
  s.y += s.vy * p.dt;
  s.z += s.vz * p.dt;
  s.age += p.dt;
}
