/* treering's C API: XGBoost 1.7's C API (names, types, argument order and meaning), served by
 * treering's learner, data loaders and collectives from libtreering.so.
 *
 * A program or binding written for XGBoost 1.7 (`#include <xgboost/c_api.h>`, `-lxgboost`)
 * builds against this header and links `-ltreering` unchanged. docs/c-api.md lists every
 * function, what it supports, what it refuses and where treering differs.
 *
 * Conventions (all as in XGBoost):
 * - Every `int` function returns 0 on success and -1 on failure; XGBGetLastError() then gives
 *   this thread's message, which names the argument at fault. No C++ exception crosses this
 *   boundary and no call aborts the process.
 * - Handles are opaque. A null, freed or wrong-kind handle is an error, never a crash.
 * - Arrays and strings returned through `out_*` pointers belong to the handle (or to the
 *   calling thread for global calls) and stay valid until the next call on the same handle
 *   from the same thread, or until the handle is freed.
 * - Configuration strings are JSON objects; numeric arrays travel as NumPy array-interface
 *   JSON strings (`{"data": [ptr, true], "shape": [r, c], "typestr": "<f4", "version": 3}`).
 */
#ifndef TREERING_C_API_H_
#define TREERING_C_API_H_

#ifdef __cplusplus
#define XGB_EXTERN_C extern "C"
#include <cstddef>
#include <cstdint>
#include <cstdio>
#else
#define XGB_EXTERN_C
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#endif

/* Only the functions below are exported from libtreering.so (built -fvisibility=hidden). */
#define XGB_DLL XGB_EXTERN_C __attribute__((visibility("default")))

/* XGBoost's "unsigned long" of every length and count. */
typedef uint64_t bst_ulong; /* NOLINT */

typedef void* DMatrixHandle;    /* a data set with its labels and meta information */
typedef void* BoosterHandle;    /* a model with its parameters */
typedef void* DataIterHandle;   /* a user's batch iterator, passed back to its callbacks */
typedef void* DataHolderHandle; /* where XGBCallbackSetData puts a batch (legacy iterator) */
typedef void* TrackerHandle;    /* an in-process tracker (XGBoost 2.0's XGTracker* calls) */

/* ---------------------------------------------------------------------------------------- */
/* Library                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/* The XGBoost API version this library implements (1.7.x). Any pointer may be null. */
XGB_DLL void XGBoostVersion(int* major, int* minor, int* patch);
/* JSON object describing the build (compiler, OpenMP, MPI, treering's own version). */
XGB_DLL int XGBuildInfo(char const** out);
/* This thread's message for the last failed call ("" if none). */
XGB_DLL const char* XGBGetLastError(void);
/* Log lines (warnings, verbose output, the in-process tracker's lines and its workers' prints)
 * go to `callback` instead of stderr; null restores stderr. One callback for the process. */
XGB_DLL int XGBRegisterLogCallback(void (*callback)(const char*));
/* Settings as a JSON object {"verbosity": 0..3, "use_rmm": bool}, per thread as in XGBoost (a
 * new thread starts from {"verbosity": 1, "use_rmm": false}). Set changes only the keys given;
 * an unknown key or a bad value is an error naming it and changes nothing. Boosters take the
 * verbosity as their default. use_rmm has no effect (no GPU). */
XGB_DLL int XGBSetGlobalConfig(char const* config);
XGB_DLL int XGBGetGlobalConfig(char const** out_config);

/* ---------------------------------------------------------------------------------------- */
/* DMatrix: creation                                                                        */
/* ---------------------------------------------------------------------------------------- */

/* LibSVM or CSV: `path`, `path?format=libsvm|csv` (CSV's `label_column=N` too; treering's CSV
 * label is column 0 by default, XGBoost's CSV has none), a list or a glob; qid:N or FILE.group
 * give query groups. An external-memory cache suffix (`#cacheprefix`) is refused. In a
 * distributed job each rank loads its own part, as the CLI does. silent=0 reports the load on
 * stderr. */
XGB_DLL int XGDMatrixCreateFromFile(const char* fname, int silent, DMatrixHandle* out);
/* CSR from raw arrays: nindptr = rows + 1, nelem entries, num_col 0 = infer (XGBoost: 0
 * columns); a num_col below the largest index + 1 or an index repeated in a row is an error.
 * NaN values are absent. */
