// Every MPI call is checked: a failure names the call, the file and the line.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace shardlab {

inline void mpiCheck(int code, const char* call, const char* file, int line) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI error in ") + call + " at " + file + ":" + std::to_string(line) + ": " +
                           std::string(text, static_cast<std::size_t>(length)));
}

} // namespace shardlab

#define MPI_CHECK(call) ::shardlab::mpiCheck((call), #call, __FILE__, __LINE__)
