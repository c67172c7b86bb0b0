// cudaviz: what a fountain_particle file must define. The app calls it once
// per particle per step (on the GPU in a kernel, on the CPU in a loop).
CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,
                         const cv::Params& p);
