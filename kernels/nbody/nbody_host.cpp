// Host-side pieces shared by both backends: variant names, slice choice,
// energy drift and momentum.
#include <cmath>
#include <stdexcept>
#include <string>

#include "nbody/nbody.h"

namespace cv::nbody {

void require_softening(const Params& p) {
  const float eps2 = p.softening * p.softening;
  if (!(eps2 > 0.f) || !std::isfinite(eps2))
    throw std::invalid_argument("nbody: softening " + std::to_string(p.softening) +
                                " must be > 0 and finite (eps^2 = " + std::to_string(eps2) +
                                "; the force law divides by r^2 + eps^2)");
}

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

unsigned choose_slices(unsigned i_blocks, unsigned max_slices, unsigned resident) {
  if (i_blocks == 0 || max_slices <= 1 || resident == 0) return 1;
  // Fill = blocks launched / (waves x resident slots). More slices shorten each
  // block, so take the fewest that reach the threshold.
  unsigned best = 1;
  double best_fill = 0;
  for (unsigned s = 1; s <= max_slices; ++s) {
    const unsigned long long blocks = static_cast<unsigned long long>(i_blocks) * s;
    const unsigned long long waves = (blocks + resident - 1) / resident;
    const double fill = static_cast<double>(blocks) / static_cast<double>(waves * resident);
    if (fill >= 0.95) return s;
    if (fill > best_fill + 1e-12) {
      best_fill = fill;
      best = s;
    }
  }
  return best;
}

double energy_drift(const Energy& now, const Energy& start) {
  const double e0 = start.total();
  return e0 == 0 ? 0.0 : (now.total() - e0) / std::fabs(e0);
}

Momentum momentum(const std::vector<float4>& vel) {
  Momentum p;
  for (const float4& v : vel) {
    p.x += static_cast<double>(v.w) * v.x;
    p.y += static_cast<double>(v.w) * v.y;
    p.z += static_cast<double>(v.w) * v.z;
  }
  return p;
}

}  // namespace cv::nbody
