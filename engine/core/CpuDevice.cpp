// The CPU device: plain loops for the element-wise work, OpenBLAS for the GEMMs.
#include "core/Device.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

namespace shardlab {
namespace {

constexpr float kGeluScale = 0.7978845608028654f; // sqrt(2 / pi)

class CpuDevice final : public Device {
public:
  explicit CpuDevice(int blasThreads) { openblas_set_num_threads(std::max(1, blasThreads)); }

  std::string kind() const override { return "cpu"; }
  std::string name() const override { return "CPU rank (OpenBLAS)"; }

  void* allocate(std::size_t bytes) override {
    void* p = std::aligned_alloc(64, ((bytes + 63) / 64) * 64 + 64);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void release(void* p) override { std::free(p); }
  void copyToDevice(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copyToHost(void* dst, const void* src, std::size_t bytes) override { std::memcpy(dst, src, bytes); }
  void copy(void* dst, const void* src, std::size_t bytes) override { std::memmove(dst, src, bytes); }
  void zero(void* p, std::size_t bytes) override { std::memset(p, 0, bytes); }
  void synchronize() override {}

  void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda, const float* B,
            int ldb, float beta, float* C, int ldc) override {
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, M, N, K,
                alpha, A, lda, B, ldb, beta, C, ldc);
  }

  // OpenBLAS has no strided-batched sgemm of its own in every version we build with:
  // one sgemm per matrix (the matrices are small; the loop costs nothing beside them).
  void gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
                          std::int64_t strideA, const float* B, int ldb, std::int64_t strideB, float beta, float* C,
                          int ldc, std::int64_t strideC, int batch) override {
    for (int i = 0; i < batch; ++i)
      gemm(transA, transB, M, N, K, alpha, A + i * strideA, lda, B + i * strideB, ldb, beta, C + i * strideC, ldc);
  }

  void causalSoftmaxForward(const float* scores, float* probs, int matrices, int S) override {
    const auto n = static_cast<std::size_t>(S);
    for (std::size_t r = 0; r < static_cast<std::size_t>(matrices) * n; ++r) {
      const std::size_t i = r % n; // the row within its matrix: it sees columns 0..i
      const float* z = scores + r * n;
      float* p = probs + r * n;
      float maxv = z[0];
      for (std::size_t j = 1; j <= i; ++j) maxv = std::max(maxv, z[j]);
      double sum = 0.0;
      for (std::size_t j = 0; j <= i; ++j) sum += std::exp(static_cast<double>(z[j] - maxv));
      for (std::size_t j = 0; j <= i; ++j) p[j] = static_cast<float>(std::exp(static_cast<double>(z[j] - maxv)) / sum);
      for (std::size_t j = i + 1; j < n; ++j) p[j] = 0.0f;
    }
  }

  void causalSoftmaxBackward(const float* probs, const float* dprobs, float* dscores, int matrices, int S) override {
    const auto n = static_cast<std::size_t>(S);
    for (std::size_t r = 0; r < static_cast<std::size_t>(matrices) * n; ++r) {
      const std::size_t i = r % n;
      const float* p = probs + r * n;
      const float* dp = dprobs + r * n;
      float* ds = dscores + r * n;
      double dot = 0.0;
      for (std::size_t j = 0; j <= i; ++j) dot += static_cast<double>(p[j]) * dp[j];
      for (std::size_t j = 0; j <= i; ++j) ds[j] = p[j] * static_cast<float>(dp[j] - dot);
      for (std::size_t j = i + 1; j < n; ++j) ds[j] = 0.0f;
    }
  }