XGB_DLL int XGDMatrixCreateFromCSREx(const size_t* indptr, const unsigned* indices,
                                     const float* data, size_t nindptr, size_t nelem,
                                     size_t num_col, DMatrixHandle* out);
/* CSR from array-interface strings; config: {"missing": float (required), "nthread": int}. */
XGB_DLL int XGDMatrixCreateFromCSR(char const* indptr, char const* indices, char const* data,
                                   bst_ulong ncol, char const* config, DMatrixHandle* out);
/* Dense 1-D or 2-D array interface (any float, int or bool typestr, any strides); config as
 * above. NaN and `missing` are absent; an infinite value is an error unless missing is. */
XGB_DLL int XGDMatrixCreateFromDense(char const* data, char const* config, DMatrixHandle* out);
/* CSC from raw arrays: nindptr = columns + 1; num_row 0 = infer. */
XGB_DLL int XGDMatrixCreateFromCSCEx(const size_t* col_ptr, const unsigned* indices,
                                     const float* data, size_t nindptr, size_t nelem,
                                     size_t num_row, DMatrixHandle* out);
/* Row-major float matrix; values equal to `missing` (or NaN) are absent. */
XGB_DLL int XGDMatrixCreateFromMat(const float* data, bst_ulong nrow, bst_ulong ncol, float missing,
                                   DMatrixHandle* out);
XGB_DLL int XGDMatrixCreateFromMat_omp(const float* data, bst_ulong nrow, bst_ulong ncol,
                                       float missing, DMatrixHandle* out, int nthread);
/* Refused: datatable frames, CUDA memory (treering has no GPU support). */
XGB_DLL int XGDMatrixCreateFromDT(void** data, const char** feature_stypes, bst_ulong nrow,
                                  bst_ulong ncol, DMatrixHandle* out, int nthread);
XGB_DLL int XGDMatrixCreateFromCudaColumnar(char const* data, char const* config,
                                            DMatrixHandle* out);
XGB_DLL int XGDMatrixCreateFromCudaArrayInterface(char const* data, char const* config,
                                                  DMatrixHandle* out);

/* ---------------------------------------------------------------------------------------- */
/* DMatrix: batches from the caller (iterators)                                             */
/* ---------------------------------------------------------------------------------------- */

/* One CSR batch of the legacy (JVM) iterator. */
typedef struct {   /* NOLINT */
  size_t size;     /* rows in the batch */
  size_t columns;  /* columns of the batch */
  int64_t* offset; /* size + 1 row offsets */
  float* label;    /* size labels, or null */
  float* weight;   /* size weights, or null */
  int* index;      /* feature indices */
  float* value;    /* feature values */
} XGBoostBatchCSR;

XGB_EXTERN_C typedef int XGBCallbackSetData(DataHolderHandle handle, XGBoostBatchCSR batch);
XGB_EXTERN_C typedef int XGBCallbackDataIterNext(DataIterHandle data_handle,
                                                 XGBCallbackSetData* set_function,
                                                 DataHolderHandle set_function_handle);
/* Legacy iterator: `callback` returns 1 after handing a batch to set_function, 0 at the end.
 * A non-empty cache_info (external memory) is refused. */
XGB_DLL int XGDMatrixCreateFromDataIter(DataIterHandle data_handle,
                                        XGBCallbackDataIterNext* callback, const char* cache_info,
                                        DMatrixHandle* out);

/* The proxy is the slot a `next` callback fills with its batch (SetData* and SetInfo*). */
XGB_DLL int XGProxyDMatrixCreate(DMatrixHandle* out);
/* Returns 1 after filling the proxy with one more batch, 0 when the data is exhausted. */
XGB_EXTERN_C typedef int XGDMatrixCallbackNext(DataIterHandle iter);
XGB_EXTERN_C typedef void DataIterResetCallback(DataIterHandle handle);
/* Concatenates the iterator's batches; config: {"missing": .., "cache_prefix": "", "nthread":
 * ..}. A non-empty cache_prefix (external memory) is refused. */
