# Tests of the DMatrix part of the C API (docs/c-api.md, "DMatrix").

# The JSON reader and array-interface parser are internal: linked from the object library.
treering_add_test(capi_json_reader_test SOURCES json_reader_test.cc dmatrix_version_test.cc
  LIBS treering_capi_impl)
target_include_directories(capi_json_reader_test PRIVATE ${PROJECT_SOURCE_DIR}/capi/src)

# The same matrices in libtreering.so and Debian's libxgboost.so.0 (XGBoost 1.7), via ctypes.
add_test(NAME capi_dmatrix_peer
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/dmatrix_peer_test.py ${CMAKE_BINARY_DIR})
set_tests_properties(capi_dmatrix_peer PROPERTIES LABELS integration SKIP_RETURN_CODE 77
  TIMEOUT 120)

# The DMatrix calls through the C API only. Linked from the object library (not
# libtreering.so) so the test also runs on a branch where XGBGetLastError is not yet defined.
treering_add_test(capi_dmatrix_test
  SOURCES dmatrix_create_test.cc dmatrix_info_test.cc
  LIBS treering_capi_impl treering_test_files)

# Random and mutated JSON / array interfaces / configs: no crash (ASan runs it: `unit` label).
treering_add_test(capi_dmatrix_fuzz_test SOURCES dmatrix_fuzz_test.cc LIBS treering_capi_impl)
target_include_directories(capi_dmatrix_fuzz_test PRIVATE ${PROJECT_SOURCE_DIR}/capi/src)
