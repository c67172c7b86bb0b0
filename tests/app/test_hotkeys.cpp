// The key table, its dispatch (edges, modifiers, text fields) and what each
// action does, plus the timing CSV. No window: key states are faked.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <set>

#include "ui/hotkeys.h"
#include "ui/panels.h"
#include "ui/presentation.h"
#include "ui/timing_export.h"

using namespace cv;

namespace {

// Drives a tracker with a set of held keys.
struct FakeKeyboard {
  std::set<int> held;
  int mods = 0;
  HotkeyTracker tracker;
  std::vector<Action> frame(bool captured = false) {
    return tracker.update([&](int k) { return held.count(k) > 0; }, mods, captured);
  }
};

const Hotkey* find(Action a) {
  for (const Hotkey& h : hotkeys())
    if (h.action == a) return &h;
  return nullptr;
}

}  // namespace

TEST(Hotkeys, EveryActionHasKeysAndNoChordIsShared) {
  std::set<std::pair<int, int>> chords;
  for (int a = 0; a <= static_cast<int>(Action::ScaleDown); ++a) {
    // Scene keys exist for the registered scenes (registry/scene_registry.h) only.
    const int scene_key = a - static_cast<int>(Action::Scene1) + 1;
    if (scene_key >= 1 && scene_key <= 9 && !scene_by_hotkey(scene_key)) {
      EXPECT_EQ(find(static_cast<Action>(a)), nullptr) << "key " << scene_key << " has no scene";
      continue;
    }
    const Hotkey* h = find(static_cast<Action>(a));
    ASSERT_NE(h, nullptr) << "action " << a << " has no key";
    EXPECT_FALSE(h->chords.empty());
    EXPECT_TRUE(h->keys && *h->keys);
    EXPECT_TRUE(h->what && *h->what);
    for (const KeyChord& c : h->chords)
      EXPECT_TRUE(chords.insert({c.key, c.mods}).second) << h->keys << " shares a chord";
  }
}

TEST(Hotkeys, TheClassroomKeysAreThere) {
  auto has = [](Action a, int key, int mods = 0) {
    for (const KeyChord& c : find(a)->chords)
      if (c.key == key && c.mods == mods) return true;
    return false;
  };
  EXPECT_TRUE(has(Action::Pause, GLFW_KEY_SPACE));
  EXPECT_TRUE(has(Action::Step, GLFW_KEY_S));
  EXPECT_TRUE(has(Action::Reset, GLFW_KEY_R));
  EXPECT_TRUE(has(Action::Screenshot, GLFW_KEY_P));
  EXPECT_TRUE(has(Action::Scene1, GLFW_KEY_1));
  EXPECT_TRUE(has(Action::Scene4, GLFW_KEY_4));
  EXPECT_TRUE(has(Action::Fullscreen, GLFW_KEY_F11));
  EXPECT_TRUE(has(Action::HidePanels, GLFW_KEY_TAB));
  EXPECT_TRUE(has(Action::HidePanels, GLFW_KEY_H));
  EXPECT_TRUE(has(Action::Help, GLFW_KEY_F1));
  EXPECT_TRUE(has(Action::Help, GLFW_KEY_SLASH, GLFW_MOD_SHIFT));  // '?'
}

TEST(Hotkeys, FiresOncePerPress) {
  FakeKeyboard kb;
  EXPECT_TRUE(kb.frame().empty());
  kb.held = {GLFW_KEY_SPACE};
  EXPECT_EQ(kb.frame(), std::vector<Action>{Action::Pause});
  EXPECT_TRUE(kb.frame().empty()) << "held, not pressed again";
  kb.held.clear();
  kb.frame();
  kb.held = {GLFW_KEY_SPACE};
  EXPECT_EQ(kb.frame(), std::vector<Action>{Action::Pause});
}

TEST(Hotkeys, ModifiersMustMatch) {
  FakeKeyboard kb;
  kb.held = {GLFW_KEY_SLASH};
  EXPECT_TRUE(kb.frame().empty()) << "'/' alone is not '?'";
  kb.held.clear();
  kb.frame();
  kb.mods = GLFW_MOD_SHIFT;
  kb.held = {GLFW_KEY_SLASH};
  EXPECT_EQ(kb.frame(), std::vector<Action>{Action::Help});
  kb.held = {GLFW_KEY_SLASH, GLFW_KEY_S};
  EXPECT_TRUE(kb.frame().empty()) << "shift+S is not S";
  kb.held.clear();
  kb.frame();
  kb.mods = GLFW_MOD_SHIFT | 0x10;  // caps lock does not count
  kb.held = {GLFW_KEY_EQUAL};
  EXPECT_EQ(kb.frame(), std::vector<Action>{Action::ScaleUp}) << "'+' is shift+'='";
}

