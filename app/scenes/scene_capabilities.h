#pragma once
// What a scene may have beyond the core (scenes/particle_scene.h): each an
// interface of its own, inherited only by the scenes that have it and found
// with ParticleScene::as<Capability>() (nullptr: this scene has none). The
// app asks a scene what it can do, never which scene it is.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "common/block_shape.h"

namespace cv {

class OrbitCamera;
namespace usercode {
class UserKernel;
}

// Runs the student's kernel of a template it feeds (its descriptor's
// runs_user_kernels) instead of the built-in one where it fits.
class StudentKernelHost {
 public:
  virtual ~StudentKernelHost() = default;
  // The app's one "Your kernel" (usercode/client/user_kernel.h); null: none.
  virtual void set_user_kernel(usercode::UserKernel* uk) = 0;
  // The one that made the last step, else null.
  virtual usercode::UserKernel* user_kernel_running() const = 0;
  // Why it is not running here ("" when it is or none is loaded).
  virtual std::string user_note() const = 0;
};

// Follows the pointer over the scene (not over a panel, no button held, since
// a drag orbits the camera), in normalized device coordinates, with the
// camera that shows it: the swarm's target.
class PointerFollower {
 public:
  struct Pointer {
    float ndc_x = 0.f, ndc_y = 0.f, aspect = 1.f;
    const OrbitCamera& camera;
  };
  virtual ~PointerFollower() = default;
  virtual void on_pointer(const Pointer& p) = 0;
};

// Draws more than its particles: a floor disc under them, lines over them.
class SceneDecor {
 public:
  struct Floor {
    float radius = 0.f, height = 0.f;  // radius 0: no disc
  };
  struct Polyline {
    std::vector<glm::vec3> points;
    glm::vec4 colour{1.f, 1.f, 1.f, 1.f};
  };
  virtual ~SceneDecor() = default;
  virtual Floor floor() const { return {}; }
  // The pi scene's quarter circle and square.
  virtual std::vector<Polyline> overlay() const { return {}; }
};

// Named settings beyond count and variant (its descriptor's SceneChoices:
// n-body's "initial" and "fast_build").
class SceneChoices {
 public:
  virtual ~SceneChoices() = default;
  // As they stand, e.g. {"initial": "galaxies"}.
  virtual std::map<std::string, std::string> choices() const = 0;
  // Sets one that needs no rebuild, checked against the block the scene will
  // run; returns why not. Rebuilding ones go to ParticleScene::rebuild_for().
  virtual std::optional<std::string> set_choice(const std::string& key, const std::string& value,
                                                const BlockShape& next_block) = 0;
};

}  // namespace cv