  void layerNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                        int rows, int cols) override {
    const auto C = static_cast<std::size_t>(cols);
    for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
      const float* xr = x + r * C;
      double sum = 0.0, sq = 0.0;
      for (std::size_t c = 0; c < C; ++c) sum += xr[c];
      const double mu = sum / static_cast<double>(C);
      for (std::size_t c = 0; c < C; ++c) sq += (xr[c] - mu) * (xr[c] - mu);
      const double rs = 1.0 / std::sqrt(sq / static_cast<double>(C) + kLayerNormEps);
      float* yr = y + r * C;
      for (std::size_t c = 0; c < C; ++c) yr[c] = static_cast<float>((xr[c] - mu) * rs) * gamma[c] + beta[c];
      mean[r] = static_cast<float>(mu);
      rstd[r] = static_cast<float>(rs);
    }
  }

  // dxhat = dy * gamma; dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)).
  void layerNormBackward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                         float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate) override {
    const auto C = static_cast<std::size_t>(cols);
    for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
      const float* xr = x + r * C;
      const float* g = dy + r * C;
      float* d = dx + r * C;
      const float mu = mean[r], rs = rstd[r];
      double meanD = 0.0, meanDX = 0.0;
      for (std::size_t c = 0; c < C; ++c) {
        const float xhat = (xr[c] - mu) * rs;
        const float dxhat = g[c] * gamma[c];
        meanD += dxhat;
        meanDX += static_cast<double>(dxhat) * xhat;
        dgamma[c] += g[c] * xhat;
        dbeta[c] += g[c];
      }
      meanD /= static_cast<double>(C);
      meanDX /= static_cast<double>(C);
      for (std::size_t c = 0; c < C; ++c) {
        const float xhat = (xr[c] - mu) * rs;
        const float v = rs * static_cast<float>(g[c] * gamma[c] - meanD - xhat * meanDX);
        d[c] = accumulate ? d[c] + v : v;
      }
    }
  }

  void addBias(float* y, const float* bias, int rows, int cols) override {
    for (int r = 0; r < rows; ++r) {
      float* row = y + static_cast<std::size_t>(r) * cols;
      for (int c = 0; c < cols; ++c) row[c] += bias[c];
    }
  }

  void biasGrad(const float* dy, float* dbias, int rows, int cols, bool accumulate) override {
    if (!accumulate) std::memset(dbias, 0, sizeof(float) * static_cast<std::size_t>(cols));
    for (int r = 0; r < rows; ++r) {
      const float* row = dy + static_cast<std::size_t>(r) * cols;
      for (int c = 0; c < cols; ++c) dbias[c] += row[c];
    }
  }

  void add(float* y, const float* x, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) y[i] += x[i];
  }

  void geluForward(const float* x, float* y, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) {
      const float v = x[i];
      y[i] = 0.5f * v * (1.0f + std::tanh(kGeluScale * (v + 0.044715f * v * v * v)));
    }
  }

  void geluBackward(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate) override {
    for (std::size_t i = 0; i < n; ++i) {
      const float v = x[i];
      const float u = kGeluScale * (v + 0.044715f * v * v * v);
      const float t = std::tanh(u);
      const float du = kGeluScale * (1.0f + 3.0f * 0.044715f * v * v);
      const float g = 0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * du;
      dx[i] = (accumulate ? dx[i] : 0.0f) + g * dy[i];
    }
  }

  void embeddingForward(const std::int32_t* tokens, const float* table, float* out, int n, int width) override {
    const auto w = static_cast<std::size_t>(width);
    for (int i = 0; i < n; ++i)
      std::memcpy(out + static_cast<std::size_t>(i) * w, table + static_cast<std::size_t>(tokens[i]) * w,
                  sizeof(float) * w);
  }

  void embeddingBackward(const std::int32_t* tokens, const float* dout, float* dtable, int n, int width) override {
    const auto w = static_cast<std::size_t>(width);
    for (int i = 0; i < n; ++i) {
      float* row = dtable + static_cast<std::size_t>(tokens[i]) * w;
      const float* g = dout + static_cast<std::size_t>(i) * w;
      for (std::size_t c = 0; c < w; ++c) row[c] += g[c];
    }
  }

  double softmaxCrossEntropy(const float* logits, const std::int32_t* targets, float* dlogits, int rows, int vocab,
                             float gradScale) override {
    double loss = 0.0;
    const auto V = static_cast<std::size_t>(vocab);
    for (int r = 0; r < rows; ++r) {
      const float* z = logits + static_cast<std::size_t>(r) * V;
      float* dz = dlogits + static_cast<std::size_t>(r) * V;
      float maxv = z[0];
      for (std::size_t c = 1; c < V; ++c) maxv = std::max(maxv, z[c]);
      double sum = 0.0;
      for (std::size_t c = 0; c < V; ++c) sum += std::exp(static_cast<double>(z[c] - maxv));
      const auto t = static_cast<std::size_t>(targets[r]);
      loss += std::log(sum) - static_cast<double>(z[t] - maxv);
      for (std::size_t c = 0; c < V; ++c) {
        const double p = std::exp(static_cast<double>(z[c] - maxv)) / sum;
        dz[c] = gradScale * static_cast<float>(p - (c == t ? 1.0 : 0.0));
      }
    }
    return loss;
  }

  void adamw(float* param, const float* grad, float* m, float* v, std::size_t n, const AdamWParams& p,
             int step) override {
    const float c1 = 1.0f - std::pow(p.beta1, static_cast<float>(step));
    const float c2 = 1.0f - std::pow(p.beta2, static_cast<float>(step));
    for (std::size_t i = 0; i < n; ++i) {
      const float g = grad[i];
      m[i] = p.beta1 * m[i] + (1.0f - p.beta1) * g;
      v[i] = p.beta2 * v[i] + (1.0f - p.beta2) * g * g;
      const float mhat = m[i] / c1;
      const float vhat = v[i] / c2;
      param[i] -= p.lr * (mhat / (std::sqrt(vhat) + p.eps) + p.weightDecay * param[i]);
    }
  }

  void scale(float* x, float s, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) x[i] *= s;
  }
};

} // namespace

std::unique_ptr<Device> makeCpuDevice(int blasThreads) { return std::make_unique<CpuDevice>(blasThreads); }

} // namespace shardlab
