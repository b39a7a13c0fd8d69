# Detects the CUDA toolkit, cuBLAS and NCCL. The CUDA backend is optional: without
# them ShardLab builds its CPU backend alone and says so in one line.
#
# Sets SHARDLAB_HAVE_CUDA (ON/OFF) and, when ON, the imported target ShardLab::nccl
# (library + include dir). engine/cuda/ builds shardlab_cuda and shardlab_nccl from it.
# Architectures: pass -DCMAKE_CUDA_ARCHITECTURES=native (or 90) to build for the local
# GPU only, as scripts/gpu-check.sh does; the default covers sm_80/86/89/90 + PTX.
set(SHARDLAB_HAVE_CUDA OFF)
if(SHARDLAB_WITH_CUDA)
  # Point check_language at the usual nvcc through CUDACXX, not CMAKE_CUDA_COMPILER:
  # a preset compiler skips check_language's trial and enable_language(CUDA) then
  # aborts the whole configure when that nvcc is broken (bad CUDAFLAGS, unsupported
  # host GCC). With CUDACXX the trial fails quietly and the CPU backend builds alone.
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
    # pip's nvidia-nccl-cu13 ships only libnccl.so.2 (no libnccl.so link): search both
    # names, directory by directory (NAMES_PER_DIR), first under $NCCL_HOME (e.g.
    # site-packages/nvidia/nccl).
    find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 NAMES_PER_DIR
      HINTS $ENV{NCCL_HOME} ${CUDAToolkit_LIBRARY_DIR} /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu
      PATH_SUFFIXES lib lib64)
    find_path(NCCL_INCLUDE_DIR nccl.h
      HINTS $ENV{NCCL_HOME} ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include /usr/include
      PATH_SUFFIXES include)
    if(CUDAToolkit_FOUND AND TARGET CUDA::cublas AND NCCL_LIBRARY AND NCCL_INCLUDE_DIR)
      if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
        # sm_80/86/89/90 as SASS plus compute_90 PTX for newer chips.
        set(CMAKE_CUDA_ARCHITECTURES 80-real 86-real 89-real 90)
      endif()
      # One CUDA runtime per program: the shared libcudart that CUDA::cudart names
      # (CMake's default for .cu targets, the static one, would add a second copy).
      set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)
      enable_language(CUDA)
      # C++17 for the .cu files: CMake 3.25 does not know nvcc's C++20 flag (it fails
      # to generate with "requires the language dialect CUDA20"), and the kernels need
      # nothing newer. The .cpp files of the backend are C++20 like the rest.
      set(CMAKE_CUDA_STANDARD 17)
      set(CMAKE_CUDA_STANDARD_REQUIRED ON)
      set(SHARDLAB_HAVE_CUDA ON)

      # NCCL has no CMake package: wrap what we found in an imported target.
      if(NOT TARGET ShardLab::nccl)
        add_library(ShardLab::nccl UNKNOWN IMPORTED)
        set_target_properties(ShardLab::nccl PROPERTIES
          IMPORTED_LOCATION "${NCCL_LIBRARY}"
          INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
      endif()
      set(_nccl_version "?")
      file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
      foreach(_part MAJOR MINOR PATCH)
        string(REGEX MATCH "NCCL_${_part} ([0-9]+)" _m "${_nccl_lines}")
        set(_nccl_${_part} "${CMAKE_MATCH_1}")
      endforeach()
      if(_nccl_MAJOR)
        set(_nccl_version "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
      endif()
      message(STATUS "ShardLab: CUDA backend ON (CUDA ${CUDAToolkit_VERSION}, NCCL ${_nccl_version} at ${NCCL_LIBRARY}, archs ${CMAKE_CUDA_ARCHITECTURES})")
    endif()
  endif()
endif()
if(NOT SHARDLAB_HAVE_CUDA)
  message(STATUS "ShardLab: CUDA toolkit, cuBLAS or NCCL not found: building the CPU backend only")
endif()
