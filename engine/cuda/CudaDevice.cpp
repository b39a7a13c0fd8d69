// CudaDevice: memory, copies and cuBLAS GEMM here; the elementwise and reduction
// kernels live in their own .cu files (Kernels.h).
#include "cuda/CudaDevice.h"

#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <vector>

namespace shardlab {

int cudaDeviceCount(std::string* whyNone) noexcept {
  try {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      (void)cudaGetLastError(); // clear the sticky-free error so later calls start clean
      if (whyNone) *whyNone = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
      return 0;
    }
    if (count <= 0) {
      if (whyNone) *whyNone = "the CUDA driver reports no device";
      return 0;
    }
    for (int d = 0; d < count; ++d) {
      int major = 0, minor = 0;
      if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess ||
          cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess) {
        (void)cudaGetLastError();
        if (whyNone) *whyNone = "cannot read the compute capability of GPU " + std::to_string(d);
        return 0;
      }
      if (major < kMinComputeMajor) {
        if (whyNone) {
          *whyNone = "GPU " + std::to_string(d) + " has compute capability " + std::to_string(major) + "." +
                     std::to_string(minor) + "; ShardLab's CUDA backend needs " + std::to_string(kMinComputeMajor) +
                     ".0 or newer";
        }
        return 0;
      }
    }
    return count;
  } catch (...) { // std::string allocation; never let anything out
    return 0;
  }
}

std::string CudaDeviceInfo::toString() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB, driver %d.%d, runtime %d.%d)", name.c_str(), computeMajor,
                computeMinor, static_cast<double>(totalBytes) / (1024.0 * 1024.0 * 1024.0), driverVersion / 1000,
                (driverVersion % 1000) / 10, runtimeVersion / 1000, (runtimeVersion % 1000) / 10);
  return buf;
}

CudaDeviceInfo cudaDeviceInfo(int deviceIndex) {
  CudaDeviceInfo info;
  info.index = deviceIndex;
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, deviceIndex));
  info.name = prop.name;
  info.computeMajor = prop.major;
  info.computeMinor = prop.minor;
  info.multiProcessors = prop.multiProcessorCount;
  char bus[32] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, deviceIndex));
  info.pciBusId = bus;
  CUDA_CHECK(cudaDriverGetVersion(&info.driverVersion));
  CUDA_CHECK(cudaRuntimeGetVersion(&info.runtimeVersion));

  // cudaMemGetInfo answers for the current device: switch for the call, then back.
  int previous = 0;
  CUDA_CHECK(cudaGetDevice(&previous));
  CUDA_CHECK(cudaSetDevice(deviceIndex));
  const cudaError_t memErr = cudaMemGetInfo(&info.freeBytes, &info.totalBytes);
  CUDA_CHECK(cudaSetDevice(previous));
  CUDA_CHECK(memErr);
  return info;
}

// ---------------------------------------------------------------------------------
// construction

CudaDevice::CudaDevice(int deviceIndex) : index_(deviceIndex) {
  std::string why;
  const int count = cudaDeviceCount(&why);
  if (count == 0) throw std::runtime_error("no CUDA device: " + why);
  if (deviceIndex < 0 || deviceIndex >= count) {
    throw std::runtime_error("CUDA device " + std::to_string(deviceIndex) + " does not exist (" +
                             std::to_string(count) + " visible)");
  }
  CUDA_CHECK(cudaSetDevice(deviceIndex));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, deviceIndex));
  name_ = prop.name;

  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  stream_ = stream;

  // The default memory pool behind cudaMallocAsync keeps what it has mapped: its
  // release threshold is 0 by default, so every synchronize (several a step) would
  // hand the step's memory back and map it again the next step. Without memory pools
  // (some vGPU and old drivers) allocation falls back to cudaMalloc/cudaFree.
  int pools = 0;
  if (cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, deviceIndex) != cudaSuccess) {
    (void)cudaGetLastError();
    pools = 0;
  }
  streamOrderedAlloc_ = pools != 0;
  if (streamOrderedAlloc_) {
    cudaMemPool_t pool = nullptr;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, deviceIndex));
    std::uint64_t keepAll = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keepAll));
  }

  cublasHandle_t handle = nullptr;
  try {
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, stream_));
    // True fp32: the default math mode never uses TF32 tensor cores, so results
    // match the CPU device within 1e-5 relative. Do not switch to CUBLAS_TF32_TENSOR_OP_MATH.
    CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  } catch (...) {
    if (handle) cublasDestroy(handle);
    cudaStreamDestroy(stream_);
    throw;
  }
  cublas_ = handle;
}

