#pragma once
// The window's keys as one table: the input loop dispatches from it and the
// help overlay (F1) lists it, so the two cannot disagree. Key codes are GLFW's.
#include <functional>
#include <string>
#include <vector>

namespace cv {

struct UiState;
struct Presentation;

enum class Action {
  Pause,
  Step,
  Reset,
  ResetCamera,
  Screenshot,
  Scene1,  // Scene1 + k - 1: the registered scene with hotkey k (registry/scene_registry.h)
  Scene2,
  Scene3,
  Scene4,
  Scene5,
  Scene6,
  Scene7,
  Scene8,
  Scene9,
  Fullscreen,
  HidePanels,
  Help,
  HighContrast,
  ScaleUp,
  ScaleDown,
  LessonNext,  // a presenter remote's "next" (PageDown) or the right arrow
  LessonBack,
};

struct KeyChord {
  int key;       // GLFW_KEY_*
  int mods = 0;  // GLFW_MOD_SHIFT / CONTROL / ALT, matched exactly
};

struct Hotkey {
  Action action;
  std::vector<KeyChord> chords;
  const char* keys;  // as the help overlay shows them, e.g. "Tab or H"
  const char* what;
};

const std::vector<Hotkey>& hotkeys();

// Edge-triggered: an action fires once when one of its chords goes down.
// Keys pressed while ImGui has the keyboard (typing in a field) do nothing.
class HotkeyTracker {
 public:
  // key_down(key): whether the key is held now; mods: the modifiers held now.
  std::vector<Action> update(const std::function<bool(int)>& key_down, int mods,
                             bool keyboard_captured);

 private:
  std::vector<int> down_;  // keys held at the last update
};

// What an action does to the UI state (scene switches, pause...) and the
// presentation settings (scale, contrast, panels, help, fullscreen request).
void apply_action(Action a, UiState& ui, Presentation& p);

}  // namespace cv
