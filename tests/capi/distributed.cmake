# Distributed training through the C API equals the CLI's: 2 worker processes (a C program
# linked against libtreering.so) under a tracker the Python driver starts in its own process,
# against `treering-submit --num-workers 2 treering`; byte-identical models, same metric lines.
add_executable(capi_distributed_train_worker distributed_train_worker.c)
target_link_libraries(capi_distributed_train_worker PRIVATE treering_shared)
set_target_properties(capi_distributed_train_worker PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
add_test(NAME capi_distributed
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/distributed_test.py ${CMAKE_BINARY_DIR}
    $<TARGET_FILE:capi_distributed_train_worker>)
set_tests_properties(capi_distributed PROPERTIES LABELS "integration;capi" TIMEOUT 300
  SKIP_RETURN_CODE 77)
