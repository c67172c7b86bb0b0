#pragma once
// The CUDA device this process computes on: --device N, else the device that
// drives the GL context, else 0 (ordinals as CUDA_VISIBLE_DEVICES leaves them).
// The runtime's current device is per host thread, so every thread that calls
// CUDA binds it first (bind_selected_device); the main thread is bound by
// select_device.
namespace cv {

// Records `ordinal` for the process and makes it current on the calling thread
// (cudaSetDevice; its error, if any, surfaces when the device is queried).
void select_device(int ordinal);

// The recorded device (0 until one is selected).
int selected_device();

// Whether select_device came from the user (--device), so the GL context's
// device does not override it.
bool device_chosen_by_user();
void set_device_chosen_by_user(bool chosen);

// cudaSetDevice(selected_device()) on the calling thread; a no-op for device 0
// (the runtime's default), so threads on machines without a driver pay nothing.
void bind_selected_device();

}  // namespace cv
