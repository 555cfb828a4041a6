# Predictions, dumps, attributes, feature info and scores (capi/predict.cmake).
add_test(NAME capi_predict_peer
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/predict_peer_test.py ${CMAKE_BINARY_DIR})
set_tests_properties(capi_predict_peer PROPERTIES LABELS integration SKIP_RETURN_CODE 77
  TIMEOUT 300)

# Eight threads on one booster; bad input never crashes (unit: runs under ASan in CI).
treering_add_test(capi_predict_threads_test
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/predict_threads_test.cc LIBS treering_shared)
treering_add_test(capi_predict_errors_test
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/predict_errors_test.cc LIBS treering_shared)

# The request fast path is internal: linked from the object library.
treering_add_test(capi_request_scan_test SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/request_scan_test.cc
  LIBS treering_capi_impl)
target_include_directories(capi_request_scan_test PRIVATE ${PROJECT_SOURCE_DIR}/capi/src)
