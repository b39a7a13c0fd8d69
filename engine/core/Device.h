// Where a rank computes. The model and the strategies call only this interface, so
// the same training code runs on a CPU rank (CpuDevice: OpenBLAS) and on a GPU rank
// (CudaDevice: cuBLAS and our kernels, engine/cuda/). Every pointer passed in is
// memory this device allocated. Matrices are row-major.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace shardlab {

// LayerNorm's epsilon, as in GPT-2 (and PyTorch's default).
constexpr float kLayerNormEps = 1e-5f;

struct AdamWParams {
  float lr = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weightDecay = 0.0f;
};

class Device {
public:
  virtual ~Device() = default;

  virtual std::string kind() const = 0; // "cpu" or "cuda"
  virtual std::string name() const = 0; // "CPU rank (OpenBLAS)", "NVIDIA H200"

  virtual void* allocate(std::size_t bytes) = 0; // throws std::bad_alloc when it cannot
  virtual void release(void* p) = 0;
  virtual void copyToDevice(void* dst, const void* hostSrc, std::size_t bytes) = 0;
  virtual void copyToHost(void* hostDst, const void* src, std::size_t bytes) = 0;
  virtual void copy(void* dst, const void* src, std::size_t bytes) = 0;
  virtual void zero(void* p, std::size_t bytes) = 0;
  virtual void synchronize() = 0;

  // C = alpha * op(A) * op(B) + beta * C, with op(A) M x K, op(B) K x N, C M x N.
  virtual void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
                    const float* B, int ldb, float beta, float* C, int ldc) = 0;
  // `batch` GEMMs at fixed strides (cuBLAS's strided-batched GEMM): for i in [0, batch),
  // C + i*strideC = alpha * op(A + i*strideA) * op(B + i*strideB) + beta * (C + i*strideC).
  // The GPT's attention: per sequence, one matrix per head (QK^T, PV and their gradients).
  virtual void gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
                                  std::int64_t strideA, const float* B, int ldb, std::int64_t strideB, float beta,
                                  float* C, int ldc, std::int64_t strideC, int batch) = 0;
  // Causal softmax over `matrices` contiguous S x S score matrices: row i of each is
  // the softmax of its columns 0..i (a position sees itself and the ones before); the
  // columns past i are 0.
  virtual void causalSoftmaxForward(const float* scores, float* probs, int matrices, int S) = 0;
  // Its backward: dscores[i, j] = probs[i, j] * (dprobs[i, j] - sum_k probs[i, k] dprobs[i, k])
  // for j <= i, 0 above the diagonal. dscores may be dprobs.
  virtual void causalSoftmaxBackward(const float* probs, const float* dprobs, float* dscores, int matrices, int S) = 0;
  // LayerNorm over each row of x (rows x cols, eps kLayerNormEps, biased variance):
  // y = (x - mean) * rstd * gamma + beta; writes each row's mean and rstd = 1/sqrt(var + eps).
  virtual void layerNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                float* rstd, int rows, int cols) = 0;
  // Its backward from the saved mean and rstd: dx (+)= the input gradient; dgamma and
  // dbeta are accumulated (+=).
  virtual void layerNormBackward(const float* x, const float* gamma, const float* mean, const float* rstd,
                                 const float* dy, float* dx, float* dgamma, float* dbeta, int rows, int cols,
                                 bool accumulate) = 0;
  // y[r, c] += bias[c]
  virtual void addBias(float* y, const float* bias, int rows, int cols) = 0;
  // dbias[c] (+)= sum over r of dy[r, c]
  virtual void biasGrad(const float* dy, float* dbias, int rows, int cols, bool accumulate) = 0;
  // y += x
  virtual void add(float* y, const float* x, std::size_t n) = 0;
  // tanh-approximated GELU, as in GPT-2.
  virtual void geluForward(const float* x, float* y, std::size_t n) = 0;
  // dx (+)= gelu'(x) * dy
  virtual void geluBackward(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate) = 0;
  // out[i, :] = table[tokens[i], :]
  virtual void embeddingForward(const std::int32_t* tokens, const float* table, float* out, int n, int width) = 0;
  // dtable[tokens[i], :] += dout[i, :]
  virtual void embeddingBackward(const std::int32_t* tokens, const float* dout, float* dtable, int n, int width) = 0;
  // Softmax cross-entropy over rows of logits (rows x vocab). Writes
  // dlogits = gradScale * (softmax - onehot) and returns the summed loss (not scaled).
  virtual double softmaxCrossEntropy(const float* logits, const std::int32_t* targets, float* dlogits, int rows,
                                     int vocab, float gradScale) = 0;
  // One AdamW step (bias-corrected, decoupled weight decay); `step` counts from 1.
  virtual void adamw(float* param, const float* grad, float* m, float* v, std::size_t n, const AdamWParams& p,
                     int step) = 0;
  // x *= s
  virtual void scale(float* x, float s, std::size_t n) = 0;
};

// The CPU device: OpenBLAS for GEMM with `blasThreads` threads (Tuning::blasThreads:
// one, since the ranks already fill the cores, unless SHARDLAB_BLAS_THREADS says more).
std::unique_ptr<Device> makeCpuDevice(int blasThreads = 1);

} // namespace shardlab
