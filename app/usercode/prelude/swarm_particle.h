// cudaviz: what a swarm_particle file must define. The app calls it once per
// particle per step (on the GPU in a kernel, on the CPU in a loop), with the
// particle's index and this step's random key (for cv::swarm::respawn).
CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,
                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p);
