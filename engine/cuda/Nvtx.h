// NVTX ranges: named spans that Nsight Systems shows on the timeline.
//
//   { shardlab::NvtxRange range("fsdp/all_gather layer 3"); ... } // pushed here, popped at '}'
//
// Header-only (NVTX v3 ships as headers in the CUDA toolkit: nvtx3/nvToolsExt.h, no
// library to link). With no profiler attached a push/pop costs a few nanoseconds.
// Built without CUDA (SHARDLAB_HAVE_CUDA undefined) it compiles to nothing.
#pragma once

#if defined(SHARDLAB_HAVE_CUDA) && __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define SHARDLAB_HAVE_NVTX 1
#endif

#include <string>

namespace shardlab {

// Push and pop apart, for a range that opens and closes in different calls.
inline void nvtxPush(const std::string& name) {
#ifdef SHARDLAB_HAVE_NVTX
  nvtxRangePushA(name.c_str());
#else
  (void)name;
#endif
}
inline void nvtxPop() {
#ifdef SHARDLAB_HAVE_NVTX
  nvtxRangePop();
#endif
}

class NvtxRange {
public:
  explicit NvtxRange(const char* name) {
#ifdef SHARDLAB_HAVE_NVTX
    nvtxRangePushA(name);
#else
    (void)name;
#endif
  }
  explicit NvtxRange(const std::string& name) : NvtxRange(name.c_str()) {}
  ~NvtxRange() {
#ifdef SHARDLAB_HAVE_NVTX
    nvtxRangePop();
#endif
  }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

} // namespace shardlab
