#include "core/apply_config.h"

#include "common/cpu_simd.h"
#include "common/fault_injection.h"
#include "nbody/nbody.h"

namespace cv {

void apply_config_to_kernels(const Config& config, std::ostream& err) {
  if (!config.fault_error.empty())
    err << "cudaviz: " << config.fault_error << "; no fault is injected\n";
  if (config.fault)
    err << "cudaviz: CUDAVIZ_FAULT: matching launch " << config.fault->after + 1 << " of '"
        << config.fault->pattern << "' will fail\n";
  fault_injector().reset(config.fault);

  if (!config.cpu_simd_error.empty())
    err << "cudaviz: " << config.cpu_simd_error << "; using " << to_string(default_simd_path())
        << "\n";
  if (config.cpu_simd && !set_default_simd_path(*config.cpu_simd))
    err << "cudaviz: CUDAVIZ_CPU_SIMD=" << to_string(*config.cpu_simd)
        << ": this CPU lacks AVX2/FMA; using " << to_string(default_simd_path()) << "\n";

  nbody::set_default_fast_tile(config.nbody_tile, "CUDAVIZ_NBODY_TILE");
}

}  // namespace cv
