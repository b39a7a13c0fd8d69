// A thin, checked NCCL communicator for the strategies (DDP, FSDP, pipeline, TP) on
// GPU ranks. Small on purpose:
//
//   int dev = shardlab::nccl::localRank(MPI_COMM_WORLD) % shardlab::cudaDeviceCount();
//   if (shardlab::nccl::ranksShareGpu(MPI_COMM_WORLD, dev)) { /* MPI + host staging instead */ }
//   auto comm = shardlab::nccl::Comm::fromMpi(MPI_COMM_WORLD, dev); // collective
//   comm.allReduce(grads, grads, n, stream);                         // enqueued, returns at once
//   comm.waitFor(stream, std::chrono::seconds(60));                  // or throws, never hangs
//
// All buffers are fp32 device memory on the rank's GPU; `stream` is a cudaStream_t
// of that GPU (the compute stream, or a communication stream ordered against it
// with events). Every NCCL/CUDA/MPI call is checked and throws std::runtime_error.
//
// NCCL needs one GPU per rank: two ranks of one communicator on the same GPU make
// ncclCommInitRank fail. When ranks outnumber GPUs, use MPI over host copies
// (docs/gpu.md, "Staging").
#pragma once

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <chrono>
#include <cstddef>
#include <stdexcept>

namespace shardlab::nccl {

// Thrown by Comm::waitFor when the timeout passed (the communicator was aborted).
class TimeoutError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Comm {
public:
  // Collective over every rank of mpiComm. Makes `cudaDevice` current, then rank 0
  // calls ncclGetUniqueId, MPI_Bcast hands the id (and whether rank 0 got one) to
  // all, and each rank calls ncclCommInitRank. NCCL rank == MPI rank in mpiComm.
  static Comm fromMpi(MPI_Comm mpiComm, int cudaDevice);

  Comm() = default;
  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&& other) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  ~Comm(); // ncclCommDestroy; nothing after abort()

  bool valid() const { return comm_ != nullptr; }
  ncclComm_t get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // recv (size() * sendCount) = the ranks' send buffers, in rank order.
  void allGather(const float* send, float* recv, std::size_t sendCount, cudaStream_t stream);
  // recv (recvCount) = this rank's slice of op over the ranks' send (size() * recvCount).
  void reduceScatter(const float* send, float* recv, std::size_t recvCount, cudaStream_t stream,
                     ncclRedOp_t op = ncclSum);
  // recv (count) = op over the ranks' send (count); send == recv is in place.
  void allReduce(const float* send, float* recv, std::size_t count, cudaStream_t stream, ncclRedOp_t op = ncclSum);
  // One grouped ncclSend + ncclRecv, so two neighbours exchanging never deadlock.
  // A half with a negative peer (or a zero count) is left out.
  void sendRecv(const float* send, std::size_t sendCount, int sendPeer, float* recv, std::size_t recvCount,
                int recvPeer, cudaStream_t stream);

  // Waits for `stream` without blocking forever: polls cudaStreamQuery and
  // ncclCommGetAsyncError. When NCCL reports an asynchronous error, or `timeout`
  // passes first (a peer died or never posted its half), calls ncclCommAbort (the
  // NCCL kernels stop; this communicator is then unusable) and throws:
  // TimeoutError for the timeout, std::runtime_error for the error.
  void waitFor(cudaStream_t stream, std::chrono::milliseconds timeout);

  // ncclCommAbort: stops outstanding NCCL work and frees the communicator.
  void abort() noexcept;

private:
  Comm(ncclComm_t comm, int rank, int size) : comm_(comm), rank_(rank), size_(size) {}
  void requireValid(const char* what) const;

  ncclComm_t comm_ = nullptr;
  int rank_ = 0;
  int size_ = 0;
};

// This process's rank among the processes of mpiComm on the same node
// (MPI_Comm_split_type MPI_COMM_TYPE_SHARED): the usual GPU choice is
// localRank % cudaDeviceCount(). Collective over mpiComm.
int localRank(MPI_Comm mpiComm);

// True when two ranks of mpiComm would use the same GPU (same node and PCI bus id
// of their `cudaDevice`): NCCL cannot then be used. Collective over mpiComm.
bool ranksShareGpu(MPI_Comm mpiComm, int cudaDevice);

// The NCCL library's version code (2.28.9 -> 22809), for the trace metadata.
int libraryVersion();

} // namespace shardlab::nccl
