// cudaviz: what a pi file must define. The app zeroes *hits, launches a 1D
// grid of ceil(n / (64 * threads)) blocks of your block shape and reads *hits.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      unsigned long long* hits);
