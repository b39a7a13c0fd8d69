# Pipeline and tensor parallelism end to end (issue 3), through the real shardlab-run
# and mpirun. Included from tests/integration/CMakeLists.txt.
if(NOT COMMAND shardlab_integration_test)
  # Stand-alone fallback: the same helper the integration folder defines.
  if(NOT TARGET shardlab_test_run)
    add_library(shardlab_test_run STATIC ${CMAKE_CURRENT_LIST_DIR}/RunShardlab.cpp)
    target_include_directories(shardlab_test_run PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  endif()
  function(shardlab_integration_test name)
    add_executable(${name} ${ARGN})
    target_link_libraries(${name} PRIVATE shardlab_test_run shardlab_trace shardlab_core GTest::gtest_main)
    add_dependencies(${name} shardlab-run shardlab-worker)
    gtest_discover_tests(${name}
      PROPERTIES LABELS integration
                 ENVIRONMENT "SHARDLAB_RUN=$<TARGET_FILE:shardlab-run>"
                 TIMEOUT 300
      DISCOVERY_TIMEOUT 30)
  endfunction()
endif()

# Test names start with pipeline_ or tp_: `ctest -L integration -R 'pipeline|tp'`.
shardlab_integration_test(pipeline_tests
  ${CMAKE_CURRENT_LIST_DIR}/pipeline_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pipeline_faults_test.cpp)
shardlab_integration_test(tp_tests ${CMAKE_CURRENT_LIST_DIR}/tp_test.cpp)