TEST(Hotkeys, NothingFiresWhileTypingNorAfterwards) {
  FakeKeyboard kb;
  kb.held = {GLFW_KEY_R};
  EXPECT_TRUE(kb.frame(/*captured=*/true).empty());
  EXPECT_TRUE(kb.frame(false).empty()) << "the key went down while typing";
  kb.held = {GLFW_KEY_1, GLFW_KEY_TAB};
  const auto a = kb.frame();
  EXPECT_EQ(a.size(), 2u);
}

TEST(Hotkeys, ActionsChangeTheState) {
  UiState ui;
  Presentation p;
  apply_action(Action::Pause, ui, p);
  EXPECT_TRUE(ui.settings.paused);
  apply_action(Action::Pause, ui, p);
  EXPECT_FALSE(ui.settings.paused);
  apply_action(Action::Step, ui, p);
  EXPECT_TRUE(ui.requests.step_once);
  apply_action(Action::Reset, ui, p);
  EXPECT_TRUE(ui.requests.reset);
  apply_action(Action::Screenshot, ui, p);
  EXPECT_TRUE(ui.requests.screenshot);
  apply_action(Action::Scene3, ui, p);
  EXPECT_EQ(ui.requests.scene, *parse_scene("nbody"));
  apply_action(Action::Scene1, ui, p);
  EXPECT_EQ(ui.requests.scene, *parse_scene("fountain"));
  apply_action(Action::HidePanels, ui, p);
  EXPECT_TRUE(p.panels_hidden);
  apply_action(Action::Help, ui, p);
  EXPECT_TRUE(p.show_help);
  apply_action(Action::HighContrast, ui, p);
  EXPECT_TRUE(p.high_contrast);
  apply_action(Action::Fullscreen, ui, p);
  EXPECT_TRUE(p.fullscreen_requested);
  apply_action(Action::Fullscreen, ui, p);
  EXPECT_FALSE(p.fullscreen_requested);
}

TEST(Hotkeys, ScaleStaysWithinItsRange) {
  UiState ui;
  Presentation p;
  apply_action(Action::ScaleDown, ui, p);
  EXPECT_FLOAT_EQ(p.ui_scale, 1.f);
  for (int i = 0; i < 20; ++i) apply_action(Action::ScaleUp, ui, p);
  EXPECT_FLOAT_EQ(p.ui_scale, 4.f);
  apply_action(Action::ScaleDown, ui, p);
  EXPECT_FLOAT_EQ(p.ui_scale, 3.75f);
  p.set_ui_scale(std::nanf(""));
  EXPECT_FLOAT_EQ(p.ui_scale, 3.75f);
}

TEST(TimingCsv, ColumnsAlignAtTheNewestValue) {
  History fps(4), ms(4);
  for (float v : {10.f, 20.f, 30.f, 40.f, 50.f}) fps.push(v);  // wrapped: 20 30 40 50
  ms.push(1.5f);
  ms.push(2.5f);
  const std::string csv = history_csv({{"fps", &fps}, {"kernel_ms", &ms}});
  EXPECT_EQ(csv,
            "frames_ago,fps,kernel_ms\n"
            "3,20,\n"
            "2,30,\n"
            "1,40,1.5\n"
            "0,50,2.5\n");
  History empty(4);
  EXPECT_EQ(history_csv({{"draw_ms", &empty}}), "frames_ago,draw_ms\n");
}

// Lessons: presenter remotes send PageDown/PageUp; the arrows do the same.
TEST(Hotkeys, PresenterKeysMoveLessonSteps) {
  FakeKeyboard kb;
  UiState ui;
  Presentation p;
  for (int key : {GLFW_KEY_PAGE_DOWN, GLFW_KEY_RIGHT, GLFW_KEY_PAGE_UP, GLFW_KEY_LEFT}) {
    kb.held = {key};
    const auto fired = kb.frame();
    ASSERT_EQ(fired.size(), 1u) << key;
    const bool next = key == GLFW_KEY_PAGE_DOWN || key == GLFW_KEY_RIGHT;
    EXPECT_EQ(fired[0], next ? Action::LessonNext : Action::LessonBack);
    apply_action(fired[0], ui, p);
    kb.held.clear();
    kb.frame();
  }
  EXPECT_EQ(ui.requests.lesson_move, 0);  // two forward, two back
  kb.held = {GLFW_KEY_PAGE_DOWN};
  EXPECT_TRUE(kb.frame(true).empty());  // typing a prediction: the keys stay in the field
}
