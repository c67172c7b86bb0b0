// template: fountain_particle
// expect: correct
// Split into small helpers, the table test as a squared distance function.
CV_HD float dist2(float x, float z) { return x * x + z * z; }
CV_HD void respawn(cv::Particle& s, const cv::Frame& f, const cv::Params& p) {
  s = cv::Particle{f.emitter_x, 0.f, f.emitter_z, 0.f, p.launch_speed + p.launch_jitter * f.randy};
}
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,
                         const cv::Params& p) {
  if (s.age >= p.max_age) respawn(s, f, p);
  const float r2 = dist2(s.x, s.z), ny = s.y + s.vy;
  s.vy = s.vy - p.gravity;
  if (ny <= 0.f && r2 < p.table_radius * p.table_radius) s.vy = -p.restitution * s.vy;
  s = cv::Particle{s.x + vx, ny, s.z + vz, s.age + 1.f, s.vy};
}
