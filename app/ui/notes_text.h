#pragma once
// "What to notice": a short text per scene and per lab, shown in a collapsible
// section of its panel. A scene's lives in its registry entry (SceneDescriptor::
// notice, scenes/<scene>_scene_entry.cpp); the labs' live in notes_text.cpp.
#include <string>

#include "registry/scene_registry.h"

namespace cv::notes {

const char* scene_notice(SceneKind kind);
// For a lab name (LabPanel::lab_names()); "" for a name without a text.
const char* lab_notice(const std::string& lab);

// Draws a collapsed-by-default "what to notice" header with `text` wrapped
// under it (nothing when text is empty). Needs an ImGui frame.
void draw_notice(const char* text, const char* id);

}  // namespace cv::notes
