# DMatrix part of the C API: JSON configs, array interfaces, DMatrix creation, iterators,
# meta information and queries (docs/c-api.md, "DMatrix").
target_sources(treering_capi_impl PRIVATE
  src/json_reader.cc
  src/array_interface.cc
  src/dmatrix_build.cc
  src/c_api_dmatrix_create.cc
  src/c_api_dmatrix_iter.cc
  src/c_api_dmatrix_info.cc
  src/c_api_dmatrix_query.cc
)
