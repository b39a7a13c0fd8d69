// CudaDevice against the CPU device, op by op: the same fresh random inputs on both,
// outputs poisoned with NaN first (so an element the GPU never writes shows), and
// the relative error ||gpu - cpu|| / ||cpu|| below 1e-5 in fp32. Without a GPU every
// test is skipped and says why.
#include "cuda/CudaDevice.h"
#include "core/Device.h"
#include "core/Gpt.h"

#include "RequireGpu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace shardlab {
namespace {

constexpr double kTolerance = 1e-5;

double relativeError(const std::vector<float>& out, const std::vector<float>& ref) {
  double diff = 0.0, norm = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double d = static_cast<double>(out[i]) - static_cast<double>(ref[i]);
    diff += d * d;
    norm += static_cast<double>(ref[i]) * static_cast<double>(ref[i]);
  }
  if (norm == 0.0) return std::sqrt(diff);
  return std::sqrt(diff / norm);
}

class CudaVsCpu : public ::testing::Test {
protected:
  void SetUp() override {
    SHARDLAB_NEED_GPU();
    cpu_ = makeCpuDevice();
    gpu_ = makeCudaDevice(0);
    seed_ = std::random_device{}();
    rng_.seed(seed_);
    RecordProperty("seed", std::to_string(seed_));
  }

  void TearDown() override {
    for (auto& [device, p] : allocations_) device->release(p);
    allocations_.clear();
  }

  // The same data on both devices.
  template <typename T>
  struct Twin {
    T* cpu = nullptr;
    T* gpu = nullptr;
    std::size_t n = 0;
  };

  template <typename T>
  Twin<T> twin(const std::vector<T>& host) {
    Twin<T> t;
    t.n = host.size();
    t.cpu = static_cast<T*>(alloc(*cpu_, host.size() * sizeof(T)));
    t.gpu = static_cast<T*>(alloc(*gpu_, host.size() * sizeof(T)));
    cpu_->copyToDevice(t.cpu, host.data(), host.size() * sizeof(T));
    gpu_->copyToDevice(t.gpu, host.data(), host.size() * sizeof(T));
    return t;
  }

  std::vector<float> random(std::size_t n, float lo = -1.0f, float hi = 1.0f) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) {
      do x = dist(rng_); while (x == 0.0f); // never zeros
    }
    return v;
  }

  std::vector<std::int32_t> tokens(std::size_t n, int vocab) {
    std::uniform_int_distribution<int> dist(0, vocab - 1);
    std::vector<std::int32_t> v(n);
    for (auto& t : v) t = dist(rng_);
    return v;
  }

  static std::vector<float> poison(std::size_t n) {
    return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN());
  }

  std::vector<float> readCpu(const float* p, std::size_t n) {
    std::vector<float> v(n);
    cpu_->copyToHost(v.data(), p, n * sizeof(float));
    return v;
  }
  std::vector<float> readGpu(const float* p, std::size_t n) {
    std::vector<float> v(n);
    gpu_->copyToHost(v.data(), p, n * sizeof(float));
    return v;
  }

  // Both devices' copies of `t` agree.
  void expectClose(const Twin<float>& t, const char* what) {
    expectClose(readGpu(t.gpu, t.n), readCpu(t.cpu, t.n), what);
  }
  void expectClose(const std::vector<float>& gpu, const std::vector<float>& cpu, const char* what) {
    ASSERT_EQ(gpu.size(), cpu.size());
    std::size_t nonFinite = 0;
    for (float x : gpu) nonFinite += std::isfinite(x) ? 0 : 1;
    EXPECT_EQ(nonFinite, 0u) << what << ": the GPU left NaN/inf (poison not overwritten?), seed " << seed_;
    const double err = relativeError(gpu, cpu);
    EXPECT_LT(err, kTolerance) << what << ": relative error " << err << ", seed " << seed_;
  }

  void* alloc(Device& d, std::size_t bytes) {
    void* p = d.allocate(bytes);
    allocations_.emplace_back(&d, p);
    return p;
  }

  std::unique_ptr<Device> cpu_, gpu_;
  unsigned seed_ = 0;
  std::mt19937 rng_;
  std::vector<std::pair<Device*, void*>> allocations_;
};

TEST_F(CudaVsCpu, KindNameAndInfo) {
  EXPECT_EQ(gpu_->kind(), "cuda");
  EXPECT_FALSE(gpu_->name().empty());
  const CudaDeviceInfo info = cudaDeviceInfo(0);
  EXPECT_EQ(info.name, gpu_->name());
  EXPECT_GT(info.totalBytes, 0u);
  EXPECT_LE(info.freeBytes, info.totalBytes);
  EXPECT_GT(info.runtimeVersion, 0);
  EXPECT_GE(info.driverVersion, 12000);
  std::cout << "[ info     ] " << info.toString() << " pci " << info.pciBusId << "\n";
}

