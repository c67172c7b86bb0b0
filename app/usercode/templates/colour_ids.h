#pragma once
// The cv::Ids argument every particle scene's kernel receives: the scene's
// colour-by buffer (shared, n ids while a colour-by view is on, else empty),
// then the view's mode, so record_launch_id() in the student's kernel feeds
// the launch map and the colour-by views.
#include "usercode/templates/template_spec.h"

namespace cv::usercode {

SpanSpec colour_ids_span();

}  // namespace cv::usercode
