# Pipeline and tensor parallelism end to end (issue 3), through the real shardlab-run
# and mpirun. Included from tests/integration/CMakeLists.txt.

# Test names start with pipeline_ or tp_: `ctest -L integration -R 'pipeline|tp'`.
shardlab_integration_test(pipeline_tests
  ${CMAKE_CURRENT_LIST_DIR}/pipeline_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pipeline_faults_test.cpp)
shardlab_integration_test(tp_tests ${CMAKE_CURRENT_LIST_DIR}/tp_test.cpp)
