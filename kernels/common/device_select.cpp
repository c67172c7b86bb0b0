#include "device_select.h"

#include <cuda_runtime_api.h>

#include <atomic>

namespace cv {
namespace {

// Process-wide by nature (one process, one compute device), hence function statics.
std::atomic<int>& selected() {
  static std::atomic<int> ordinal{0};
  return ordinal;
}
std::atomic<bool>& by_user() {
  static std::atomic<bool> chosen{false};
  return chosen;
}

}  // namespace

void select_device(int ordinal) {
  selected() = ordinal;
  if (cudaSetDevice(ordinal) != cudaSuccess) cudaGetLastError();
}

int selected_device() {
  return selected();
}

bool device_chosen_by_user() {
  return by_user();
}
void set_device_chosen_by_user(bool chosen) {
  by_user() = chosen;
}

void bind_selected_device() {
  const int d = selected();
  if (d != 0 && cudaSetDevice(d) != cudaSuccess) cudaGetLastError();
}

}  // namespace cv
