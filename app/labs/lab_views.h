#pragma once
// A lab's pictures in the labs window: what its text cannot say (sum3's thread
// grid, the document's table). The bench target says what the lab is
// (bench::LabInfo: notice, notes, actions); these draw with ImGui, so they
// live one layer up, in labs/<lab>_views.cpp, each registered once by the
// lab's name with a ViewsRegistrar. The panel (ui/lab_panel) looks them up
// and knows no lab by name; a test checks that each names a lab.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"

namespace cv::labs {

// The window's fields the pictures follow.
struct PictureFields {
  std::optional<long long> n;       // nullopt: the lab's default
  std::optional<BlockShape> block;  // nullopt: the variants' own
};

struct Views {
  std::string pictures_title;                          // the collapsing header over `pictures`
  std::function<void(const PictureFields&)> pictures;  // under the results
  // Above the results table when they came from `action` (bench::LabAction):
  // sum3's document table, n down and variants across.
  std::function<void(const std::string& action, const std::vector<nlohmann::ordered_json>& rows)>
      action_results;
};

struct ViewsRegistrar {
  ViewsRegistrar(const std::string& lab, Views views);
};
// The lab's views, nullptr for a lab without pictures.
const Views* find_views(const std::string& lab);
// Every lab with views (for the test that each is a lab).
std::vector<std::string> labs_with_views();

}  // namespace cv::labs
