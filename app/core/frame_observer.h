#pragma once
// Scripted runs watch the frame loop instead of branching inside it: the
// --frames/--screenshot run and its JSON summary, --soak, the resize storm and
// the close-at-frame fault are FrameObservers the App calls at fixed points of
// every frame. The hooks default to nothing.
#include <nlohmann/json.hpp>
#include <ostream>

#include "core/window.h"

namespace cv {

struct Context;

// What an observer sees of the frame being drawn.
struct FrameView {
  GLFWwindow* window;
  Context& ctx;
  GlfwWindow::Size size;
};

class FrameObserver {
 public:
  virtual ~FrameObserver() = default;
  // Every pass of the loop, before events are polled (may resize the window).
  virtual void before_events(GLFWwindow* window) { (void)window; }
  // The pass found the window minimized and drew nothing.
  virtual void on_minimized() {}
  // A frame is about to be drawn (ctx.frame frames are done), before requests and input.
  virtual void before_frame(FrameView& f) { (void)f; }
  // The frame is drawn and not yet presented: the back buffer holds the picture.
  virtual void before_present(FrameView& f) { (void)f; }
  // The frame is presented and counted. False ends the loop.
  virtual bool after_frame(FrameView& f) {
    (void)f;
    return true;
  }
  // After the loop, with the workers stopped: add to the run's summary.
  virtual void finish(Context& ctx, nlohmann::ordered_json& summary) {
    (void)ctx;
    (void)summary;
  }
  // The exit status this observer asks for: 0, or 1 after saying why on `err`.
  virtual int exit_code(const Context& ctx, std::ostream& err) const {
    (void)ctx;
    (void)err;
    return 0;
  }
};

}  // namespace cv