TEST_F(CudaVsCpu, CopiesAndZero) {
  const auto host = random(1000);
  auto* a = static_cast<float*>(alloc(*gpu_, host.size() * sizeof(float)));
  auto* b = static_cast<float*>(alloc(*gpu_, host.size() * sizeof(float)));
  gpu_->copyToDevice(a, host.data(), host.size() * sizeof(float));
  gpu_->copy(b, a, host.size() * sizeof(float));
  EXPECT_EQ(readGpu(b, host.size()), host);
  gpu_->zero(b, 100 * sizeof(float));
  const auto back = readGpu(b, host.size());
  for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i], i < 100 ? 0.0f : host[i]) << i;
}

TEST_F(CudaVsCpu, AllocationFailureIsBadAlloc) {
  // A real out-of-memory: 1 GiB more than the whole GPU. (A request past the address
  // space, such as 4 PiB, may fail with another error than cudaErrorMemoryAllocation:
  // CUDA documents none for it.)
  const CudaDeviceInfo info = cudaDeviceInfo(0);
  EXPECT_THROW(gpu_->allocate(info.totalBytes + (std::size_t{1} << 30)), std::bad_alloc);
  // The device is still usable afterwards.
  void* p = gpu_->allocate(256);
  gpu_->zero(p, 256);
  gpu_->synchronize();
  gpu_->release(p);
}

// ---- GEMM: all four transpose combinations, padded leading dimensions, beta 0 and not.

class GemmTest : public CudaVsCpu, public ::testing::WithParamInterface<std::tuple<bool, bool>> {};

