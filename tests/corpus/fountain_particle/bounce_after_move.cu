// template: fountain_particle
// expect: wrong a landing at the table's edge
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,
                         const cv::Params& p) {
  if (s.age >= p.max_age) {
    s.age = 0.f;
    s.vy = p.launch_speed + p.launch_jitter * f.randy;
    s.x = f.emitter_x;
    s.y = 0.f;
    s.z = f.emitter_z;
  }
  s.x += vx;
  s.y += s.vy;
  s.z += vz;
  s.age += 1.f;
  s.vy -= p.gravity;
  // Tested after the move: the new position decides.
  if (s.y <= 0.f && s.x * s.x + s.z * s.z < p.table_radius * p.table_radius) s.vy *= -p.restitution;
}
