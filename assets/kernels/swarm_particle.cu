// template: swarm_particle
// One swarm particle's step, written once: the app calls it for every
// particle each frame, in a CUDA kernel on the GPU and in a loop on the CPU
// (the host C++ compiler builds it there), exactly like the built-in
// cv::swarm::step of kernels/swarm/swarm_math.h (shown in the prelude).
// s holds position, velocity and age in steps; the target moves on a path or
// follows the mouse; key and index draw the respawn's random numbers. The app
// writes s back and colours the particle by its age.
// Try: a pull that grows with distance (drop `inv`), drag (p.drag = 0.02),
// gravity, or a push away from the target (the sparkler), and watch.
CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,
                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p) {
  if (s.age >= p.max_age) cv::swarm::respawn(s, target, key, index, v, p);  // near the target
  // The document's steering: a fixed push along the unit vector to the target
  // (away from it for the sparkler). The 1e-12 keeps a particle sitting on
  // the target from dividing by zero.
  const float dx = target.x - s.x, dy = target.y - s.y, dz = target.z - s.z;
  const float inv = 1.f / std::sqrt(dx * dx + dy * dy + dz * dz + 1e-12f);
  const float push = (v == cv::swarm::Variant::Swarm ? p.attraction : -p.attraction) * p.dt * inv;
  const float keep = 1.f - p.drag * p.dt;
  s.vx = (s.vx + dx * push) * keep;
  s.vy = (s.vy + dy * push - p.gravity * p.dt) * keep;
  s.vz = (s.vz + dz * push) * keep;
  s.x += s.vx * p.dt;  // move
  s.y += s.vy * p.dt;
  s.z += s.vz * p.dt;
  s.age += p.dt;  // the app colours by age / max_age
}
