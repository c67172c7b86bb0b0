#pragma once
// "What to notice": a short text per scene, shown in a collapsible section of
// its panel. The scenes' live in notes_text.cpp, so they can be read and edited
// together; a lab's is in its bench file (bench::LabInfo::notice).
#include <string>

#include "scenes/scene_factory.h"

namespace cv::notes {

const char* scene_notice(SceneKind kind);

// Draws a collapsed-by-default "what to notice" header with `text` wrapped
// under it (nothing when text is empty). Needs an ImGui frame.
void draw_notice(const char* text, const char* id);

}  // namespace cv::notes