CudaDevice::~CudaDevice() {
  // No throwing from a destructor: errors here are ignored.
  cudaSetDevice(index_);
  if (rowLoss_) {
    if (streamOrderedAlloc_) cudaFreeAsync(rowLoss_, stream_);
    else cudaFree(rowLoss_);
  }
  if (stream_) cudaStreamSynchronize(stream_);
  if (cublas_) cublasDestroy(cublas_);
  if (stream_) cudaStreamDestroy(stream_);
}

// ---------------------------------------------------------------------------------
// memory

// Stream-ordered: allocations and frees are operations on the compute stream
// (cudaMallocAsync / cudaFreeAsync, the device's default memory pool). A buffer freed
// by the compute stream is reused only by work ordered after the free, so freeing
// never races a kernel still reading it. Communication on another stream is ordered
// the same way: the strategies free a buffer only after CommStream::wait (the compute
// stream then waits for the operation's end event) or once done() said it finished.
// (cudaFree would instead synchronise the whole device at every free.)
void* CudaDevice::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t err = streamOrderedAlloc_ ? cudaMallocAsync(&p, bytes, stream_) : cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // an allocation failure is not sticky: clear it
    throw std::bad_alloc();
  }
  CUDA_CHECK(err);
  return p;
}

void CudaDevice::release(void* p) {
  if (p == nullptr) return;
  if (!streamOrderedAlloc_) {
    CUDA_CHECK(cudaFree(p)); // synchronises the device: the fallback without memory pools
    return;
  }
  CUDA_CHECK(cudaFreeAsync(p, stream_)); // after every compute-stream operation issued so far
}

void CudaDevice::copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) {
  if (bytes == 0) return;
  CUDA_CHECK(cudaMemcpyAsync(dst, hostSrc, bytes, cudaMemcpyHostToDevice, stream_));
  // The host buffer may be reused as soon as we return: wait for the copy.
  CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void CudaDevice::copyToHost(void* hostDst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  CUDA_CHECK(cudaMemcpyAsync(hostDst, src, bytes, cudaMemcpyDeviceToHost, stream_));
  CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void CudaDevice::copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_));
}

void CudaDevice::zero(void* p, std::size_t bytes) {
  if (bytes == 0) return;
  CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream_));
}

void CudaDevice::synchronize() { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

// ---------------------------------------------------------------------------------
// GEMM: row-major C = alpha op(A) op(B) + beta C through column-major cuBLAS.
//
// A row-major matrix with leading dimension ld is, read column-major, its transpose
// with the same ld. So the row-major C (M x N) is the column-major C^T (N x M), and
//   C^T = op(B)^T op(A)^T
// is one column-major GEMM with the operands swapped: m = N, n = M, B first, A second,
// each keeping its own transpose flag. No data moves.

void CudaDevice::gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
                      const float* B, int ldb, float beta, float* C, int ldc) {
  if (M < 0 || N < 0 || K < 0) throw std::invalid_argument("gemm: negative dimension");
  if (M == 0 || N == 0) return; // (K == 0 is C = beta C, which cuBLAS does)
  const cublasOperation_t opB = transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t opA = transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  CUBLAS_CHECK(cublasSgemm(cublas_, opB, opA, N, M, K, &alpha, B, ldb, A, lda, &beta, C, ldc));
}

// The same swap for every matrix of the batch: each operand keeps its own stride.
void CudaDevice::gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha, const float* A,
                                    int lda, std::int64_t strideA, const float* B, int ldb, std::int64_t strideB,
                                    float beta, float* C, int ldc, std::int64_t strideC, int batch) {
  if (M < 0 || N < 0 || K < 0 || batch < 0) throw std::invalid_argument("gemmStridedBatched: negative dimension");
  if (M == 0 || N == 0 || batch == 0) return;
  const cublasOperation_t opB = transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t opA = transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  CUBLAS_CHECK(cublasSgemmStridedBatched(cublas_, opB, opA, N, M, K, &alpha, B, ldb, strideB, A, lda, strideA, &beta,
                                         C, ldc, strideC, batch));
}

// ---------------------------------------------------------------------------------
// kernels (Kernels.h)

void CudaDevice::causalSoftmaxForward(const float* scores, float* probs, int matrices, int S) {
  cuda::causalSoftmaxForward(scores, probs, matrices, S, stream_);
}

