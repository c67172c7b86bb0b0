#include "tuning/kernel_catalog.h"

#include <algorithm>

#include "bench/bench.h"
#include "scenes/particle_scene.h"

namespace cv::tuning {

std::optional<KernelPick> scene_kernel(const ParticleScene& scene) {
  auto sk = scene.kernel();  // the scene's hook: its variant's kernel, or the student's
  if (!sk) return std::nullopt;
  KernelPick k;
  k.block = scene.block();
  k.two_dimensional = scene.two_dimensional_block();
  k.attributes = std::move(sk->attributes);
  k.context = std::move(sk->context);
  return k;
}

namespace {

std::optional<KernelPick> fail(std::string* why, const std::string& s) {
  if (why) *why = s;
  return std::nullopt;
}

}  // namespace

std::optional<KernelPick> lab_kernel(const std::string& lab, const std::string& variant,
                                     const BlockShape& block, std::string* why) {
  const bench::Target* t = bench::find_target(lab);
  if (!t || t->kind != bench::Target::Kind::Lab) return fail(why, "'" + lab + "' is not a lab");
  if (std::find(t->variants.begin(), t->variants.end(), variant) == t->variants.end())
    return fail(why, "'" + variant + "' is not a " + lab + " variant");
  if (!t->lab.kernel) {
    std::string shown;  // the labs that expose theirs (bench::LabInfo::kernel)
    for (const bench::Target& o : bench::targets())
      if (o.kind == bench::Target::Kind::Lab && o.lab.kernel)
        shown += (shown.empty() ? "" : ", ") + o.name;
    return fail(why,
                "the kernels of " + lab + " are not exposed to this panel yet (" + shown + " are)");
  }
  auto k = t->lab.kernel(variant, block);
  if (!k) {
    return fail(why, lab + " " + variant +
                         " launches none of our kernels (a CPU variant or a library call)");
  }
  KernelPick pick;
  pick.attributes = std::move(k->attributes);
  pick.block = k->block;
  pick.two_dimensional = k->two_dimensional;
  pick.context = lab + ", variant " + variant;
  return pick;
}

}  // namespace cv::tuning