TEST_P(GemmTest, MatchesCpu) {
  const auto [transA, transB] = GetParam();
  for (const auto& [M, N, K] : {std::tuple{37, 53, 29}, std::tuple{128, 256, 512}, std::tuple{1, 300, 64}}) {
    for (const float beta : {0.0f, 0.5f}) {
      SCOPED_TRACE("M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K) +
                   " beta=" + std::to_string(beta));
      const int aRows = transA ? K : M, aCols = transA ? M : K;
      const int bRows = transB ? N : K, bCols = transB ? K : N;
      const int lda = aCols + 3, ldb = bCols + 1, ldc = N + 2; // padded on purpose
      auto A = twin(random(static_cast<std::size_t>(aRows) * lda));
      auto B = twin(random(static_cast<std::size_t>(bRows) * ldb));
      // beta == 0: C is poison and must be ignored; else C is read.
      auto C = twin(beta == 0.0f ? poison(static_cast<std::size_t>(M) * ldc) : random(static_cast<std::size_t>(M) * ldc));
      const float alpha = 0.75f;
      cpu_->gemm(transA, transB, M, N, K, alpha, A.cpu, lda, B.cpu, ldb, beta, C.cpu, ldc);
      gpu_->gemm(transA, transB, M, N, K, alpha, A.gpu, lda, B.gpu, ldb, beta, C.gpu, ldc);
      // Compare the M x N part (the padding is never written).
      const auto g = readGpu(C.gpu, C.n), c = readCpu(C.cpu, C.n);
      std::vector<float> gOut, cOut;
      for (int r = 0; r < M; ++r)
        for (int col = 0; col < N; ++col) {
          gOut.push_back(g[static_cast<std::size_t>(r) * ldc + col]);
          cOut.push_back(c[static_cast<std::size_t>(r) * ldc + col]);
        }
      expectClose(gOut, cOut, "gemm");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Transposes, GemmTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Bool()),
                         [](const auto& param) {
                           return std::string(std::get<0>(param.param) ? "At" : "A") +
                                  (std::get<1>(param.param) ? "Bt" : "B");
                         });

// ---- element-wise and reductions

TEST_F(CudaVsCpu, AddBias) {
  const int rows = 301, cols = 77;
  auto y = twin(random(static_cast<std::size_t>(rows) * cols));
  auto bias = twin(random(cols));
  cpu_->addBias(y.cpu, bias.cpu, rows, cols);
  gpu_->addBias(y.gpu, bias.gpu, rows, cols);
  expectClose(y, "addBias");
}

TEST_F(CudaVsCpu, BiasGrad) {
  const int rows = 300, cols = 77;
  auto dy = twin(random(static_cast<std::size_t>(rows) * cols));
  auto fresh = twin(poison(cols));
  cpu_->biasGrad(dy.cpu, fresh.cpu, rows, cols, false);
  gpu_->biasGrad(dy.gpu, fresh.gpu, rows, cols, false);
  expectClose(fresh, "biasGrad");
  auto acc = twin(random(cols));
  cpu_->biasGrad(dy.cpu, acc.cpu, rows, cols, true);
  gpu_->biasGrad(dy.gpu, acc.gpu, rows, cols, true);
  expectClose(acc, "biasGrad accumulate");
}

TEST_F(CudaVsCpu, AddAndScale) {
  const std::size_t n = 100003;
  auto y = twin(random(n));
  auto x = twin(random(n));
  cpu_->add(y.cpu, x.cpu, n);
  gpu_->add(y.gpu, x.gpu, n);
  expectClose(y, "add");
  cpu_->scale(y.cpu, -0.37f, n);
  gpu_->scale(y.gpu, -0.37f, n);
  expectClose(y, "scale");
}

TEST_F(CudaVsCpu, Gelu) {
  const std::size_t n = 65537;
  auto x = twin(random(n, -5.0f, 5.0f));
  auto y = twin(poison(n));
  cpu_->geluForward(x.cpu, y.cpu, n);
  gpu_->geluForward(x.gpu, y.gpu, n);
  expectClose(y, "geluForward");

  auto dy = twin(random(n));
  auto dx = twin(poison(n));
  cpu_->geluBackward(x.cpu, dy.cpu, dx.cpu, n, false);
  gpu_->geluBackward(x.gpu, dy.gpu, dx.gpu, n, false);
  expectClose(dx, "geluBackward");
  auto dxAcc = twin(random(n));
  cpu_->geluBackward(x.cpu, dy.cpu, dxAcc.cpu, n, true);
  gpu_->geluBackward(x.gpu, dy.gpu, dxAcc.gpu, n, true);
  expectClose(dxAcc, "geluBackward accumulate");
}

TEST_F(CudaVsCpu, Embedding) {
  const int vocab = 50, width = 33, n = 400; // 400 tokens over 50 rows: many repeats
  auto tok = twin(tokens(n, vocab));
  auto table = twin(random(static_cast<std::size_t>(vocab) * width));
  auto out = twin(poison(static_cast<std::size_t>(n) * width));
  cpu_->embeddingForward(tok.cpu, table.cpu, out.cpu, n, width);
  gpu_->embeddingForward(tok.gpu, table.gpu, out.gpu, n, width);
  expectClose(out, "embeddingForward");

  auto dout = twin(random(static_cast<std::size_t>(n) * width));
  auto dtable = twin(random(static_cast<std::size_t>(vocab) * width));
  cpu_->embeddingBackward(tok.cpu, dout.cpu, dtable.cpu, n, width);
  gpu_->embeddingBackward(tok.gpu, dout.gpu, dtable.gpu, n, width);
  expectClose(dtable, "embeddingBackward");
  // Deterministic (a learner comparing runs sees the same numbers): in the CPU's order, so bitwise equal to it and
  // to itself run to run (an atomicAdd backward differs in the last bits).
  const auto gpuGrad = readGpu(dtable.gpu, dtable.n);
  EXPECT_EQ(gpuGrad, readCpu(dtable.cpu, dtable.n)) << "embeddingBackward is not bitwise the CPU's, seed " << seed_;
  for (int again = 0; again < 3; ++again) {
    gpu_->copyToDevice(dtable.gpu, gpuGrad.data(), gpuGrad.size() * sizeof(float));
    gpu_->embeddingBackward(tok.gpu, dout.gpu, dtable.gpu, n, width);
    const auto twice = readGpu(dtable.gpu, dtable.n);
    gpu_->copyToDevice(dtable.gpu, gpuGrad.data(), gpuGrad.size() * sizeof(float));
    gpu_->embeddingBackward(tok.gpu, dout.gpu, dtable.gpu, n, width);
    EXPECT_EQ(readGpu(dtable.gpu, dtable.n), twice) << "embeddingBackward differs run to run";
  }
}

TEST_F(CudaVsCpu, SoftmaxCrossEntropy) {
  for (const int vocab : {50, 1000, 5003}) {
    SCOPED_TRACE("vocab=" + std::to_string(vocab));
    const int rows = 17;
    const float gradScale = 1.0f / static_cast<float>(rows);
    auto logits = twin(random(static_cast<std::size_t>(rows) * vocab, -6.0f, 6.0f));
    auto targets = twin(tokens(rows, vocab));
    auto dlogits = twin(poison(static_cast<std::size_t>(rows) * vocab));
    const double lossCpu = cpu_->softmaxCrossEntropy(logits.cpu, targets.cpu, dlogits.cpu, rows, vocab, gradScale);
    const double lossGpu = gpu_->softmaxCrossEntropy(logits.gpu, targets.gpu, dlogits.gpu, rows, vocab, gradScale);
    EXPECT_LT(std::abs(lossGpu - lossCpu) / std::abs(lossCpu), kTolerance) << lossGpu << " vs " << lossCpu;
    expectClose(dlogits, "softmaxCrossEntropy dlogits");

    // In place on the GPU (dlogits == logits) gives the same.
    const double lossInPlace =
        gpu_->softmaxCrossEntropy(logits.gpu, targets.gpu, logits.gpu, rows, vocab, gradScale);
    EXPECT_LT(std::abs(lossInPlace - lossCpu) / std::abs(lossCpu), kTolerance);
    expectClose(readGpu(logits.gpu, logits.n), readCpu(dlogits.cpu, dlogits.n), "softmaxCrossEntropy in place");
  }
}

TEST_F(CudaVsCpu, AdamW) {
  const std::size_t n = 10007;
  AdamWParams p;
  p.lr = 1e-2f;
  p.weightDecay = 0.1f;
  const auto param0 = random(n);
  auto param = twin(param0);
  auto m = twin(std::vector<float>(n, 0.0f)); // optimizer state starts at zero
  auto v = twin(std::vector<float>(n, 0.0f));
  for (int step = 1; step <= 3; ++step) {
    auto grad = twin(random(n));
    cpu_->adamw(param.cpu, grad.cpu, m.cpu, v.cpu, n, p, step);
    gpu_->adamw(param.gpu, grad.gpu, m.gpu, v.gpu, n, p, step);
  }
  expectClose(param, "adamw param");
  expectClose(m, "adamw m");
  expectClose(v, "adamw v");
  // The update itself (param - param0), which is small next to param.
  auto g = readGpu(param.gpu, n), c = readCpu(param.cpu, n);
  for (std::size_t i = 0; i < n; ++i) {
    g[i] -= param0[i];
    c[i] -= param0[i];
  }
  expectClose(g, c, "adamw update");
}

// ---- The GPT's ops (core/Gpt.h): strided-batched GEMM, causal softmax, LayerNorm, and
// a whole transformer block forward and backward.

TEST_F(CudaVsCpu, GemmStridedBatchedOverHeads) {
  // The attention's shape: per sequence, one S x S product per head, the heads' columns
  // interleaved in rows of 3H (stride = head size).
  const int S = 33, heads = 4, dh = 16, H = heads * dh;
  for (const auto& [transA, transB] : {std::pair{false, true}, std::pair{false, false}, std::pair{true, false}}) {
    SCOPED_TRACE(std::string(transA ? "At" : "A") + (transB ? "Bt" : "B"));
    auto qkv = twin(random(static_cast<std::size_t>(S) * 3 * H));
    const int M = S, N = transB ? S : dh, K = transB ? dh : S;
    auto probs = twin(random(static_cast<std::size_t>(heads) * S * S));
    auto C = twin(poison(static_cast<std::size_t>(heads) * S * S));
    const std::int64_t sSS = static_cast<std::int64_t>(S) * S;
    if (transB) { // scores = Q K^T
      cpu_->gemmStridedBatched(false, true, M, N, K, 0.25f, qkv.cpu, 3 * H, dh, qkv.cpu + H, 3 * H, dh, 0.0f, C.cpu, S,
                               sSS, heads);
      gpu_->gemmStridedBatched(false, true, M, N, K, 0.25f, qkv.gpu, 3 * H, dh, qkv.gpu + H, 3 * H, dh, 0.0f, C.gpu, S,
                               sSS, heads);
    } else { // P V, or P^T dO: C is S x dh per head, ld dh, stride S x dh
      cpu_->gemmStridedBatched(transA, false, S, dh, S, 1.0f, probs.cpu, S, sSS, qkv.cpu + 2 * H, 3 * H, dh, 0.0f,
                               C.cpu, dh, static_cast<std::int64_t>(S) * dh, heads);
      gpu_->gemmStridedBatched(transA, false, S, dh, S, 1.0f, probs.gpu, S, sSS, qkv.gpu + 2 * H, 3 * H, dh, 0.0f,
                               C.gpu, dh, static_cast<std::int64_t>(S) * dh, heads);
      const std::size_t n = static_cast<std::size_t>(heads) * S * dh;
      expectClose(readGpu(C.gpu, n), readCpu(C.cpu, n), "strided-batched gemm");
      continue;
    }
    expectClose(C, "strided-batched gemm");
  }
}

TEST_F(CudaVsCpu, CausalSoftmaxForwardAndBackward) {
  const int S = 70, matrices = 6;
  const std::size_t n = static_cast<std::size_t>(matrices) * S * S;
  auto scores = twin(random(n, -6.0f, 6.0f));
  auto probs = twin(poison(n));
  cpu_->causalSoftmaxForward(scores.cpu, probs.cpu, matrices, S);
  gpu_->causalSoftmaxForward(scores.gpu, probs.gpu, matrices, S);
  expectClose(probs, "causal softmax");
  auto dprobs = twin(random(n));
  auto dscores = twin(poison(n));
  cpu_->causalSoftmaxBackward(probs.cpu, dprobs.cpu, dscores.cpu, matrices, S);
  gpu_->causalSoftmaxBackward(probs.gpu, dprobs.gpu, dscores.gpu, matrices, S);
  expectClose(dscores, "causal softmax backward");
}

TEST_F(CudaVsCpu, LayerNormForwardAndBackward) {
  const int rows = 300, cols = 200;
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  auto x = twin(random(n, -3.0f, 3.0f)), gamma = twin(random(cols)), beta = twin(random(cols));
  auto y = twin(poison(n)), mean = twin(poison(rows)), rstd = twin(poison(rows));
  cpu_->layerNormForward(x.cpu, gamma.cpu, beta.cpu, y.cpu, mean.cpu, rstd.cpu, rows, cols);
  gpu_->layerNormForward(x.gpu, gamma.gpu, beta.gpu, y.gpu, mean.gpu, rstd.gpu, rows, cols);
  expectClose(y, "layernorm");
  expectClose(mean, "layernorm mean");
  expectClose(rstd, "layernorm rstd");
  for (const bool accumulate : {false, true}) {
    auto dy = twin(random(n));
    auto dx = twin(accumulate ? random(n) : poison(n));
    auto dgamma = twin(random(cols)), dbeta = twin(random(cols)); // accumulated onto
    cpu_->layerNormBackward(x.cpu, gamma.cpu, mean.cpu, rstd.cpu, dy.cpu, dx.cpu, dgamma.cpu, dbeta.cpu, rows, cols,
                            accumulate);
    gpu_->layerNormBackward(x.gpu, gamma.gpu, mean.gpu, rstd.gpu, dy.gpu, dx.gpu, dgamma.gpu, dbeta.gpu, rows, cols,
                            accumulate);
    expectClose(dx, accumulate ? "layernorm dx (accumulated)" : "layernorm dx");
    expectClose(dgamma, "layernorm dgamma");
    expectClose(dbeta, "layernorm dbeta");
  }
}

TEST_F(CudaVsCpu, GptBlockForwardAndBackward) {
  ModelShape shape{64, 64, 1, true, 4, 24};
  const GptDims dims = GptDims::of(shape, 3);
  const std::size_t TH = static_cast<std::size_t>(dims.T()) * dims.H;
  auto params = twin(random(shape.unitSize(1), -0.3f, 0.3f));
  auto x = twin(random(TH)), y = twin(poison(TH));
  auto saved = twin(std::vector<float>(GptBlockSaved::floats(dims), 0.0f));
  gptBlockForward(*cpu_, params.cpu, x.cpu, y.cpu, GptBlockSaved::carve(saved.cpu, dims), dims);
  gptBlockForward(*gpu_, params.gpu, x.gpu, y.gpu, GptBlockSaved::carve(saved.gpu, dims), dims);
  expectClose(y, "gpt block forward");
  auto dy = twin(random(TH)), dx = twin(poison(TH));
  auto dparams = twin(std::vector<float>(params.n, 0.0f));
  auto scratch = twin(std::vector<float>(gptBlockScratchFloats(dims), 0.0f));
  gptBlockBackward(*cpu_, params.cpu, x.cpu, GptBlockSaved::carve(saved.cpu, dims), dy.cpu, dparams.cpu, dx.cpu,
                   scratch.cpu, dims);
  gptBlockBackward(*gpu_, params.gpu, x.gpu, GptBlockSaved::carve(saved.gpu, dims), dy.gpu, dparams.gpu, dx.gpu,
                   scratch.gpu, dims);
  expectClose(dx, "gpt block dx");
  expectClose(dparams, "gpt block parameter gradients");
}

} // namespace
} // namespace shardlab
