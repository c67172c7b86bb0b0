// template: fountain_particle
// expect: wrong flight
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,
                         const cv::Params& p) {
  if (s.age >= p.max_age) {
    s.age = 0.f;
    s.vy = p.launch_speed + p.launch_jitter * f.randy;
    s.x = f.emitter_x;
    s.y = 0.f;
    s.z = f.emitter_z;
  }
  // Falls before it moves: the height uses this step's speed after gravity.
  s.vy -= p.gravity;
  const float ny = s.y + s.vy;
  const bool bounce = ny <= 0.f && s.x * s.x + s.z * s.z < p.table_radius * p.table_radius;
  s.x += vx;
  s.y = ny;
  s.z += vz;
  s.age += 1.f;
  if (bounce) s.vy *= -p.restitution;
}
