// template: fountain_particle
// expect: forbidden: open or look at a file
// The per-particle path (a host-compiled function on the runner's threads).
extern "C" int open(const char*, int, ...);
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f, const cv::Params& p) {
  s.y += open("/etc/passwd", 0) >= 0 ? 1.0f : 0.0f;
}
