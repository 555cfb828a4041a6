# predictions (DMatrix, legacy, inplace), dumps, attributes, feature info and scores
target_sources(treering_capi_impl PRIVATE
  src/predict_request.cc
  src/request_scan.cc
  src/predict_run.cc
  src/predict_dmatrix.cc
  src/predict_inplace.cc
  src/predict_model_info.cc
  src/predict_dump.cc
  src/feature_naming.cc
)