XGB_DLL int XGDMatrixCreateFromCallback(DataIterHandle iter, DMatrixHandle proxy,
                                        DataIterResetCallback* reset, XGDMatrixCallbackNext* next,
                                        char const* config, DMatrixHandle* out);
/* As XGDMatrixCreateFromCallback; config also takes "max_bin". `ref` (a DMatrix whose cuts to
 * reuse) may be null. */
XGB_DLL int XGQuantileDMatrixCreateFromCallback(DataIterHandle iter, DMatrixHandle proxy,
                                                DataIterHandle ref, DataIterResetCallback* reset,
                                                XGDMatrixCallbackNext* next, char const* config,
                                                DMatrixHandle* out);
/* Refused (CUDA). */
XGB_DLL int XGDeviceQuantileDMatrixCreateFromCallback(DataIterHandle iter, DMatrixHandle proxy,
                                                      DataIterResetCallback* reset,
                                                      XGDMatrixCallbackNext* next, float missing,
                                                      int nthread, int max_bin, DMatrixHandle* out);
XGB_DLL int XGProxyDMatrixSetDataCudaArrayInterface(DMatrixHandle handle,
                                                    const char* c_interface_str);
XGB_DLL int XGProxyDMatrixSetDataCudaColumnar(DMatrixHandle handle, const char* c_interface_str);
/* The batch of a proxy: a dense array interface, or CSR array interfaces. */
XGB_DLL int XGProxyDMatrixSetDataDense(DMatrixHandle handle, char const* c_interface_str);
XGB_DLL int XGProxyDMatrixSetDataCSR(DMatrixHandle handle, char const* indptr, char const* indices,
                                     char const* data, bst_ulong ncol);
/* Refused (Arrow). */
XGB_DLL int XGImportArrowRecordBatch(DataIterHandle data_handle, void* ptr_array, void* ptr_schema);
XGB_DLL int XGDMatrixCreateFromArrowCallback(XGDMatrixCallbackNext* next, char const* config,
                                             DMatrixHandle* out);

/* ---------------------------------------------------------------------------------------- */
/* DMatrix: rows, meta information, queries                                                 */
/* ---------------------------------------------------------------------------------------- */

/* The rows idxset[0..len) (in that order, repeats allowed) with their meta information. */
XGB_DLL int XGDMatrixSliceDMatrix(DMatrixHandle handle, const int* idxset, bst_ulong len,
                                  DMatrixHandle* out);
/* allow_groups 0 refuses a matrix with query groups, as XGBoost does. */
XGB_DLL int XGDMatrixSliceDMatrixEx(DMatrixHandle handle, const int* idxset, bst_ulong len,
                                    DMatrixHandle* out, int allow_groups);
XGB_DLL int XGDMatrixFree(DMatrixHandle handle);
/* Writes the matrix as LibSVM text (docs/c-api.md: XGBoost's binary DMatrix format is an
 * internal cache format that treering does not write). */
XGB_DLL int XGDMatrixSaveBinary(DMatrixHandle handle, const char* fname, int silent);
/* field: label, weight, base_margin, group, qid, label_lower_bound, label_upper_bound,
 * feature_weights. Lengths must fit the rows (features for feature_weights). */
XGB_DLL int XGDMatrixSetInfoFromInterface(DMatrixHandle handle, char const* field,
                                          char const* c_interface_str);
XGB_DLL int XGDMatrixSetFloatInfo(DMatrixHandle handle, const char* field, const float* array,
                                  bst_ulong len);
XGB_DLL int XGDMatrixSetUIntInfo(DMatrixHandle handle, const char* field, const unsigned* array,
                                 bst_ulong len);
/* field: feature_name or feature_type (q, c, int, float, i); size must be the column count. */
XGB_DLL int XGDMatrixSetStrFeatureInfo(DMatrixHandle handle, const char* field,
                                       const char** features, const bst_ulong size);
XGB_DLL int XGDMatrixGetStrFeatureInfo(DMatrixHandle handle, const char* field, bst_ulong* size,
                                       const char*** out_features);
/* type: 1 float32, 2 float64, 3 uint32, 4 uint64. */
XGB_DLL int XGDMatrixSetDenseInfo(DMatrixHandle handle, const char* field, void const* data,
                                  bst_ulong size, int type);
