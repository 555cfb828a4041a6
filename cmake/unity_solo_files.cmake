# Files the sanitizer build's unity batches (CMakeLists.txt) must compile on their own: each
# reuses a file-local name (an anonymous-namespace helper or constant, or a `using` of
# treering::Result) that another file of its library also defines, which is legal one file at a
# time and a redefinition once batched. A new file that fails only in the sanitizer build with
# "redefinition of ... {anonymous}" belongs here (or gets a distinct name).
set(_treering_unity_solo
  rabit               src/transport/mailbox.cc
  rabit               src/transport/mailbox_stream.cc
  rabit               src/transport/mailbox_local_put.cc
  rabit               src/slurm_rendezvous.cc
  tracker             src/status/job_status.cc
  tracker             src/launch/slurm_batch.cc
  tracker             src/launch/supervisor.cc
  booster/model       src/ubjson_skip.cc
  booster/model       src/json_dump.cc
  booster/tree        sketch/global_prune.cc
  capi                src/booster_model_api.cc
)
list(LENGTH _treering_unity_solo _n)
math(EXPR _last "${_n} - 1")
foreach(_i RANGE 0 ${_last} 2)
  math(EXPR _j "${_i} + 1")
  list(GET _treering_unity_solo ${_i} _dir)
  list(GET _treering_unity_solo ${_j} _file)
  set_source_files_properties(${CMAKE_SOURCE_DIR}/${_dir}/${_file}
    DIRECTORY ${CMAKE_SOURCE_DIR}/${_dir} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endforeach()
