// Getting a communicator up: the NCCL unique id travels over MPI, then every rank
// joins with ncclCommInitRank. Plus the node-local rank and GPU-sharing checks the
// strategies use to pick a GPU and to choose NCCL or MPI staging.
#include "cuda/NcclComm.h"

#include "cuda/CudaCheck.h"
#include "cuda/NcclCheck.h"

#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace shardlab::nccl {
namespace {

void checkMpi(int rc, const char* call, const char* file, int line) {
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(rc, text, &length);
    throw std::runtime_error(std::string("MPI error ") + text + " in " + call + " at " + file + ":" +
                             std::to_string(line));
  }
}
#define SHARDLAB_MPI_CHECK(call) checkMpi((call), #call, __FILE__, __LINE__)

// What rank 0 broadcasts: the id, and whether it got one (so that, when it did not,
// the others throw too instead of waiting in ncclCommInitRank forever).
struct IdMessage {
  int ok = 0;
  ncclUniqueId id{};
};

} // namespace

Comm Comm::fromMpi(MPI_Comm mpiComm, int cudaDevice) {
  int rank = 0, size = 0;
  SHARDLAB_MPI_CHECK(MPI_Comm_rank(mpiComm, &rank));
  SHARDLAB_MPI_CHECK(MPI_Comm_size(mpiComm, &size));
  CUDA_CHECK(cudaSetDevice(cudaDevice));

  IdMessage message;
  std::string rootError;
  if (rank == 0) {
    try {
      NCCL_CHECK(ncclGetUniqueId(&message.id));
      message.ok = 1;
    } catch (const std::exception& e) {
      rootError = e.what();
    }
  }
  SHARDLAB_MPI_CHECK(MPI_Bcast(&message, static_cast<int>(sizeof message), MPI_BYTE, 0, mpiComm));
  if (!message.ok) {
    throw std::runtime_error(rank == 0 ? rootError : "NCCL bootstrap: rank 0 could not create the unique id");
  }

  ncclComm_t comm = nullptr;
  NCCL_CHECK(ncclCommInitRank(&comm, size, message.id, rank));
  return Comm(comm, rank, size);
}

int localRank(MPI_Comm mpiComm) {
  MPI_Comm node = MPI_COMM_NULL;
  int rank = 0;
  SHARDLAB_MPI_CHECK(MPI_Comm_rank(mpiComm, &rank));
  SHARDLAB_MPI_CHECK(MPI_Comm_split_type(mpiComm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  int local = 0;
  const int rc = MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  SHARDLAB_MPI_CHECK(rc);
  return local;
}

bool ranksShareGpu(MPI_Comm mpiComm, int cudaDevice) {
  // Each rank contributes "host|pci-bus-id"; a duplicate means two ranks, one GPU.
  constexpr int kKeyBytes = MPI_MAX_PROCESSOR_NAME + 64;
  char key[kKeyBytes] = {};
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int hostLength = 0;
  SHARDLAB_MPI_CHECK(MPI_Get_processor_name(host, &hostLength));
  char bus[64] = {};
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus, static_cast<int>(sizeof bus), cudaDevice));
  std::snprintf(key, sizeof key, "%s|%s", host, bus);

  int size = 0;
  SHARDLAB_MPI_CHECK(MPI_Comm_size(mpiComm, &size));
  std::vector<char> all(static_cast<std::size_t>(size) * kKeyBytes);
  SHARDLAB_MPI_CHECK(MPI_Allgather(key, kKeyBytes, MPI_CHAR, all.data(), kKeyBytes, MPI_CHAR, mpiComm));

  std::set<std::string> seen;
  for (int r = 0; r < size; ++r) {
    const char* k = all.data() + static_cast<std::size_t>(r) * kKeyBytes;
    if (!seen.insert(std::string(k, strnlen(k, kKeyBytes))).second) return true;
  }
  return false;
}

int libraryVersion() {
  int version = 0;
  NCCL_CHECK(ncclGetVersion(&version));
  return version;
}

#undef SHARDLAB_MPI_CHECK

} // namespace shardlab::nccl
