// template: swarm_particle
// expect: wrong the sparkler: push, gravity and drag
// Gravity with the wrong sign: sparks fall upwards.
CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,
                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p) {
  if (s.age >= p.max_age) cv::swarm::respawn(s, target, key, index, v, p);
  const float dx = target.x - s.x, dy = target.y - s.y, dz = target.z - s.z;
  const float inv = 1.f / std::sqrt(dx * dx + dy * dy + dz * dz + 1e-12f);
  const float push = (v == cv::swarm::Variant::Swarm ? p.attraction : -p.attraction) * p.dt * inv;
  const float keep = 1.f - p.drag * p.dt;
  s.vx = (s.vx + dx * push) * keep;
  s.vy = (s.vy + dy * push + p.gravity * p.dt) * keep;
  s.vz = (s.vz + dz * push) * keep;
  s.x += s.vx * p.dt;
  s.y += s.vy * p.dt;
  s.z += s.vz * p.dt;
  s.age += p.dt;
}
