#include "usercode/wire/data_generators.h"

#include <cstring>
#include <stdexcept>

#include "labs/corelated/corelated.h"
#include "labs/reduce/reduce.h"
#include "labs/sum3/sum3.h"
#include "usercode/wire/edge_data.h"
#include "usercode/wire/launch_request.h"

namespace cv::usercode {
namespace {

struct Generator {
  const char* name;
  std::vector<char> (*make)(unsigned long long n, uint64_t seed);
};

// One line per generator; templates name them in their spans.
const Generator kGenerators[] = {
    // The counting / summing labs' int32 data (reduce::make_data).
    {kLabData, [](unsigned long long n, uint64_t seed) {
       return bytes_of_all(reduce::make_data(static_cast<size_t>(n), seed));
     }},
    // 3SUM's small integers in [-100, 100] (sum3::make_data).
    {"sum3_data", [](unsigned long long n, uint64_t seed) {
       return bytes_of_all(sum3::make_data(static_cast<size_t>(n), -100, 100, static_cast<uint32_t>(seed)));
     }},
    // The co-related ids lab's rows (corelated::generate_rows): n = the span's
    // count, rows * 64 ids (the launch passes the count, as for every span).
    {"corelated_ids", [](unsigned long long n, uint64_t seed) {
       return bytes_of_all(corelated::generate_rows(static_cast<size_t>(n / kCorelatedIdsPerRow), kCorelatedIdsPerRow, 4096,
                                                static_cast<uint32_t>(seed)).ids);
     }},
    {"corelated_offsets", [](unsigned long long n, uint64_t seed) {  // n = rows + 1
       return bytes_of_all(corelated::generate_rows(static_cast<size_t>(n ? n - 1 : 0), kCorelatedIdsPerRow, 4096,
                                                static_cast<uint32_t>(seed)).offsets);
     }},
    // The verdict's edge values (edge_data.h).
    {"ends_multiple_of_3", [](unsigned long long n, uint64_t seed) {
       return bytes_of_all(edge_data::ends_multiple_of_3(n, seed));
     }},
    {"near_int_max", [](unsigned long long n, uint64_t seed) { return bytes_of_all(edge_data::near_int_max(n, seed)); }},
    {"near_int_min", [](unsigned long long n, uint64_t seed) { return bytes_of_all(edge_data::near_int_min(n, seed)); }},
    {"sum3_extremes", [](unsigned long long n, uint64_t seed) { return bytes_of_all(edge_data::sum3_extremes(n, seed)); }},
    {"corelated_ragged_ids", [](unsigned long long n, uint64_t seed) {
       return bytes_of_all(edge_data::ragged_rows(n / kCorelatedIdsPerRow, seed).ids);
     }},
    {"corelated_ragged_offsets", [](unsigned long long n, uint64_t seed) {
       return bytes_of_all(edge_data::ragged_rows(n ? n - 1 : 0, seed).offsets);
     }},
};

}  // namespace

bool has_generator(const std::string& name) {
  for (const Generator& g : kGenerators)
    if (name == g.name) return true;
  return false;
}

std::string generator_names() {
  std::string s;
  for (const Generator& g : kGenerators) s += (s.empty() ? "" : ", ") + std::string(g.name);
  return s;
}

std::vector<char> generate_data(const std::string& name, unsigned long long n, uint64_t seed) {
  for (const Generator& g : kGenerators)
    if (name == g.name) return g.make(n, seed);
  throw std::invalid_argument("no data generator named '" + name + "' (known: " + generator_names() + ")");
}

}  // namespace cv::usercode
