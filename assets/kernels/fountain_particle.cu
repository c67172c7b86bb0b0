// template: fountain_particle
// One particle's step, written once: the app calls it for every particle, in
// a CUDA kernel on the GPU and in a loop on the CPU (it is compiled by the
// host C++ compiler there), exactly like kernels/fountain/fountain_math.h.
// s holds position, age and vertical speed; vx, vz are its launch velocity.
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,
                         const cv::Params& p) {
  if (s.age >= p.max_age) {  // respawn at the emitter
    s.age = 0.f;
    s.vy = p.launch_speed + p.launch_jitter * f.randy;
    s.x = f.emitter_x;
    s.y = 0.f;
    s.z = f.emitter_z;
  }
  const float nx = s.x + vx, ny = s.y + s.vy, nz = s.z + vz;
  s.age += 1.f;
  s.vy -= p.gravity;
  // Bounce off the table top (tested before the move, as the document does).
  if (ny <= 0.f && s.x * s.x + s.z * s.z < p.table_radius * p.table_radius) s.vy *= -p.restitution;
  s.x = nx;
  s.y = ny;
  s.z = nz;
}
