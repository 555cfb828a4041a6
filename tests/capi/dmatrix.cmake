# Tests of the DMatrix part of the C API (docs/c-api/dmatrix.md).

# The JSON reader and array-interface parser are internal: linked from the object library.
treering_add_test(capi_json_reader_test SOURCES json_reader_test.cc
  LIBS treering_capi_impl)
target_include_directories(capi_json_reader_test PRIVATE ${PROJECT_SOURCE_DIR}/capi/src)
