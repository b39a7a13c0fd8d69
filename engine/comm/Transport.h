// How the communication stream moves bytes. CommStream (CommStream.h) owns the
// issue order, the thread and the tickets; a Transport does one operation:
//
//   MpiTransport        Open MPI on host buffers (CPU ranks)              here
//   staged transport    Open MPI through pinned host buffers (GPU ranks   engine/comm/CudaTransports.cpp
//                       that share a GPU): device -> host, MPI, host -> device
//   NCCL transport      NCCL on a communication stream ordered against    engine/comm/CudaTransports.cpp
//                       the compute stream with CUDA events
//
// An operation has two halves. issue() runs on the compute thread when the strategy
// calls allGather/.../send, in issue order: it does what must happen in stream order
// then (nothing for MPI; record a "ready" event for staging; launch the NCCL kernel).
// It returns `work`, which the communication thread runs in issue order and which
// returns when the operation is complete and recorded in the trace. For a GPU
// transport it may also return `deviceWait`: what CommStream::wait does instead of
// blocking the host (make the compute stream wait for the operation's end event).
#pragma once

#include "trace/Event.h"
#include "core/Recorder.h"
#include "comm/WireMonitor.h"

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace shardlab {

struct CollectiveTag {
  int unit = -1;
  int step = -1;
  int micro = -1;
};

// A communicator a collective runs on: the job's (all ranks, CommGroup::World), or a
// sub-communicator CommStream::split made (FSDP's hybrid sharding). `rank` and `size`
// are within it; `participants` are its members as world ranks, for the trace.
struct Communicator {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1;
  trace::RankMask participants = 0;
  trace::CommGroup group = trace::CommGroup::World;
};

// One operation, as the strategy asked for it. Pointers are the rank's device memory.
struct CommOp {
  trace::Kind kind = trace::Kind::AllReduce; // AllGather, ReduceScatter, AllReduce or Send
  const float* send = nullptr;               // allGather: shard; reduceScatter: full; send: data
  float* recv = nullptr;                     // allGather: full; reduceScatter: shard; allReduce: buffer (in place)
  std::size_t count = 0;                     // allGather/reduceScatter: shard floats; allReduce: floats; send: rows * cols
  int peer = -1, messageTag = 0, rows = 0, cols = 0; // send only
  CollectiveTag tag;
  // The communicator it runs on; never null once CommStream has issued it. An
  // all-gather whose `send` is `recv + rank * count` is in place (NCCL's convention).
  const Communicator* on = nullptr;
  // reduceScatter, allReduce: the buffers hold bf16 values, two packed in each float
  // word (`count` still counts words), summed as bf16 (FSDP's reduce_dtype bf16).
  // Open MPI transports only: a user-defined MPI_Op on 2-byte elements.
  bool bf16 = false;

  std::size_t sendCount(int ranks) const; // floats read from `send` (allReduce: from `recv`)
  std::size_t recvCount(int ranks) const; // floats written to `recv` (0 for send)
};

class Transport {
public:
  struct Issued {
    std::function<void()> work;                  // on the communication thread, in issue order
    // When set, CommStream::wait calls it (on the compute thread) once the ticket's
    // errors are checked, instead of blocking the host until `work` is done. It may
    // return follow-up work for the communication thread (recording the stall).
    std::function<std::function<void()>(int step, int micro)> deviceWait;
  };

  Transport(MPI_Comm comm, Recorder& recorder);
  virtual ~Transport() = default;
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // For the rank metadata and docs: "Open MPI", "Open MPI, staged through pinned host memory", "NCCL".
  virtual std::string name() const = 0;
  // The communication thread calls this once, before any work (a GPU transport makes
  // its device current there).
  virtual void startThread() {}
  virtual Issued issue(const CommOp& op) = 0;
  // Blocking receive on the calling thread: waits for the message (idle `waitKind`,
  // the pipeline bubble), then receives it into `data` (recorded as the recv).
  virtual void recv(float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag,
                    trace::Kind waitKind) = 0;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  trace::RankMask participants() const { return participants_; }
  // The job's communicator, as collectives name it.
  const Communicator& world() const { return world_; }

protected:
  // The MPI call of `op` on host buffers (`send`, `recv` as CommOp's). Returns the
  // bytes this rank sent during the call as Open MPI's monitoring pml counted its
  // messages, or -1 when they are not measured (WireMonitor.h).
  std::int64_t runMpi(const CommOp& op, const float* send, float* recv) const;
  // Records `op` as a collective (or send) from t0 to t1 on the run's clock, with the
  // measured wire bytes (-1: not measured).
  void record(const CommOp& op, std::int64_t t0, std::int64_t t1, std::int64_t wireBytes = -1) const;
  // MPI_Probe for the message, recording the wait as idle `waitKind`; returns the
  // time the message was there (the recv's t0).
  std::int64_t probe(int peer, int messageTag, CollectiveTag tag, trace::Kind waitKind) const;
  void recordRecv(int rows, int cols, int peer, CollectiveTag tag, std::int64_t t0, std::int64_t t1) const;

  MPI_Comm comm_;
  Recorder& recorder_;
  int rank_ = 0, size_ = 1;
  trace::RankMask participants_ = 0;
  WireMonitor wire_; // read only on the communication thread
  Communicator world_;
};

// Open MPI on host buffers: the CPU ranks' transport (and the behaviour before
// transports were pluggable, unchanged).
std::unique_ptr<Transport> makeMpiTransport(MPI_Comm comm, Recorder& recorder);

// A mask with the ranks of `comm`, as world ranks.
trace::RankMask worldMaskOf(MPI_Comm comm);

} // namespace shardlab
