// cudaviz: what a fountain_kernel file must define. The app launches it every
// step as a 2D grid of 2D blocks: grid = ceil(width / block.x) x ceil(height / block.y).
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids);
