#pragma once
// Lab-specific pieces of the lab panel, one small file each.
#include <nlohmann/json.hpp>
#include <vector>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "cli.h"

namespace cv::labs {

// sum3: the (i, j) thread grid of the seed's 2D kernels for n values and the
// block, working threads (upper triangle) lit, with how many idle.
void draw_sum3_grid(long long n, const BlockShape& block);
// Threads (i, j) of the bx x by block starting at (i0, j0) that work (i < j < n - 1).
unsigned long long sum3_working_in_block(unsigned long long i0, unsigned long long j0,
                                         unsigned long long bx, unsigned long long by,
                                         unsigned long long n);
// sum3: the jobs that reproduce the seed's table (n = 800..2000 step 200;
// cpu, naive, shared; the GPU ones only on the CUDA backend).
std::vector<BenchOptions> sum3_seed_table_jobs(Backend backend,
                                               const std::optional<BlockShape>& block, int reps);
// sum3: the table of those runs, n down, variants across (ms median).
void draw_sum3_seed_table(const std::vector<nlohmann::ordered_json>& rows);

// count3: why the racy variant's answer is wrong, in one line (empty for others).
const char* count3_note(const std::string& variant);

}  // namespace cv::labs