/* Group sizes (ranking). */
XGB_DLL int XGDMatrixSetGroup(DMatrixHandle handle, const unsigned* group, bst_ulong len);
/* label, weight, base_margin, label_lower_bound, label_upper_bound, feature_weights. */
XGB_DLL int XGDMatrixGetFloatInfo(const DMatrixHandle handle, const char* field, bst_ulong* out_len,
                                  const float** out_dptr);
/* group_ptr (group boundaries, groups + 1 entries). */
XGB_DLL int XGDMatrixGetUIntInfo(const DMatrixHandle handle, const char* field, bst_ulong* out_len,
                                 const unsigned** out_dptr);
XGB_DLL int XGDMatrixNumRow(DMatrixHandle handle, bst_ulong* out);
XGB_DLL int XGDMatrixNumCol(DMatrixHandle handle, bst_ulong* out);
XGB_DLL int XGDMatrixNumNonMissing(DMatrixHandle handle, bst_ulong* out);
/* The matrix as CSR into caller-sized arrays (rows + 1, non-missing, non-missing); config
 * "{}". */
XGB_DLL int XGDMatrixGetDataAsCSR(DMatrixHandle const handle, char const* config,
                                  bst_ulong* out_indptr, unsigned* out_indices, float* out_data);

/* ---------------------------------------------------------------------------------------- */
/* Booster: life cycle, parameters, training                                                */
/* ---------------------------------------------------------------------------------------- */

/* A booster that will train on (and cache predictions for) dmats[0..len). */
XGB_DLL int XGBoosterCreate(const DMatrixHandle dmats[], bst_ulong len, BoosterHandle* out);
XGB_DLL int XGBoosterFree(BoosterHandle handle);
/* Rounds [begin_layer, end_layer) with `step` as a new booster (end 0: to the last round);
 * -2 when end_layer is beyond the model's rounds, as XGBoost (Python's IndexError). */
XGB_DLL int XGBoosterSlice(BoosterHandle handle, int begin_layer, int end_layer, int step,
                           BoosterHandle* out);
XGB_DLL int XGBoosterBoostedRounds(BoosterHandle handle, int* out);
/* Any key of the `treering` config file that is a learner parameter (docs/learner.md); an
 * unknown key or a bad value fails at the next training or prediction call, naming it. */
XGB_DLL int XGBoosterSetParam(BoosterHandle handle, const char* name, const char* value);
XGB_DLL int XGBoosterGetNumFeature(BoosterHandle handle, bst_ulong* out);
/* One boosting round on dtrain with the objective's gradients. */
XGB_DLL int XGBoosterUpdateOneIter(BoosterHandle handle, int iter, DMatrixHandle dtrain);
/* One boosting round with the caller's gradients (len = rows x groups). */
XGB_DLL int XGBoosterBoostOneIter(BoosterHandle handle, DMatrixHandle dtrain, float* grad,
                                  float* hess, bst_ulong len);
/* "[iter]\tname-metric:value..." for each set and metric. */
XGB_DLL int XGBoosterEvalOneIter(BoosterHandle handle, int iter, DMatrixHandle dmats[],
                                 const char* evnames[], bst_ulong len, const char** out_result);

/* ---------------------------------------------------------------------------------------- */
/* Booster: prediction                                                                      */
/* ---------------------------------------------------------------------------------------- */

/* Legacy: option_mask 1 margin, 2 leaf, 4 contribs, 8 approx contribs, 16 interactions;
 * ntree_limit 0 = all trees. */
XGB_DLL int XGBoosterPredict(BoosterHandle handle, DMatrixHandle dmat, int option_mask,
                             unsigned ntree_limit, int training, bst_ulong* out_len,
                             const float** out_result);
/* config: {"type": 0 value | 1 margin | 2 contribs | 3 approx contribs | 4 interactions |
 * 5 approx interactions | 6 leaf, "training": bool, "iteration_begin": int, "iteration_end":
 * int, "strict_shape": bool}. Output shape as XGBoost's. Safe from several threads. */
XGB_DLL int XGBoosterPredictFromDMatrix(BoosterHandle handle, DMatrixHandle dmat,
                                        char const* config, bst_ulong const** out_shape,
                                        bst_ulong* out_dim, float const** out_result);
