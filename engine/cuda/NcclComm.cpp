// The communicator's collectives and its timeout-bounded wait.
#include "cuda/NcclComm.h"

#include "cuda/CudaCheck.h"
#include "cuda/NcclCheck.h"

#include <string>
#include <thread>
#include <utility>

namespace shardlab::nccl {

Comm::Comm(Comm&& other) noexcept
    : comm_(std::exchange(other.comm_, nullptr)), rank_(other.rank_), size_(other.size_) {}

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    if (comm_) ncclCommDestroy(comm_);
    comm_ = std::exchange(other.comm_, nullptr);
    rank_ = other.rank_;
    size_ = other.size_;
  }
  return *this;
}

Comm::~Comm() {
  if (comm_) ncclCommDestroy(comm_); // no throwing from a destructor
}

void Comm::requireValid(const char* what) const {
  if (comm_ == nullptr) throw std::logic_error(std::string("NCCL ") + what + " on a closed or aborted communicator");
}

void Comm::allGather(const float* send, float* recv, std::size_t sendCount, cudaStream_t stream) {
  requireValid("allGather");
  NCCL_CHECK(ncclAllGather(send, recv, sendCount, ncclFloat, comm_, stream));
}

void Comm::reduceScatter(const float* send, float* recv, std::size_t recvCount, cudaStream_t stream,
                         ncclRedOp_t op) {
  requireValid("reduceScatter");
  NCCL_CHECK(ncclReduceScatter(send, recv, recvCount, ncclFloat, op, comm_, stream));
}

void Comm::allReduce(const float* send, float* recv, std::size_t count, cudaStream_t stream, ncclRedOp_t op) {
  requireValid("allReduce");
  NCCL_CHECK(ncclAllReduce(send, recv, count, ncclFloat, op, comm_, stream));
}

void Comm::sendRecv(const float* send, std::size_t sendCount, int sendPeer, float* recv, std::size_t recvCount,
                    int recvPeer, cudaStream_t stream) {
  requireValid("sendRecv");
  const bool doSend = sendPeer >= 0 && sendCount > 0;
  const bool doRecv = recvPeer >= 0 && recvCount > 0;
  if (!doSend && !doRecv) return;
  NCCL_CHECK(ncclGroupStart());
  try {
    if (doSend) NCCL_CHECK(ncclSend(send, sendCount, ncclFloat, sendPeer, comm_, stream));
    if (doRecv) NCCL_CHECK(ncclRecv(recv, recvCount, ncclFloat, recvPeer, comm_, stream));
  } catch (...) {
    ncclGroupEnd(); // close the group before the error leaves
    throw;
  }
  NCCL_CHECK(ncclGroupEnd());
}

void Comm::waitFor(cudaStream_t stream, std::chrono::milliseconds timeout) {
  requireValid("waitFor");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const cudaError_t query = cudaStreamQuery(stream);
    if (query == cudaSuccess) return;
    if (query != cudaErrorNotReady) CUDA_CHECK(query); // a real CUDA error: throws

    ncclResult_t asyncError = ncclSuccess;
    NCCL_CHECK(ncclCommGetAsyncError(comm_, &asyncError));
    if (asyncError != ncclSuccess && asyncError != ncclInProgress) {
      const std::string reason = ncclGetErrorString(asyncError);
      abort();
      throw std::runtime_error("NCCL asynchronous error on rank " + std::to_string(rank_) + ": " + reason +
                               " (communicator aborted)");
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      abort();
      throw TimeoutError("NCCL operation on rank " + std::to_string(rank_) + " of " + std::to_string(size_) +
                         " did not finish within " + std::to_string(timeout.count()) +
                         " ms (a peer failed or never joined); communicator aborted");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void Comm::abort() noexcept {
  if (comm_) {
    ncclCommAbort(comm_);
    comm_ = nullptr;
  }
}

} // namespace shardlab::nccl
