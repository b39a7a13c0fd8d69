// The CUDA device: a shardlab::Device on one NVIDIA GPU. GEMM is cuBLAS in true fp32
// (no TF32), the rest are our kernels (one .cu file each, Kernels.h). All work is
// enqueued on one compute stream the device owns; copies to and from the host and
// softmaxCrossEntropy (which returns the loss) wait for that stream, the rest return
// at once. One CudaDevice per process: the constructor makes its GPU current on the
// calling thread, and every call must come from that thread.
//
// This header includes no CUDA header, so code built without CUDA can include it;
// cudaStream_t is `CUstream_st*` and cublasHandle_t is `cublasContext*`, declared
// here. Link shardlab_cuda (it exists only when CMake found CUDA; it defines
// SHARDLAB_HAVE_CUDA=1 for its users).
#pragma once

#include "core/Device.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

struct CUstream_st;   // cudaStream_t  == CUstream_st*
struct cublasContext; // cublasHandle_t == cublasContext*

namespace shardlab {

// How many CUDA devices this process sees (CUDA_VISIBLE_DEVICES applies). Never
// throws: 0 when there is no driver, no device, or any error; then `whyNone` (when
// given) says why, e.g. "CUDA driver version is insufficient for CUDA runtime version".
// Also 0 when a visible GPU is older than compute capability 8.0 (kMinComputeMajor):
// the build has no machine code for it (cmake/Cuda.cmake), so `--device auto` picks
// the CPU instead of failing at the first kernel launch.
constexpr int kMinComputeMajor = 8;
int cudaDeviceCount(std::string* whyNone = nullptr) noexcept;

// What the trace records about a GPU (run metadata). Throws std::runtime_error
// when the device cannot be queried.
struct CudaDeviceInfo {
  int index = 0;
  std::string name;                // "NVIDIA H200"
  int computeMajor = 0, computeMinor = 0;
  std::string pciBusId;            // "0000:19:00.0"
  std::size_t freeBytes = 0;       // cudaMemGetInfo at the time of the call
  std::size_t totalBytes = 0;
  int driverVersion = 0;           // 13000 = 13.0 (cudaDriverGetVersion)
  int runtimeVersion = 0;          // cudaRuntimeGetVersion
  int multiProcessors = 0;
  std::string toString() const;    // "NVIDIA H200 (sm_90, 139.8 GiB, driver 13.0, runtime 13.0)"
};
CudaDeviceInfo cudaDeviceInfo(int deviceIndex);

class CudaDevice final : public Device {
public:
  explicit CudaDevice(int deviceIndex); // throws std::runtime_error when the GPU cannot be used
  ~CudaDevice() override;
  CudaDevice(const CudaDevice&) = delete;
  CudaDevice& operator=(const CudaDevice&) = delete;

  std::string kind() const override { return "cuda"; }
  std::string name() const override { return name_; }

  void* allocate(std::size_t bytes) override; // std::bad_alloc when the GPU is out of memory
  void release(void* p) override;
  void copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) override;
  void copyToHost(void* hostDst, const void* src, std::size_t bytes) override;
  void copy(void* dst, const void* src, std::size_t bytes) override;
  void zero(void* p, std::size_t bytes) override;
  void synchronize() override;

  void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda, const float* B,
            int ldb, float beta, float* C, int ldc) override;
  void gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
                          std::int64_t strideA, const float* B, int ldb, std::int64_t strideB, float beta, float* C,
                          int ldc, std::int64_t strideC, int batch) override;
  void causalSoftmaxForward(const float* scores, float* probs, int matrices, int S) override;
  void causalSoftmaxBackward(const float* probs, const float* dprobs, float* dscores, int matrices, int S) override;
  void layerNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                        int rows, int cols) override;
  void layerNormBackward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                         float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate) override;
  void addBias(float* y, const float* bias, int rows, int cols) override;
  void biasGrad(const float* dy, float* dbias, int rows, int cols, bool accumulate) override;
  void add(float* y, const float* x, std::size_t n) override;
  void geluForward(const float* x, float* y, std::size_t n) override;
  void geluBackward(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate) override;
  void embeddingForward(const std::int32_t* tokens, const float* table, float* out, int n, int width) override;
  void embeddingBackward(const std::int32_t* tokens, const float* dout, float* dtable, int n, int width) override;
  double softmaxCrossEntropy(const float* logits, const std::int32_t* targets, float* dlogits, int rows, int vocab,
                             float gradScale) override;
  void adamw(float* param, const float* grad, float* m, float* v, std::size_t n, const AdamWParams& p,
             int step) override;
  void scale(float* x, float s, std::size_t n) override;

  int deviceIndex() const { return index_; }
  // The stream all of this device's work runs on (a cudaStream_t). Communication on
  // another stream must order itself against it with events.
  CUstream_st* computeStream() const { return stream_; }
  cublasContext* cublasHandle() const { return cublas_; }

private:
  float* rowLossScratch(int rows); // device buffer for softmaxCrossEntropy's per-row losses

  int index_ = 0;
  std::string name_;
  CUstream_st* stream_ = nullptr;
  cublasContext* cublas_ = nullptr;
  float* rowLoss_ = nullptr;
  int rowLossCapacity_ = 0;
  bool streamOrderedAlloc_ = true; // cudaMallocAsync from the default pool; false: cudaMalloc
};

// Creates the device for GPU `deviceIndex` (0-based, among the visible ones).
// Throws std::runtime_error (with the reason) when it cannot.
std::unique_ptr<Device> makeCudaDevice(int deviceIndex);

} // namespace shardlab
