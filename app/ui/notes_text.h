#pragma once
// "What to notice": a short text per scene and per lab, shown in a collapsible
// section of its panel. A scene's lives in its registry entry
// (SceneDescriptor::notice, scenes/<scene>_scene_entry.cpp); a lab's is in its
// bench file (bench::LabInfo::notice).
#include <string>

#include "registry/scene_registry.h"

namespace cv::notes {

const char* scene_notice(SceneKind kind);

// Draws a collapsed-by-default "what to notice" header with `text` wrapped
// under it (nothing when text is empty). Needs an ImGui frame.
void draw_notice(const char* text, const char* id);

}  // namespace cv::notes