/* Inplace prediction; config adds "missing" and takes "cache_id". `m` (a proxy, may be null)
 * carries base_margin. */
XGB_DLL int XGBoosterPredictFromDense(BoosterHandle handle, char const* values, char const* config,
                                      DMatrixHandle m, bst_ulong const** out_shape,
                                      bst_ulong* out_dim, const float** out_result);
XGB_DLL int XGBoosterPredictFromCSR(BoosterHandle handle, char const* indptr, char const* indices,
                                    char const* values, bst_ulong ncol, char const* config,
                                    DMatrixHandle m, bst_ulong const** out_shape,
                                    bst_ulong* out_dim, const float** out_result);
/* Refused (CUDA). */
XGB_DLL int XGBoosterPredictFromCudaArray(BoosterHandle handle, char const* values,
                                          char const* config, DMatrixHandle m,
                                          bst_ulong const** out_shape, bst_ulong* out_dim,
                                          const float** out_result);
XGB_DLL int XGBoosterPredictFromCudaColumnar(BoosterHandle handle, char const* values,
                                             char const* config, DMatrixHandle m,
                                             bst_ulong const** out_shape, bst_ulong* out_dim,
                                             const float** out_result);

/* ---------------------------------------------------------------------------------------- */
/* Booster: models, configuration, attributes                                               */
/* ---------------------------------------------------------------------------------------- */

/* .json, .ubj, or XGBoost's legacy binary (any other name), as the CLI. */
XGB_DLL int XGBoosterLoadModel(BoosterHandle handle, const char* fname);
XGB_DLL int XGBoosterSaveModel(BoosterHandle handle, const char* fname);
/* Any of the three formats, recognised by content. */
XGB_DLL int XGBoosterLoadModelFromBuffer(BoosterHandle handle, const void* buf, bst_ulong len);
/* config: {"format": "json" | "ubj" | "deprecated"}. */
XGB_DLL int XGBoosterSaveModelToBuffer(BoosterHandle handle, char const* config, bst_ulong* out_len,
                                       char const** out_dptr);
/* The legacy binary model (deprecated in XGBoost too). */
XGB_DLL int XGBoosterGetModelRaw(BoosterHandle handle, bst_ulong* out_len, const char** out_dptr);
/* Model and configuration together (what pickling keeps); Unserialize also reads XGBoost
 * 1.7's UBJSON pickles. A failed load leaves the booster as it was. */
XGB_DLL int XGBoosterSerializeToBuffer(BoosterHandle handle, bst_ulong* out_len,
                                       const char** out_dptr);
XGB_DLL int XGBoosterUnserializeFromBuffer(BoosterHandle handle, const void* buf, bst_ulong len);
/* Rabit checkpoints of the model (version = rounds checkpointed). */
XGB_DLL int XGBoosterLoadRabitCheckpoint(BoosterHandle handle, int* version);
XGB_DLL int XGBoosterSaveRabitCheckpoint(BoosterHandle handle);
/* {"learner": {...}, "version": [1, 7, 4]} as XGBoost's save_config. */
XGB_DLL int XGBoosterSaveJsonConfig(BoosterHandle handle, bst_ulong* out_len, char const** out_str);
XGB_DLL int XGBoosterLoadJsonConfig(BoosterHandle handle, char const* config);
/* One string per tree; format "text" | "json"; fmap a feature map file or "". */
XGB_DLL int XGBoosterDumpModel(BoosterHandle handle, const char* fmap, int with_stats,
                               bst_ulong* out_len, const char*** out_dump_array);
XGB_DLL int XGBoosterDumpModelEx(BoosterHandle handle, const char* fmap, int with_stats,
                                 const char* format, bst_ulong* out_len,
                                 const char*** out_dump_array);
XGB_DLL int XGBoosterDumpModelWithFeatures(BoosterHandle handle, int fnum, const char** fname,
                                           const char** ftype, int with_stats, bst_ulong* out_len,
                                           const char*** out_models);
XGB_DLL int XGBoosterDumpModelExWithFeatures(BoosterHandle handle, int fnum, const char** fname,
                                             const char** ftype, int with_stats, const char* format,
                                             bst_ulong* out_len, const char*** out_models);
