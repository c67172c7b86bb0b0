#pragma once
// Vertex targets without GL, for tests of what simulations write through the
// VertexTarget interface: HostMemoryTarget keeps what put() handed over (as
// the CPU backend's HostTarget uploads it), DeviceMemoryTarget is plain CUDA
// memory, one buffer or a ping-pong pair (as InteropTarget hands it out).
#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "gl/vertex_target.h"

namespace cv::test {

class HostMemoryTarget final : public VertexTarget {
 public:
  explicit HostMemoryTarget(size_t bytes) : data_(bytes) {}
  size_t bytes() const override { return data_.size(); }
  TransferMode mode() const override { return TransferMode::HostUpload; }
  bool double_buffered() const override { return false; }
  GLuint vbo() const override { return 0; }
  const std::vector<unsigned char>& data() const { return data_; }
  int closes = 0, uploads = 0;

 protected:
  Opened open(cudaStream_t, bool) override { return {}; }
  void close(cudaStream_t, const void* host, size_t bytes) override {
    ++closes;
    if (!host) return;
    ++uploads;
    std::memcpy(data_.data(), host, bytes);
  }

 private:
  std::vector<unsigned char> data_;
};

class DeviceMemoryTarget final : public VertexTarget {
 public:
  DeviceMemoryTarget(size_t bytes, bool pair) : bytes_(bytes), pair_(pair) {
    buf_[0] = DeviceBuffer<unsigned char>(bytes);
    if (pair) buf_[1] = DeviceBuffer<unsigned char>(bytes);
  }
  size_t bytes() const override { return bytes_; }
  TransferMode mode() const override { return TransferMode::External; }
  bool double_buffered() const override { return pair_; }
  GLuint vbo() const override { return 0; }
  // The front buffer's contents (waits for `s`).
  std::vector<unsigned char> download(cudaStream_t s) const {
    std::vector<unsigned char> out(bytes_);
    CV_CUDA(cudaStreamSynchronize(s));
    CV_CUDA(cudaMemcpy(out.data(), buf_[front_].get(), bytes_, cudaMemcpyDeviceToHost));
    return out;
  }

 protected:
  Opened open(cudaStream_t, bool read_only) override {
    writing_ = !read_only;
    const int back = pair_ && !read_only ? 1 - front_ : front_;
    return {buf_[back].get(), buf_[front_].get()};
  }
  void close(cudaStream_t, const void*, size_t) override {
    if (pair_ && writing_) front_ = 1 - front_;
  }

 private:
  size_t bytes_;
  bool pair_;
  bool writing_ = false;
  int front_ = 0;
  DeviceBuffer<unsigned char> buf_[2];
};

// The target's contents as float4s.
inline std::vector<float4> as_float4(const std::vector<unsigned char>& bytes) {
  std::vector<float4> v(bytes.size() / sizeof(float4));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float4));
  return v;
}

}  // namespace cv::test
