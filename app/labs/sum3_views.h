#pragma once
// The sum3 lab's pictures (labs/sum3_views.cpp): what the grid picture counts.
namespace cv::labs {

// Threads (i, j) of the bx x by block starting at (i0, j0) that work (i < j < n - 1).
unsigned long long sum3_working_in_block(unsigned long long i0, unsigned long long j0,
                                         unsigned long long bx, unsigned long long by,
                                         unsigned long long n);

}  // namespace cv::labs
