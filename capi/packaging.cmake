# Packaging of libtreering (see library.cmake): treering_library_packaging() runs once every
# target of the project exists.
#   libtreering.so  only the C API exported (treering.map), versioned SONAME (capi/CMakeLists)
#   libtreering.a   every object the C API needs in one archive (treering_static)
#   install         libraries, headers (treering/c_api.h, the compat header, the collective
#                   C++ headers), the command-line tools, the CMake and pkg-config packages
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)



# The project's static and object libraries that `root` needs, in dependency order, and the
# imported (external) targets reached on the way.
function(treering_link_closure root out_archives out_external)
  set(queue ${root})
  set(seen "")
  set(archives "")
  set(external "")
  while(queue)
    list(POP_FRONT queue t)
    if(t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(imported ${t} IMPORTED)
    if(imported)
      list(APPEND external ${t})
      continue()
    endif()
    get_target_property(type ${t} TYPE)
    if(NOT t STREQUAL root AND type MATCHES "^(STATIC|OBJECT)_LIBRARY$")
      list(APPEND archives ${t})
    endif()
    set(deps "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND deps ${direct})
      endif()
    endif()
    get_target_property(interface ${t} INTERFACE_LINK_LIBRARIES)
    if(interface)
      list(APPEND deps ${interface})
    endif()
    foreach(d IN LISTS deps)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
      if(TARGET ${d})
        list(APPEND queue ${d})
      endif()
    endforeach()
  endwhile()
  set(${out_archives} ${archives} PARENT_SCOPE)
  set(${out_external} ${external} PARENT_SCOPE)
endfunction()

function(treering_library_packaging)
  get_property(TREERING_CAPI_DIR GLOBAL PROPERTY TREERING_CAPI_DIR)
  # --- libtreering.so: the C API only -------------------------------------------------------
  target_link_options(treering_shared PRIVATE
    "LINKER:--version-script=${TREERING_CAPI_DIR}/treering.map"
    "LINKER:--exclude-libs,ALL" "LINKER:--no-undefined")
  set_property(TARGET treering_shared APPEND PROPERTY LINK_DEPENDS
    ${TREERING_CAPI_DIR}/treering.map)

  # --- libtreering.a: one archive of every object the C API needs -------------------------
  treering_link_closure(treering_capi_impl archives external)
  set(objects $<TARGET_OBJECTS:treering_capi_impl>)
  foreach(a IN LISTS archives)
    list(APPEND objects $<TARGET_OBJECTS:${a}>)
  endforeach()
  add_library(treering_static STATIC ${objects})
  set_target_properties(treering_static PROPERTIES OUTPUT_NAME treering)
  # The dependencies the packages below declare; a new one must be added there too.
  set(declared Threads::Threads OpenMP::OpenMP_CXX OpenSSL::Crypto OpenSSL::SSL
    PkgConfig::OPENBLAS MPI::MPI_CXX Boost::boost Boost::headers nlohmann_json::nlohmann_json
    CLI11::CLI11)
  foreach(e IN LISTS external)
    if(NOT e IN_LIST declared)
      message(WARNING "libtreering.a depends on ${e}, which treeringConfig.cmake and "
        "treering.pc do not declare (capi/packaging/)")
    endif()
  endforeach()
  list(JOIN archives " " archive_list)
  message(STATUS "libtreering.a bundles: ${archive_list}")

  # --- install ------------------------------------------------------------------------------
  set(tools "")
  foreach(tool treering treering-tracker treering-submit treering-data)
    if(TARGET ${tool})
      list(APPEND tools ${tool})
    endif()
  endforeach()
  install(TARGETS treering_shared treering_static ${tools}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set(inc ${CMAKE_INSTALL_INCLUDEDIR}/treering)
  install(FILES ${TREERING_CAPI_DIR}/include/treering/c_api.h DESTINATION ${inc})
  install(FILES ${TREERING_CAPI_DIR}/include/treering/compat/xgboost/c_api.h
    DESTINATION ${inc}/compat/xgboost)
  # The collective C++ API (rabit.h and what it includes), for C++ programs that link
  # libtreering.a: libtreering.so exports only the C API.
  file(GLOB rabit_headers ${CMAKE_SOURCE_DIR}/rabit/include/rabit/*.h)
  install(FILES ${rabit_headers} DESTINATION ${inc}/collective/rabit)
  install(FILES ${CMAKE_SOURCE_DIR}/base/include/base/status.h
    ${CMAKE_SOURCE_DIR}/base/include/base/param_table.h DESTINATION ${inc}/collective/base)

  # --- CMake and pkg-config packages --------------------------------------------------------
  set(out ${CMAKE_BINARY_DIR}/packaging)
  set(TREERING_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  if(TREERING_MPI)
    set(TREERING_MPI ON)
    set(TREERING_PC_MPI " ompi-c")
  else()
    set(TREERING_MPI OFF)
    set(TREERING_PC_MPI "")
  endif()
  set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/treering)
  configure_package_config_file(${TREERING_CAPI_DIR}/packaging/treeringConfig.cmake.in
    ${out}/treeringConfig.cmake INSTALL_DESTINATION ${cmake_dir}
    PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
  write_basic_package_version_file(${out}/treeringConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${out}/treeringConfig.cmake ${out}/treeringConfigVersion.cmake
    DESTINATION ${cmake_dir})
  configure_file(${TREERING_CAPI_DIR}/packaging/treering.pc.in ${out}/treering.pc @ONLY)
  configure_file(${TREERING_CAPI_DIR}/packaging/treering-static.pc.in
    ${out}/treering-static.pc @ONLY)
  install(FILES ${out}/treering.pc ${out}/treering-static.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
