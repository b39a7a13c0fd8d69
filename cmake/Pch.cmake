# Precompiled headers (docs/performance.md, "Build time"). Included by the top-level
# CMakeLists.txt after every target exists, so the folders' own CMakeLists.txt stay as
# they are. SHARDLAB_PCH=OFF builds without them (the asan and tsan presets do: those
# builds keep checking that each file includes what it uses).
#
# Almost every translation unit includes nlohmann/json.hpp (through job/JobConfig.h),
# the app's also QtWidgets, the tests' also GoogleTest: parsing those is most of a
# small file's compile time. Each target gets its own PCH (REUSE_FROM would need the
# same flags, and -Winvalid-pch with -Werror fails where they differ), so a PCH costs
# one extra compile per target: only targets with at least SHARDLAB_PCH_MIN_SOURCES
# C++ files get one.
set(SHARDLAB_PCH_MIN_SOURCES 3 CACHE STRING "Smallest number of .cpp files for which a target gets a precompiled header")

set(_shardlab_pch_std <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional>
  <set> <sstream> <string> <string_view> <utility> <vector>)
set(_shardlab_pch_json <nlohmann/json.hpp>)
set(_shardlab_pch_gtest <gtest/gtest.h>)
set(_shardlab_pch_qt <QCoreApplication> <QEvent> <QHBoxLayout> <QLabel> <QLocale> <QPainter>
  <QPushButton> <QString> <QVBoxLayout> <QWidget>)

function(_shardlab_cxx_source_count target out)
  get_target_property(_sources ${target} SOURCES)
  set(_n 0)
  foreach(_s IN LISTS _sources)
    if(_s MATCHES "\\.(cpp|cc|cxx)$")
      math(EXPR _n "${_n} + 1")
    endif()
  endforeach()
  set(${out} ${_n} PARENT_SCOPE)
endfunction()

# shardlab_pch(target [QT] [GTEST]): the standard headers and nlohmann-json, plus Qt
# and/or GoogleTest. Not for targets with .cu files (the CUDA backend and its tests are
# left out below).
function(shardlab_pch target)
  cmake_parse_arguments(arg "QT;GTEST" "" "" ${ARGN})
  if(NOT SHARDLAB_PCH OR NOT TARGET ${target})
    return()
  endif()
  _shardlab_cxx_source_count(${target} _n)
  if(_n LESS SHARDLAB_PCH_MIN_SOURCES)
    return()
  endif()
  set(_headers ${_shardlab_pch_std} ${_shardlab_pch_json})
  if(arg_GTEST)
    list(APPEND _headers ${_shardlab_pch_gtest})
  endif()
  if(arg_QT)
    list(APPEND _headers ${_shardlab_pch_qt})
  endif()
  target_precompile_headers(${target} PRIVATE ${_headers})
endfunction()

# Every target defined in DIR (not its subfolders).
function(_shardlab_dir_targets dir out)
  get_property(_targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  set(${out} ${_targets} PARENT_SCOPE)
endfunction()

if(SHARDLAB_PCH)
  foreach(_t shardlab_job shardlab_trace shardlab_core shardlab_comm shardlab_strategies shardlab-run shardlab_quiz)
    shardlab_pch(${_t})
  endforeach()
  shardlab_pch(shardlab_app QT)
  if(SHARDLAB_BUILD_TESTS)
    foreach(_dir engine trace comm integration quiz)
      if(EXISTS ${PROJECT_SOURCE_DIR}/tests/${_dir}/CMakeLists.txt)
        _shardlab_dir_targets(${PROJECT_SOURCE_DIR}/tests/${_dir} _targets)
        foreach(_t IN LISTS _targets)
          get_target_property(_type ${_t} TYPE)
          if(_type STREQUAL "EXECUTABLE" OR _type STREQUAL "STATIC_LIBRARY")
            shardlab_pch(${_t} GTEST)
          endif()
        endforeach()
      endif()
    endforeach()
    if(SHARDLAB_BUILD_APP)
      shardlab_pch(shardlab_app_tests QT GTEST)
    endif()
  endif()
endif()