/* *success 0 and *out null when the attribute is not set. value null deletes it. */
XGB_DLL int XGBoosterGetAttr(BoosterHandle handle, const char* key, const char** out, int* success);
XGB_DLL int XGBoosterSetAttr(BoosterHandle handle, const char* key, const char* value);
XGB_DLL int XGBoosterGetAttrNames(BoosterHandle handle, bst_ulong* out_len, const char*** out);
/* feature_name / feature_type of the model (size 0 clears them). */
XGB_DLL int XGBoosterSetStrFeatureInfo(BoosterHandle handle, const char* field,
                                       const char** features, const bst_ulong size);
XGB_DLL int XGBoosterGetStrFeatureInfo(BoosterHandle handle, const char* field, bst_ulong* len,
                                       const char*** out_features);
/* config: {"importance_type": weight | gain | cover | total_gain | total_cover,
 * "feature_map": ""}. Features are named fN without feature names. */
XGB_DLL int XGBoosterFeatureScore(BoosterHandle handle, const char* config,
                                  bst_ulong* out_n_features, char const*** out_features,
                                  bst_ulong* out_dim, bst_ulong const** out_shape,
                                  float const** out_scores);

/* ---------------------------------------------------------------------------------------- */
/* Collective (the process's rabit engine, as the CLI's workers use it)                      */
/* ---------------------------------------------------------------------------------------- */

/* config: JSON object of DMLC_* / dmlc_* / rabit_* keys (strings, numbers or booleans; dmlc_x
 * means DMLC_X) and xgboost_communicator / dmlc_communicator ("rabit", "mpi"), over the DMLC_*
 * environment; "{}" or null with no tracker gives a world of one. XGTrackerWorkerArgs' JSON is
 * a complete config. Federated learning and unknown keys are refused; a second Init without
 * Finalize is refused. */
XGB_DLL int XGCommunicatorInit(char const* config);
XGB_DLL int XGCommunicatorFinalize(void);
/* Rank, world size and is-distributed return the value itself (never -1). */
XGB_DLL int XGCommunicatorGetRank(void);
XGB_DLL int XGCommunicatorGetWorldSize(void);
XGB_DLL int XGCommunicatorIsDistributed(void);
/* Prints on the tracker's console (stdout without a tracker). */
XGB_DLL int XGCommunicatorPrint(char const* message);
XGB_DLL int XGCommunicatorGetProcessorName(const char** name_str);
XGB_DLL int XGCommunicatorBroadcast(void* send_receive_buffer, size_t size, int root);
/* data_type: 0 int8, 1 uint8, 2 int32, 3 uint32, 4 int64, 5 uint64, 6 float, 7 double;
 * op: 0 max, 1 min, 2 sum (XGBoost 1.7), and XGBoost 2.0's 3 bitwise and, 4 bitwise or,
 * 5 bitwise xor (integer types only). Other numbers are refused. */
XGB_DLL int XGCommunicatorAllreduce(void* send_receive_buffer, size_t count, int data_type, int op);

/* ---------------------------------------------------------------------------------------- */
/* Tracker in this process (XGBoost 2.0's names; no Python needed)                           */
/* ---------------------------------------------------------------------------------------- */

/* config: {"n_workers": int, "host" (or "host_ip"): "auto" | address, "port": 0 | int,
 * "timeout": bootstrap seconds (0 = none), "token": "" (generated) | text, "legacy": bool (also
 * accept XGBoost 1.7's own workers)}. The tracker listens once created. */
XGB_DLL int XGTrackerCreate(char const* config, TrackerHandle* handle);
/* {"dmlc_tracker_uri", "dmlc_tracker_port", "dmlc_num_worker", "rabit_job_token"}: the JSON a
 * worker passes to XGCommunicatorInit (add "dmlc_task_id" for a stable rank). */
XGB_DLL int XGTrackerWorkerArgs(TrackerHandle handle, char const** args);
/* Starts serving the job in a background thread. */
XGB_DLL int XGTrackerRun(TrackerHandle handle, char const* config);
/* Waits until every worker has finished; config {"timeout": s} (0 = no limit). */
XGB_DLL int XGTrackerWaitFor(TrackerHandle handle, char const* config);
XGB_DLL int XGTrackerFree(TrackerHandle handle);

#endif /* TREERING_C_API_H_ */
