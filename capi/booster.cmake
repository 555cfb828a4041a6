# The booster part of the C API: life cycle, parameters, training, models and configuration
# (docs/c-api.md, "Booster").
target_sources(treering_capi_impl PRIVATE
  src/booster_object.cc
  src/booster_api.cc
  src/booster_model_api.cc
  src/booster_config.cc
)
target_link_libraries(treering_capi_impl PRIVATE nlohmann_json::nlohmann_json)
