# `cpack -G DEB` in a build folder (or `cpack --preset package`) makes
# shardlab_<version>_amd64.deb of what cmake/Install.cmake installs, under /usr.
#
# The .deb is CPU-only: build it from the `package` preset (SHARDLAB_WITH_CUDA=OFF).
# A CUDA build's launcher and worker link libcudart, cuBLAS and NCCL from NVIDIA's
# toolkit (/usr/local/cuda, pip), which no Debian package provides, so dpkg-shlibdeps
# cannot name them and a lab machine without that toolkit could not even start the
# worker. A GPU machine builds ShardLab itself with CUDA (README command 1 does, with
# CMAKE_CUDA_ARCHITECTURES=native; docs/gpu.md). cpack in a CUDA build folder still
# makes a package (the package test runs in the ci build, which has CUDA where the
# toolkit is): CPack runs dpkg-shlibdeps with --ignore-missing-info, so NVIDIA's
# libraries are reported and left out of Depends; such a .deb is for that test only.
#
# Dependencies: dpkg-shlibdeps reads them from the programs (Qt 6, QCustomPlot, Open
# MPI, OpenBLAS, libstdc++ ...); openmpi-bin is added by name, since shardlab-run runs
# `mpirun`, a program, not a library.
set(CPACK_PACKAGE_NAME shardlab)
set(CPACK_PACKAGE_VENDOR "ShardLab")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "learn distributed training by running it")
set(CPACK_PACKAGE_INSTALL_DIRECTORY shardlab)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_PACKAGE_NAME shardlab)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "ShardLab maintainers <maintainers@users.noreply.a-seed-6b28ea2c.example>"
    CACHE STRING "Maintainer field of the .deb")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# CPack writes the synopsis (CPACK_PACKAGE_DESCRIPTION_SUMMARY) and indents these
# lines itself, an empty line becoming " ." (CPackDeb, CMake >= 3.16).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "ShardLab teaches how large models are trained on many devices. It runs small
but real training jobs (DDP, FSDP and the ZeRO stages, pipeline and tensor
parallelism) on CPU ranks under Open MPI, records every operation, collective
and allocation in a trace, and animates that trace in a Qt desktop app with
lessons and quizzes about the learner's own numbers.

Programs: shardlab (the app), shardlab-run (runs a job through mpirun),
shardlab-worker (one rank), shardlab-quiz, shardlab-replay. This package is
built without the CUDA backend.")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin")

if(SHARDLAB_HAVE_CUDA)
  message(STATUS "ShardLab: this build has the CUDA backend: make the .deb from a CPU-only build "
                 "(cmake --preset package); a package of this one would leave NVIDIA's libraries undeclared")
endif()

# Debian's native-package changelog, compressed reproducibly (gzip -n).
string(TIMESTAMP SHARDLAB_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${PROJECT_SOURCE_DIR}/packaging/changelog.in ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
find_program(SHARDLAB_GZIP gzip)
if(SHARDLAB_GZIP)
  execute_process(COMMAND ${SHARDLAB_GZIP} -n -9 -f -k ${CMAKE_BINARY_DIR}/packaging/changelog)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/shardlab COMPONENT shardlab)
endif()

include(CPack)
