#pragma once
// The runner's named data generators: a template's generated span names one
// ("lab_data"), the launch gives n and a seed, and the runner makes the bytes
// itself (no copy of a lab's gigabyte travels over the socket). The app links
// the same table to compute references from the same data.
#include <cstdint>
#include <string>
#include <vector>

namespace cv::usercode {

// The counting and summing labs' int32 data (reduce::make_data): the one a
// GPU runner draws on the device and the references draw value by value.
inline constexpr const char* kLabData = "lab_data";

// Ids a generated co-related row holds (all distinct).
constexpr unsigned kCorelatedIdsPerRow = 64;

// n elements of generator `name` from `seed`, as raw bytes; throws
// std::invalid_argument naming the known generators when `name` is unknown.
std::vector<char> generate_data(const std::string& name, unsigned long long n, uint64_t seed);
bool has_generator(const std::string& name);
std::string generator_names();

}  // namespace cv::usercode
