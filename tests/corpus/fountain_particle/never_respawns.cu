// template: fountain_particle
// expect: wrong launch from the emitter | respawn after max_age
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,
                         const cv::Params& p) {
  const float ny = s.y + s.vy;
  const bool bounce = ny <= 0.f && s.x * s.x + s.z * s.z < p.table_radius * p.table_radius;
  s.x += vx;
  s.y = ny;
  s.z += vz;
  s.age += 1.f;
  s.vy -= p.gravity;
  if (bounce) s.vy *= -p.restitution;
}
