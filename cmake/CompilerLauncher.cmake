# ccache, when it is installed (docs/performance.md, "Build time"). Included by the
# top-level CMakeLists.txt before any target. Nothing changes where ccache is absent
# (scripts/setup.sh does not install it), and SHARDLAB_CCACHE=OFF or a launcher given
# on the command line (-DCMAKE_CXX_COMPILER_LAUNCHER=...) turns this off.
#
# Two rules keep the cache from ever handing back a stale object:
# - ccache is a launcher in front of the real compiler (CMAKE_<LANG>_COMPILER_LAUNCHER),
#   never a masquerading `c++` symlink: the compiler ccache hashes is the one CMake
#   found; ccache keeps each object's dependency file (-MD -MF) with it and hands it
#   back on a hit, so Ninja's list of an object's headers stays whole and a changed
#   header still rebuilds every user.
# - The only sloppiness allowed is what precompiled headers need (pch_defines,
#   time_macros: ccache's manual, "Precompiled headers"); include_file_mtime and
#   include_file_ctime stay off, so a header written in the same second as a compile
#   is checked by content, not trusted by its time stamp.
option(SHARDLAB_CCACHE "Use ccache as the compiler launcher when it is installed" ON)
if(SHARDLAB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(SHARDLAB_CCACHE_PROGRAM ccache)
  if(SHARDLAB_CCACHE_PROGRAM)
    set(_launcher ${CMAKE_COMMAND} -E env CCACHE_SLOPPINESS=pch_defines,time_macros ${SHARDLAB_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_launcher})
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${_launcher})
    message(STATUS "ShardLab: compiling through ccache (${SHARDLAB_CCACHE_PROGRAM})")
  endif()
endif()
