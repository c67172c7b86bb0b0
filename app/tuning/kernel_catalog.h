#pragma once
// Which kernel a scene or a lab variant runs, with its attributes: the map from
// what the panels show to the kernels library's *_kernel_attributes()
// functions. The app never names a CUDA symbol itself.
#include <optional>
#include <string>

#include "common/block_shape.h"
#include "common/kernel_attributes.h"

namespace cv {
class ParticleScene;

namespace tuning {

struct KernelPick {
  KernelAttributes attributes;
  BlockShape block;              // the shape the kernel really runs with
  bool two_dimensional = false;  // the kernel reads block.y (fountain, swarm, sum3 brute force)
  std::string context;           // e.g. "nbody, variant tiled"
};

// The step kernel of the scene's current variant and block shape; nullopt for a
// scene without one of ours.
std::optional<KernelPick> scene_kernel(const ParticleScene& scene);

// The main kernel of a lab's (bench target's) variant with `block`; nullopt when
// the variant has none of ours (CPU, library calls) or the lab's kernels are not
// exposed yet. *why (optional) says which.
std::optional<KernelPick> lab_kernel(const std::string& lab, const std::string& variant,
                                     const BlockShape& block, std::string* why = nullptr);

}  // namespace tuning
}  // namespace cv
