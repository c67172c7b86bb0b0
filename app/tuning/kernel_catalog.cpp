#include "tuning/kernel_catalog.h"

#include "scenes/particle_scene.h"

#include "labs/pi/pi.h"
#include "labs/reverse/reverse.h"
#include "labs/sum3/sum3.h"

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
  KernelPick k;
  k.block = block;
  k.context = lab + ", variant " + variant;
  std::optional<KernelAttributes> a;
  if (lab == "sum3") {
    const auto v = sum3::parse_variant(variant);
    if (!v) return fail(why, "'" + variant + "' is not a sum3 variant");
    a = sum3::kernel_attributes(*v);
    // The brute-force kernels index (i, j) with a 2D grid; fast and sorted are 1D.
    k.two_dimensional =
        *v == sum3::Variant::Naive || *v == sum3::Variant::Hoisted || *v == sum3::Variant::Shared;
  } else if (lab == "reverse") {
    const auto v = reverse::parse_variant(variant);
    if (!v) return fail(why, "'" + variant + "' is not a reverse variant");
    a = reverse::kernel_attributes(*v);
  } else if (lab == "pi") {
    const auto v = pi::parse_variant(variant);
    if (!v) return fail(why, "'" + variant + "' is not a pi variant");
    a = pi::kernel_attributes(*v);
    if (a) k.block = pi::effective_block(*v, block);
  } else {
    return fail(why, "the kernels of " + lab +
                         " are not exposed to this panel yet (sum3, reverse and pi are)");
  }
  if (!a) {
    return fail(why, lab + " " + variant +
                         " launches none of our kernels (a CPU variant or a library call)");
  }
  k.attributes = std::move(*a);
  return k;
}

}  // namespace cv::tuning
