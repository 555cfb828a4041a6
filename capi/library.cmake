# library part: the global calls, the collective, the in-process tracker (sources below), and
# the packaging of libtreering: the exported-symbol list, the static variant, the install rules
# and the CMake / pkg-config packages (treering_library_packaging, run once every target of the
# project exists).
target_sources(treering_capi_impl PRIVATE
  src/global_config.cc
  src/global_api.cc
  src/communicator_config.cc
  src/collective_api.cc
  src/tracker_object.cc
  src/tracker_api.cc
)
find_package(nlohmann_json 3.10 REQUIRED)
target_link_libraries(treering_capi_impl PRIVATE nlohmann_json::nlohmann_json)
target_compile_definitions(treering_capi_impl PRIVATE
  TREERING_VERSION_STRING="${PROJECT_VERSION}" $<$<BOOL:${TREERING_MPI}>:TREERING_WITH_MPI>)

include(${CMAKE_CURRENT_LIST_DIR}/packaging.cmake)
set_property(GLOBAL PROPERTY TREERING_CAPI_DIR ${CMAKE_CURRENT_LIST_DIR})
# treering_shared is defined after the parts in capi/CMakeLists.txt and the tools elsewhere:
# the packaging runs at the end of the top-level directory.
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL treering_library_packaging)
