#include "usercode/emu/warp_ops.h"

namespace cv::emu {

unsigned shuffle_source(int op, unsigned lane, int arg, int width) {
  if (width <= 0 || width > 32 || (width & (width - 1)) != 0) width = 32;
  const unsigned w = static_cast<unsigned>(width);
  const unsigned base = lane & ~(w - 1), in_seg = lane & (w - 1);
  switch (op) {
    case cv_emu::kShfl:
      return base + (static_cast<unsigned>(arg) & (w - 1));
    case cv_emu::kShflUp:
      return arg < 0 || in_seg < static_cast<unsigned>(arg) ? lane : lane - static_cast<unsigned>(arg);
    case cv_emu::kShflDown:
      return arg < 0 || in_seg + static_cast<unsigned>(arg) >= w ? lane : lane + static_cast<unsigned>(arg);
    case cv_emu::kShflXor: {
      const unsigned src = lane ^ (static_cast<unsigned>(arg) & 31u);
      // A later segment is out of reach (own value); an earlier one is readable.
      return src >= base + w ? lane : src;
    }
    default:
      return lane;
  }
}

void complete_collective(cv_emu::LaneSlot* slots, unsigned group) {
  unsigned votes = 0;
  for (unsigned l = 0; l < 32; ++l)
    if ((group >> l & 1u) && slots[l].value != 0) votes |= 1u << l;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(group >> l & 1u)) continue;
    cv_emu::LaneSlot& s = slots[l];
    switch (s.op) {
      case cv_emu::kShfl:
      case cv_emu::kShflUp:
      case cv_emu::kShflDown:
      case cv_emu::kShflXor: {
        const unsigned src = shuffle_source(s.op, l, s.arg, s.width);
        // A source lane outside the group: undefined on the GPU; its own value here.
        s.result = (src < 32 && (group >> src & 1u)) ? slots[src].value : s.value;
        break;
      }
      case cv_emu::kBallot:
        s.result = votes;
        break;
      case cv_emu::kAny:
        s.result = (votes & group) != 0;
        break;
      case cv_emu::kAll:
        s.result = (votes & group) == group;
        break;
      case cv_emu::kActiveMask:
        s.result = group;
        break;
      default:
        s.result = 0;
        break;
    }
  }
}

}  // namespace cv::emu
