// cudaviz: what a swarm_kernel file must define. Every step the app launches
// it as a 2D grid of 2D blocks with the block from the sliders: grid =
// ceil(g.width / block.x) x ceil(g.height / block.y); particle i = y * g.width
// + x exists when x < g.width and i < g.count. in[i] is the last frame's
// (x, y, z, age01), out[i] the next (write every particle); state[i] is
// (vx, vy, vz, age in steps), read and written in place. key is this step's
// random key (cv::swarm::respawn uses it), v the variant the scene runs.
extern "C" __global__ void swarm_step(cv::Span<const float4> in, cv::Span<float4> out,
                                      cv::Span<float4> state, cv::swarm::Grid g, float3 target,
                                      unsigned key, cv::swarm::Variant v, cv::swarm::Params p,
                                      cv::Ids ids);
