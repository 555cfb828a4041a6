# Tests of the booster part of the C API (docs/c-api.md, "Booster").
treering_add_test(capi_booster_bad_input_test SOURCES booster_bad_input_test.cc
  LIBS treering_shared)
# The CLI and the C API are one code path: byte-identical models.
add_test(NAME capi_booster_identity COMMAND /usr/bin/python3
  ${CMAKE_CURRENT_SOURCE_DIR}/booster_identity_test.py ${CMAKE_BINARY_DIR})
# Against the peer, Debian's libxgboost.so.0.
add_test(NAME capi_booster_peer COMMAND /usr/bin/python3
  ${CMAKE_CURRENT_SOURCE_DIR}/booster_peer_test.py ${CMAKE_BINARY_DIR})
set_tests_properties(capi_booster_identity capi_booster_peer PROPERTIES LABELS integration
  SKIP_RETURN_CODE 77 TIMEOUT 600)
