#include "ui/hotkeys.h"

// Key codes only; GLFW_INCLUDE_NONE keeps GLFW from pulling in the system gl.h
// before panels.h brings GLAD's.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

#include "ui/panels.h"
#include "ui/presentation.h"

namespace cv {

namespace {

// One row per registered scene, its digit on both key rows.
std::vector<Hotkey> scene_rows() {
  std::vector<Hotkey> rows;
  for (const SceneDescriptor& d : scene_infos()) {
    static const char* const digits[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
    const int k = d.hotkey - 1;  // the registry holds keys 1..9
    rows.push_back({static_cast<Action>(static_cast<int>(Action::Scene1) + k),
                    {{GLFW_KEY_1 + k}, {GLFW_KEY_KP_1 + k}},
                    digits[k],
                    d.label});
  }
  return rows;
}

std::vector<Hotkey> make_table() {
  std::vector<Hotkey> table{
      {Action::Pause, {{GLFW_KEY_SPACE}}, "Space", "pause / resume the simulation"},
      {Action::Step, {{GLFW_KEY_S}}, "S", "one step while paused"},
      {Action::Reset, {{GLFW_KEY_R}}, "R", "reset the scene to its first step"},
      {Action::ResetCamera, {{GLFW_KEY_C}}, "C", "camera back to the scene's view"},
      {Action::Screenshot, {{GLFW_KEY_P}}, "P", "screenshot: cudaviz-<date>-<time>.png here"},
      {Action::HidePanels, {{GLFW_KEY_TAB}, {GLFW_KEY_H}}, "Tab or H", "hide / show all panels"},
      {Action::Fullscreen, {{GLFW_KEY_F11}}, "F11", "fullscreen on / off"},
      {Action::HighContrast, {{GLFW_KEY_T}}, "T", "high-contrast theme on / off"},
      {Action::ScaleUp,
       {{GLFW_KEY_EQUAL}, {GLFW_KEY_EQUAL, GLFW_MOD_SHIFT}, {GLFW_KEY_KP_ADD}},
       "+",
       "larger text and panels (UI scale +0.25)"},
      {Action::ScaleDown,
       {{GLFW_KEY_MINUS}, {GLFW_KEY_KP_SUBTRACT}},
       "-",
       "smaller text and panels (UI scale -0.25)"},
      {Action::Help, {{GLFW_KEY_F1}, {GLFW_KEY_SLASH, GLFW_MOD_SHIFT}}, "F1 or ?", "this help"},
      {Action::LessonNext,
       {{GLFW_KEY_PAGE_DOWN}, {GLFW_KEY_RIGHT}},
       "PageDown or Right",
       "lesson: next step (presenter remotes send PageDown)"},
      {Action::LessonBack,
       {{GLFW_KEY_PAGE_UP}, {GLFW_KEY_LEFT}},
       "PageUp or Left",
       "lesson: previous step"},
  };
  const std::vector<Hotkey> scenes = scene_rows();  // after reset camera, as the help lists them
  table.insert(table.begin() + 4, scenes.begin(), scenes.end());
  return table;
}

}  // namespace

const std::vector<Hotkey>& hotkeys() {
  static const std::vector<Hotkey> table = make_table();  // the registry is complete by now
  return table;
}

std::vector<Action> HotkeyTracker::update(const std::function<bool(int)>& key_down, int mods,
                                          bool keyboard_captured) {
  // Only shift, ctrl and alt take part in matching (not caps/num lock).
  mods &= GLFW_MOD_SHIFT | GLFW_MOD_CONTROL | GLFW_MOD_ALT;
  // Each key is asked once per update: with GLFW's sticky keys a second
  // glfwGetKey would already see a short tap as released.
  std::vector<int> now;
  std::vector<int> asked;
  for (const Hotkey& h : hotkeys())
    for (const KeyChord& c : h.chords)
      if (std::find(asked.begin(), asked.end(), c.key) == asked.end()) {
        asked.push_back(c.key);
        if (key_down(c.key)) now.push_back(c.key);
      }
  auto held = [](const std::vector<int>& keys, int k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  std::vector<Action> fired;
  for (const Hotkey& h : hotkeys()) {
    bool fire = false;
    for (const KeyChord& c : h.chords)
      if (held(now, c.key) && !held(down_, c.key) && c.mods == mods) fire = true;
    // The state is tracked even while ImGui has the keyboard, so a key
    // released in a text field does not fire later.
    if (fire && !keyboard_captured) fired.push_back(h.action);
  }
  down_ = std::move(now);
  return fired;
}

void apply_action(Action a, UiState& ui, Presentation& p) {
  switch (a) {
    case Action::Pause:
      ui.settings.paused = !ui.settings.paused;
      break;
    case Action::Step:
      ui.requests.step_once = true;
      break;
    case Action::Reset:
      ui.requests.reset = true;
      break;
    case Action::ResetCamera:
      ui.requests.camera_reset = true;
      break;
    case Action::Screenshot:
      ui.requests.screenshot = true;
      break;
    case Action::Scene1:
    case Action::Scene2:
    case Action::Scene3:
    case Action::Scene4:
    case Action::Scene5:
    case Action::Scene6:
    case Action::Scene7:
    case Action::Scene8:
    case Action::Scene9:
      if (auto k = scene_by_hotkey(static_cast<int>(a) - static_cast<int>(Action::Scene1) + 1))
        ui.requests.scene = *k;
      break;
    case Action::Fullscreen:
      p.fullscreen_requested = !p.fullscreen_requested;
      break;
    case Action::HidePanels:
      p.panels_hidden = !p.panels_hidden;
      break;
    case Action::Help:
      p.show_help = !p.show_help;
      break;
    case Action::HighContrast:
      p.high_contrast = !p.high_contrast;
      break;
    case Action::ScaleUp:
      p.set_ui_scale(p.ui_scale + 0.25f);
      break;
    case Action::ScaleDown:
      p.set_ui_scale(p.ui_scale - 0.25f);
      break;
    case Action::LessonNext:
      ++ui.requests.lesson_move;
      break;
    case Action::LessonBack:
      --ui.requests.lesson_move;
      break;
  }
}

}  // namespace cv
