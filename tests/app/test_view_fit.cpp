// Framing (render/view_fit.h): the camera puts a scene's content
// inside the view, centred and filling it, at every aspect and direction; the
// default fountain fills a good part of a 1920x1080 projector picture.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/scene_view.h"
#include "render/camera.h"
#include "render/view_fit.h"
#include "ui/layout.h"

using cv::ContentBounds;
using cv::OrbitCamera;

namespace {

struct Extent {
  float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
  bool behind = false;
};

// Where the content's outline lands in normalized device coordinates.
Extent project(const OrbitCamera& c, const ContentBounds& b, float aspect) {
  Extent e;
  const glm::mat4 vp = c.view_proj(aspect);
  for (const glm::vec3& p : cv::outline(b)) {
    const glm::vec4 clip = vp * glm::vec4(p, 1.f);
    if (clip.w <= 0.f) e.behind = true;
    const float x = clip.x / clip.w, y = clip.y / clip.w;
    e.x0 = std::min(e.x0, x), e.x1 = std::max(e.x1, x);
    e.y0 = std::min(e.y0, y), e.y1 = std::max(e.y1, y);
  }
  return e;
}

OrbitCamera framed(const ContentBounds& b, float yaw, float pitch, float aspect) {
  OrbitCamera c;
  c.set_home({0.f, 0.f, 0.f}, 9.f, yaw, pitch);
  c.fit(b, aspect);
  return c;
}

// The fountain's content at its defaults (FountainScene::content_bounds).
const ContentBounds kFountain{{-5.27f, 0.f, -5.27f}, {5.27f, 3.125f, 5.27f}, true};

}  // namespace

TEST(ViewFit, ContentInsideCentredAndFillingAtEveryAspectAndDirection) {
  const ContentBounds scenes[] = {
      kFountain,
      {{-1.3f, -0.9f, -1.3f}, {1.3f, 0.9f, 1.3f}, true},  // swarm
      {{-2.f, -2.f, -2.f}, {2.f, 2.f, 2.f}, true},        // n-body
      {{0.f, 0.f, 0.f}, {1.f, 1.f, 0.f}, false},          // pi's unit square
      {{-3.f, 0.f, -1.f}, {4.f, 1.f, 2.f}, false},        // an off-centre box
  };
  for (const ContentBounds& b : scenes)
    for (float aspect : {0.4f, 1.f, 1.19f, 16.f / 9.f, 3.f})
      for (float yaw : {0.f, 0.6f, 2.5f})
        for (float pitch : {0.f, 0.42f, 1.2f}) {
          const OrbitCamera c = framed(b, yaw, pitch, aspect);
          const Extent e = project(c, b, aspect);
          const std::string at = "aspect " + std::to_string(aspect) + " yaw " +
                                 std::to_string(yaw) + " pitch " + std::to_string(pitch);
          ASSERT_FALSE(e.behind) << at;
          // Inside the frustum...
          EXPECT_GE(e.x0, -1.f) << at;
          EXPECT_LE(e.x1, 1.f) << at;
          EXPECT_GE(e.y0, -1.f) << at;
          EXPECT_LE(e.y1, 1.f) << at;
          // ...filling the tighter direction to the 6% margin (a flat square
          // seen edge-on has no height: its width is the tight side)...
          EXPECT_GT(std::max(e.x1 - e.x0, e.y1 - e.y0), 2.f * 0.93f) << at;
          // ...and centred.
          EXPECT_NEAR(e.x0 + e.x1, 0.f, 0.03f) << at;
          EXPECT_NEAR(e.y0 + e.y1, 0.f, 0.03f) << at;
        }
}

TEST(ViewFit, DefaultFountainFillsTheFreeRoomOfA1080pPicture) {
  for (bool tool : {false, true}) {
    cv::ui::LayoutInput in;
    in.width = 1920;
    in.height = 1080;
    in.strip_h = 40;
    in.tool_open = tool;
    in.tool_wanted_h = 300;
    in.control_wanted_h = 740;
    in.timing_wanted_h = 330;
    const cv::ui::Rect r = cv::ui::plan_layout(in).scene;
    const float aspect = r.w / r.h;
    const OrbitCamera c = framed(kFountain, 0.6f, 0.42f, aspect);  // the fountain's home
    const Extent e = project(c, kFountain, aspect);
    const float w_px = (e.x1 - e.x0) / 2 * r.w, h_px = (e.y1 - e.y0) / 2 * r.h;
    // At least 60% of the view's smaller side, and over half the screen's width.
    EXPECT_GE(std::min(w_px, h_px) / std::min(r.w, r.h), 0.6f) << (tool ? "tool open" : "");
    EXPECT_GT(w_px, 0.5f * 1920) << (tool ? "tool open" : "");
  }
}

TEST(ViewFit, ZoomAndPanStayOnTopOfTheFitAndHoldKeepsAPresetsView) {
  OrbitCamera c = framed(kFountain, 0.6f, 0.42f, 1.5f);
  const float fitted = c.distance;
  c.zoom(2);  // closer
  c.fit(kFountain, 1.5f);
  const float zoomed = c.distance;
  EXPECT_NEAR(zoomed, fitted * 0.81f, 1e-3f * fitted);
  c.fit(kFountain, 0.75f);  // a narrower view: further away to keep it all in, same zoom
  EXPECT_GT(c.distance, 1.2f * zoomed);
  c.fit(kFountain, 1.5f);
  EXPECT_NEAR(c.distance, zoomed, 1e-3f * fitted);
  c.reset();
  c.fit(kFountain, 1.5f);
  EXPECT_NEAR(c.distance, fitted, 1e-3f * fitted);  // reset: the fit again, no zoom
  c.distance = 42.f;
  c.hold();  // a preset's explicit distance
  c.fit(kFountain, 1.5f);
  EXPECT_FLOAT_EQ(c.distance, 42.f);
}

// The layout's free rectangle (window pixels, y down) to the GL viewport
// (framebuffer pixels, y up): HiDPI scale, flip, and the whole window when
// the panels are hidden or the plan is for another window size.
TEST(SceneViewport, ScalesFlipsAndFallsBackToTheWholeWindow) {
  const cv::ui::Rect free{300, 0, 1000, 700};
  // A 1600x800 window on a 2x display: framebuffer 3200x1600.
  const cv::Viewport v = cv::scene_viewport(free, 1600, 800, false, 3200, 1600, 1600, 800);
  EXPECT_EQ(v.x, 600);
  EXPECT_EQ(v.w, 2000);
  EXPECT_EQ(v.h, 1400);
  EXPECT_EQ(v.y, 1600 - 1400);  // the rectangle's top is at the window's top
  const cv::Viewport hidden = cv::scene_viewport(free, 1600, 800, true, 3200, 1600, 1600, 800);
  EXPECT_EQ(hidden.w, 3200);
  EXPECT_EQ(hidden.h, 1600);
  const cv::Viewport stale = cv::scene_viewport(free, 1280, 720, false, 3200, 1600, 1600, 800);
  EXPECT_EQ(stale.w, 3200);  // planned for a window of another size: not used
  const cv::Viewport none = cv::scene_viewport({}, 0, 0, false, 1280, 720, 1280, 720);
  EXPECT_EQ(none.w, 1280);  // no plan yet (first frame)
}
