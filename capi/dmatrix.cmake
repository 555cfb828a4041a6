# DMatrix part of the C API: JSON configs, array interfaces, DMatrix creation, iterators,
# meta information and queries (docs/c-api/dmatrix.md).
target_sources(treering_capi_impl PRIVATE
  src/json_reader.cc
  src/array_interface.cc
)
