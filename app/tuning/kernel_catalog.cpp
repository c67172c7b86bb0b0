#include "tuning/kernel_catalog.h"

#include <algorithm>

#include "bench/bench.h"
#include "fountain/fountain.h"
#include "labs/pi/pi.h"
#include "labs/pi/pi_points.h"
#include "nbody/nbody.h"
#include "scenes/fountain_scene.h"
#include "scenes/nbody_scene.h"
#include "scenes/pi_scene.h"
#include "usercode/user_kernel.h"
#include "scenes/swarm_scene.h"
#include "swarm/swarm.h"

namespace cv::tuning {

std::optional<KernelPick> scene_kernel(const ParticleScene& scene) {
  KernelPick k;
  k.block = scene.block();
  k.two_dimensional = scene.two_dimensional_block();
  if (auto* f = dynamic_cast<const FountainScene*>(&scene); f && f->user_kernel_running()) {
    // Yours: cuFuncGetAttribute's values from the runner (no host stub here).
    const usercode::UserKernelStatus& st = f->user_kernel_running()->status();
    KernelAttributes& a = k.attributes;
    a.name = "your " + (st.compile && !st.compile->entry_points.empty() ? st.compile->entry_points[0]
                                                                        : std::string("kernel"));
    a.ok = st.resources.known;
    a.error = a.ok ? "" : "your kernel's resources are not known yet";
    a.regs_per_thread = st.resources.registers;
    a.static_shared_bytes = st.resources.shared_bytes;
    a.local_bytes = st.resources.local_bytes;
    a.max_threads_per_block = st.resources.max_threads;
    k.context = "fountain, your kernel (" + st.template_name + ")";
  } else if (auto* f = dynamic_cast<const FountainScene*>(&scene)) {
    k.attributes = fountain::kernel_attributes(f->variant());
    k.context = std::string("fountain, variant ") + fountain::to_string(f->variant());
  } else if (dynamic_cast<const SwarmScene*>(&scene)) {
    k.attributes = swarm::kernel_attributes();
    k.context = "swarm (both variants run this kernel)";
  } else if (auto* n = dynamic_cast<const NBodyScene*>(&scene)) {
    k.attributes = nbody::kernel_attributes(n->variant, scene.block(), n->fast_build);
    k.context = std::string("nbody, variant ") + nbody::to_string(n->variant) +
                " (the force kernel; gather and finish are light)";
  } else if (dynamic_cast<const PiPointsScene*>(&scene)) {
    k.attributes = pi::points_kernel_attributes();
    k.context = "pi points";
  } else {
    return std::nullopt;
  }
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