void CudaDevice::causalSoftmaxBackward(const float* probs, const float* dprobs, float* dscores, int matrices, int S) {
  cuda::causalSoftmaxBackward(probs, dprobs, dscores, matrices, S, stream_);
}

void CudaDevice::layerNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                  float* rstd, int rows, int cols) {
  cuda::layerNormForward(x, gamma, beta, y, mean, rstd, rows, cols, kLayerNormEps, stream_);
}

void CudaDevice::layerNormBackward(const float* x, const float* gamma, const float* mean, const float* rstd,
                                   const float* dy, float* dx, float* dgamma, float* dbeta, int rows, int cols,
                                   bool accumulate) {
  cuda::layerNormBackward(x, gamma, mean, rstd, dy, dx, dgamma, dbeta, rows, cols, accumulate, stream_);
}

void CudaDevice::addBias(float* y, const float* bias, int rows, int cols) {
  cuda::addBias(y, bias, rows, cols, stream_);
}

void CudaDevice::biasGrad(const float* dy, float* dbias, int rows, int cols, bool accumulate) {
  cuda::biasGrad(dy, dbias, rows, cols, accumulate, stream_);
}

void CudaDevice::add(float* y, const float* x, std::size_t n) { cuda::residualAdd(y, x, n, stream_); }

void CudaDevice::geluForward(const float* x, float* y, std::size_t n) { cuda::geluForward(x, y, n, stream_); }

void CudaDevice::geluBackward(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate) {
  cuda::geluBackward(x, dy, dx, n, accumulate, stream_);
}

void CudaDevice::embeddingForward(const std::int32_t* tokens, const float* table, float* out, int n, int width) {
  cuda::embeddingForward(tokens, table, out, n, width, stream_);
}

void CudaDevice::embeddingBackward(const std::int32_t* tokens, const float* dout, float* dtable, int n, int width) {
  cuda::embeddingBackward(tokens, dout, dtable, n, width, stream_);
}

float* CudaDevice::rowLossScratch(int rows) {
  // Grows only, through allocate/release: stream-ordered from the pool, so neither
  // the first call nor a growth synchronises the device (cudaMalloc/cudaFree would).
  if (rows > rowLossCapacity_) {
    if (rowLoss_) release(rowLoss_);
    rowLoss_ = nullptr;
    rowLossCapacity_ = 0;
    rowLoss_ = static_cast<float*>(allocate(static_cast<std::size_t>(rows) * sizeof(float)));
    rowLossCapacity_ = rows;
  }
  return rowLoss_;
}

double CudaDevice::softmaxCrossEntropy(const float* logits, const std::int32_t* targets, float* dlogits, int rows,
                                       int vocab, float gradScale) {
  if (rows <= 0 || vocab <= 0) return 0.0;
  float* rowLoss = rowLossScratch(rows);
  cuda::softmaxCrossEntropy(logits, targets, dlogits, rowLoss, rows, vocab, gradScale, stream_);
  // The loss goes back to the host: copy the per-row losses and sum them in double.
  std::vector<float> host(static_cast<std::size_t>(rows));
  CUDA_CHECK(cudaMemcpyAsync(host.data(), rowLoss, host.size() * sizeof(float), cudaMemcpyDeviceToHost, stream_));
  CUDA_CHECK(cudaStreamSynchronize(stream_));
  double total = 0.0;
  for (float l : host) total += static_cast<double>(l);
  return total;
}

void CudaDevice::adamw(float* param, const float* grad, float* m, float* v, std::size_t n, const AdamWParams& p,
                       int step) {
  if (step < 1) throw std::invalid_argument("adamw: step counts from 1, got " + std::to_string(step));
  // In float, as the CPU device computes them: 1 - beta^t amplifies any rounding
  // difference in beta^t by 1/(1 - beta^t), so both devices do it the same way.
  const float beta1Correction = 1.0f - std::pow(p.beta1, static_cast<float>(step));
  const float beta2Correction = 1.0f - std::pow(p.beta2, static_cast<float>(step));
  cuda::adamw(param, grad, m, v, n, p.lr, p.beta1, p.beta2, p.eps, p.weightDecay, beta1Correction, beta2Correction,
              stream_);
}

void CudaDevice::scale(float* x, float s, std::size_t n) { cuda::scale(x, s, n, stream_); }

std::unique_ptr<Device> makeCudaDevice(int deviceIndex) { return std::make_unique<CudaDevice>(deviceIndex); }

} // namespace shardlab
