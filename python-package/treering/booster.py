"""Booster: XGBoost 1.7's model object over treering's C API (also reachable as core.Booster)."""
import copy
import ctypes
import functools
import json
import os
import warnings

import numpy as np

from . import data as _data
from .dmatrix import DMatrix, _get_str_feature_info, _set_str_feature_info
from .libcall import (_LIB, XGBoostError, _c_array, _c_str, _check_call, _from_cstr_list,
                      _prediction_output, _str_array, c_bst_ulong)

_PREDICT_OUT = (ctypes.POINTER(c_bst_ulong), c_bst_ulong, ctypes.POINTER(ctypes.c_float))


def _configure_metrics(params):
    # A list of metrics becomes repeated eval_metric pairs, as the C API adds each one.
    if isinstance(params, dict) and isinstance(params.get("eval_metric"), list):
        params = dict(params)
        metrics = params.pop("eval_metric")
        params = list(params.items()) + [("eval_metric", m) for m in metrics]
    return params


def _param_str(value):
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


@functools.lru_cache(maxsize=64)
def _inplace_config(value, begin, end, missing, strict_shape):
    """The inplace-predict config JSON (cached: a one-row predict is tens of microseconds, and
    json.dumps was a tenth of it)."""
    args = {"type": 0 if value else 1, "training": False, "iteration_begin": begin,
            "iteration_end": end, "missing": missing, "strict_shape": strict_shape,
            "cache_id": 0}
    return _c_str(json.dumps(args, allow_nan=True))


class Booster:
    """A gradient-boosted model (XGBoost's Booster)."""

    def __init__(self, params=None, cache=None, model_file=None):
        cache = list(cache) if cache is not None else []
        for dmat in cache:
            if not isinstance(dmat, DMatrix):
                raise TypeError(f"invalid cache item: {type(dmat).__name__}", cache)
        handles = _c_array(ctypes.c_void_p, [d.handle for d in cache])
        self.handle = ctypes.c_void_p()
        _check_call(_LIB.XGBoosterCreate(handles, c_bst_ulong(len(cache)),
                                         ctypes.byref(self.handle)))
        for dmat in cache:
            self._validate_dmatrix_features(dmat)
        if isinstance(model_file, Booster):
            state = model_file.__getstate__()
            raw = state.pop("handle")
            self._unserialize(raw)
            self.__dict__.update(state)
        elif isinstance(model_file, (str, os.PathLike, bytearray)):
            self.load_model(model_file)
        elif model_file is not None:
            raise TypeError("Unknown type:", model_file)
        # Parameters come after the model so that they override what it was trained with.
        params = _configure_metrics(dict(params) if isinstance(params, dict)
                                    else list(params or []))
        params = self._configure_constraints(params)
        if isinstance(params, list):
            params.append(("validate_parameters", True))
        else:
            params["validate_parameters"] = True
        self.set_param(params)

    def _configure_constraints(self, params):
        # Constraints given by feature name become XGBoost's index forms.
        items = params.items() if isinstance(params, dict) else list(params)
        out = []
        for name, value in items:
            # The key first: a value may be a numpy array (quantile_alpha), which has no truth.
            if name == "monotone_constraints" and isinstance(value, dict) and value:
                names = self.feature_names or []
                if not set(value).issubset(names):
                    raise ValueError("Constrained features are not a subset of training data "
                                     "feature names")
                value = tuple(value.get(n, 0) for n in names)
            elif name == "interaction_constraints" and not isinstance(value, str) and value:
                index = {n: i for i, n in enumerate(self.feature_names or [])}
                try:
                    value = [[index[f] if isinstance(f, str) else f for f in group]
                             for group in value]
                except KeyError as err:
                    raise ValueError("Constrained features are not a subset of training "
                                     "data feature names") from err
            out.append((name, value))
        return dict(out) if isinstance(params, dict) else out

    def __del__(self):
        if getattr(self, "handle", None) is not None:
            _check_call(_LIB.XGBoosterFree(self.handle))
            self.handle = None

    # ---- pickling and copies ------------------------------------------------------------
    def _unserialize(self, raw):
        buf = (ctypes.c_char * len(raw)).from_buffer(raw)
        _check_call(_LIB.XGBoosterUnserializeFromBuffer(self.handle, buf,
                                                        c_bst_ulong(len(raw))))

    def __getstate__(self):
        this = self.__dict__.copy()
        if this.get("handle") is not None:
            length = c_bst_ulong()
            cptr = ctypes.POINTER(ctypes.c_char)()
            _check_call(_LIB.XGBoosterSerializeToBuffer(self.handle, ctypes.byref(length),
                                                        ctypes.byref(cptr)))
            this["handle"] = bytearray(ctypes.string_at(cptr, length.value))
        return this

    def __setstate__(self, state):
        raw = state.get("handle")
        if raw is not None:
            handle = ctypes.c_void_p()
            _check_call(_LIB.XGBoosterCreate(None, c_bst_ulong(0), ctypes.byref(handle)))
            state = dict(state)
            state["handle"] = handle
            self.__dict__.update(state)
            self._unserialize(raw)
        else:
            self.__dict__.update(state)

    def __copy__(self):
        return self.__deepcopy__(None)

    def __deepcopy__(self, _):
        return Booster(model_file=self)

    def copy(self):
        return copy.copy(self)

    # ---- slicing --------------------------------------------------------------------------
    def __getitem__(self, val):
        if isinstance(val, int):
            val = slice(val, val + 1)
        if isinstance(val, tuple):
            raise ValueError("Only supports slicing through 1 dimension.")
        if not isinstance(val, slice):
            raise TypeError(f"Expecting <class 'int'> or <class 'slice'>, got {type(val)}")
        start = 0 if val.start is None or val.start is Ellipsis else val.start
        stop = 0 if val.stop is None or val.stop is Ellipsis else val.stop
        if val.stop is not None and val.stop is not Ellipsis and stop < start:
            raise ValueError("Invalid slice", val)  # an open end (bst[2:]) is fine
        step = 1 if val.step is None else val.step
        sliced = ctypes.c_void_p()
        status = _LIB.XGBoosterSlice(self.handle, ctypes.c_int(start), ctypes.c_int(stop),
                                     ctypes.c_int(step), ctypes.byref(sliced))
        if status == -2:
            raise IndexError("Layer index out of range")
        _check_call(status)
        out = Booster()
        _check_call(_LIB.XGBoosterFree(out.handle))
        out.handle = sliced
        return out

    def __iter__(self):
        for i in range(self.num_boosted_rounds()):
            yield self[i]

    # ---- parameters, attributes, configuration ----------------------------------------
    def set_param(self, params, value=None):
        if isinstance(params, dict):
            params = params.items()
        elif isinstance(params, str) and value is not None:
            params = [(params, value)]
        for key, val in params:
            if val is not None:
                _check_call(_LIB.XGBoosterSetParam(self.handle, _c_str(key),
                                                   _c_str(_param_str(val))))

    def attr(self, key):
        out = ctypes.c_char_p()
        success = ctypes.c_int()
        _check_call(_LIB.XGBoosterGetAttr(self.handle, _c_str(key), ctypes.byref(out),
                                          ctypes.byref(success)))
        return out.value.decode() if success.value != 0 else None

    def attributes(self):
        length = c_bst_ulong()
        arr = ctypes.POINTER(ctypes.c_char_p)()
        _check_call(_LIB.XGBoosterGetAttrNames(self.handle, ctypes.byref(length),
                                               ctypes.byref(arr)))
        return {name: self.attr(name) for name in _from_cstr_list(arr, length)}

    def set_attr(self, **kwargs):
        for key, value in kwargs.items():
            cval = None
            if value is not None:
                if not isinstance(value, str):
                    raise ValueError("Set Attr only accepts string values")
                cval = _c_str(value)
            _check_call(_LIB.XGBoosterSetAttr(self.handle, _c_str(key), cval))

    def save_config(self):
        length = c_bst_ulong()
        out = ctypes.c_char_p()
        _check_call(_LIB.XGBoosterSaveJsonConfig(self.handle, ctypes.byref(length),
                                                 ctypes.byref(out)))
        return out.value.decode()

    def load_config(self, config):
        _check_call(_LIB.XGBoosterLoadJsonConfig(self.handle, _c_str(config)))

    def num_boosted_rounds(self):
        out = ctypes.c_int()
        _check_call(_LIB.XGBoosterBoostedRounds(self.handle, ctypes.byref(out)))
        return out.value

    def num_features(self):
        out = c_bst_ulong()
        _check_call(_LIB.XGBoosterGetNumFeature(self.handle, ctypes.byref(out)))
        return out.value

    def _get_str_info(self, field):
        return _get_str_feature_info(_LIB.XGBoosterGetStrFeatureInfo, self.handle, field)

    def _set_str_info(self, field, values):
        _set_str_feature_info(_LIB.XGBoosterSetStrFeatureInfo, self.handle, field, values)

    @property
    def feature_names(self):
        return self._get_str_info("feature_name")

    @feature_names.setter
    def feature_names(self, names):
        self._set_str_info("feature_name", names)

    @property
    def feature_types(self):
        return self._get_str_info("feature_type")

    @feature_types.setter
    def feature_types(self, types):
        self._set_str_info("feature_type", types)

    def _validate_dmatrix_features(self, data):
        if data.num_row() == 0:
            return
        names, types = data.feature_names, data.feature_types
        # As XGBoost 1.7: validation adopts the first matrix's names and types.
        if self.feature_names is None:
            self.feature_names = names
        if self.feature_types is None:
            self.feature_types = types
        self._validate_features(names)

    def _validate_features(self, names):
        if self.feature_names is None:
            return
        if names is None:
            raise ValueError("training data did not have the following fields: "
                             + ", ".join(self.feature_names))
        if self.feature_names != names:
            dat_missing = set(self.feature_names) - set(names)
            my_missing = set(names) - set(self.feature_names)
            msg = "feature_names mismatch: {0} {1}"
            if dat_missing:
                msg += "\nexpected " + ", ".join(str(s) for s in dat_missing)
                msg += " in input data"
            if my_missing:
                msg += "\ntraining data did not have the following fields: "
                msg += ", ".join(str(s) for s in my_missing)
            raise ValueError(msg.format(self.feature_names, names))

    # ---- training -----------------------------------------------------------------------
    def update(self, dtrain, iteration, fobj=None):
        if not isinstance(dtrain, DMatrix):
            raise TypeError(f"invalid training matrix: {type(dtrain).__name__}")
        self._validate_dmatrix_features(dtrain)
        self._use_matrix_bins(dtrain)
        if fobj is None:
            _check_call(_LIB.XGBoosterUpdateOneIter(self.handle, ctypes.c_int(iteration),
                                                    dtrain.handle))
        else:
            pred = self.predict(dtrain, output_margin=True, training=True)
            grad, hess = fobj(pred, dtrain)
            self.boost(dtrain, grad, hess)

    def _use_matrix_bins(self, dtrain):
        # XGBoost 1.7 trains on a QuantileDMatrix with the matrix's max_bin, whatever the
        # booster's. The C API keeps that max_bin on the handle but does not apply it yet,
        # so the booster takes it here (set only on a change: a change re-makes the cuts).
        bins = getattr(dtrain, "max_bin", None)
        if bins is not None and self.__dict__.get("_quantile_max_bin") != bins:
            self.set_param("max_bin", bins)
            self._quantile_max_bin = bins

    def boost(self, dtrain, grad, hess):
        grad = np.ascontiguousarray(grad, dtype=np.float32).reshape(-1)
        hess = np.ascontiguousarray(hess, dtype=np.float32).reshape(-1)
        if grad.size != hess.size:
            raise ValueError(f"grad / hess length mismatch: {grad.size} / {hess.size}")
        self._validate_dmatrix_features(dtrain)
        self._use_matrix_bins(dtrain)
        fptr = ctypes.POINTER(ctypes.c_float)
        _check_call(_LIB.XGBoosterBoostOneIter(self.handle, dtrain.handle,
                                               grad.ctypes.data_as(fptr),
                                               hess.ctypes.data_as(fptr),
                                               c_bst_ulong(grad.size)))

    def eval_set(self, evals, iteration=0, feval=None, output_margin=True):
        for dmat, name in evals:
            if not isinstance(dmat, DMatrix):
                raise TypeError(f"expected DMatrix, got {type(dmat).__name__}")
            if not isinstance(name, str):
                raise TypeError(f"expected string, got {type(name).__name__}")
            self._validate_dmatrix_features(dmat)
        handles = _c_array(ctypes.c_void_p, [d[0].handle for d in evals])
        names = _str_array([d[1] for d in evals])
        msg = ctypes.c_char_p()
        _check_call(_LIB.XGBoosterEvalOneIter(self.handle, ctypes.c_int(iteration), handles,
                                              names, c_bst_ulong(len(evals)),
                                              ctypes.byref(msg)))
        res = msg.value.decode()
        if feval is not None:
            for dmat, name in evals:
                ret = feval(self.predict(dmat, training=False, output_margin=output_margin),
                            dmat)
                for metric, value in (ret if isinstance(ret, list) else [ret]):
                    res += "\t%s-%s:%f" % (name, metric, value)
        return res

    def eval(self, data, name="eval", iteration=0):
        self._validate_dmatrix_features(data)
        return self.eval_set([(data, name)], iteration)

    # ---- prediction ---------------------------------------------------------------------
    def predict(self, data, output_margin=False, ntree_limit=0, pred_leaf=False,
                pred_contribs=False, approx_contribs=False, pred_interactions=False,
                validate_features=True, training=False, iteration_range=(0, 0),
                strict_shape=False):
        if not isinstance(data, DMatrix):
            raise TypeError("Expecting data to be a DMatrix object, got: ", type(data))
        if validate_features:
            self._validate_dmatrix_features(data)
        iteration_range = self._iteration_range(ntree_limit, iteration_range)
        args = {"type": 0, "training": training, "iteration_begin": iteration_range[0],
                "iteration_end": iteration_range[1], "strict_shape": strict_shape}

        def assign_type(kind):
            if args["type"] != 0:
                raise ValueError("One type of prediction at a time.")
            args["type"] = kind

        if output_margin:
            assign_type(1)
        if pred_contribs:
            assign_type(2 if not approx_contribs else 3)
        if pred_interactions:
            assign_type(4 if not approx_contribs else 5)
        if pred_leaf:
            assign_type(6)
        shape, dims, preds = (t() for t in _PREDICT_OUT)
        _check_call(_LIB.XGBoosterPredictFromDMatrix(
            self.handle, data.handle, _c_str(json.dumps(args)), ctypes.byref(shape),
            ctypes.byref(dims), ctypes.byref(preds)))
        return _prediction_output(shape, dims, preds)

    def _iteration_range(self, ntree_limit, iteration_range):
        if ntree_limit is not None and ntree_limit != 0:
            warnings.warn("ntree_limit is deprecated, use `iteration_range` or model slicing "
                          "instead.", UserWarning)
            if iteration_range != (0, 0):
                raise ValueError("Only one of `iteration_range` and `ntree_limit` can be "
                                 "non zero.")
            config = json.loads(self.save_config())
            gbtree = config["learner"]["gradient_booster"]
            params = gbtree.get("gbtree_model_param") or gbtree.get("gbtree", {}).get(
                "gbtree_model_param", {})
            parallel = int(params.get("num_parallel_tree", 1) or 1)
            return (0, ntree_limit // parallel)
        return tuple(iteration_range)

    def inplace_predict(self, data, iteration_range=(0, 0), predict_type="value",
                        missing=np.nan, validate_features=True, base_margin=None,
                        strict_shape=False):
        if predict_type not in ("value", "margin"):
            raise ValueError(f"predict_type: {predict_type} is not one of value, margin")
        config = _inplace_config(predict_type == "value", int(iteration_range[0]),
                                 int(iteration_range[1]), float(missing), bool(strict_shape))
        proxy = None
        if base_margin is not None:
            proxy = DMatrix(None)
            proxy.handle = ctypes.c_void_p()
            _check_call(_LIB.XGProxyDMatrixCreate(ctypes.byref(proxy.handle)))
            proxy.set_info(base_margin=base_margin)
        proxy_handle = proxy.handle if proxy is not None else None
        shape, dims, preds = (t() for t in _PREDICT_OUT)
        if isinstance(data, (list, tuple)):
            data = np.array(data)
        if _data.is_pandas_frame(data):
            # As 1.7: categories are codes when the model has categorical features.
            categorical = any(t == "c" for t in (self.feature_types or []))
            data, names, _ = _data.from_pandas(data, categorical, None, None)
            if validate_features:
                self._validate_features(names)
        if isinstance(data, np.ndarray):
            if data.ndim not in (1, 2):
                raise ValueError(f"Expecting 2 dimensional numpy.ndarray, got: {data.shape}")
            data = _data.ensure_numeric(data)
            if validate_features and data.ndim == 2 and data.shape[1] != self.num_features():
                raise ValueError(f"Feature shape mismatch, expected: {self.num_features()}, "
                                 f"got {data.shape[1]}")
            _check_call(_LIB.XGBoosterPredictFromDense(
                self.handle, _data.array_interface(data), config, proxy_handle,
                ctypes.byref(shape), ctypes.byref(dims), ctypes.byref(preds)))
            return _prediction_output(shape, dims, preds)
        if _data.is_scipy_csr(data):
            indptr, indices, values = _data.csr_parts(data)
            if validate_features and data.shape[1] != self.num_features():
                raise ValueError(f"Feature shape mismatch, expected: {self.num_features()}, "
                                 f"got {data.shape[1]}")
            _check_call(_LIB.XGBoosterPredictFromCSR(
                self.handle, _data.array_interface(indptr), _data.array_interface(indices),
                _data.array_interface(values), c_bst_ulong(data.shape[1]), config,
                proxy_handle, ctypes.byref(shape), ctypes.byref(dims), ctypes.byref(preds)))
            return _prediction_output(shape, dims, preds)
        raise TypeError("Data type:" + str(type(data)) + " not supported by inplace prediction.")

    # ---- model I/O ----------------------------------------------------------------------
    def save_model(self, fname):
        if not isinstance(fname, (str, os.PathLike)):
            raise TypeError("fname must be a string or os PathLike")
        path = os.fspath(os.path.expanduser(fname))
        _check_call(_LIB.XGBoosterSaveModel(self.handle, _c_str(path)))

    def save_raw(self, raw_format="deprecated"):
        length = c_bst_ulong()
        cptr = ctypes.POINTER(ctypes.c_char)()
        config = _c_str(json.dumps({"format": raw_format}))
        _check_call(_LIB.XGBoosterSaveModelToBuffer(self.handle, config, ctypes.byref(length),
                                                    ctypes.byref(cptr)))
        return bytearray(ctypes.string_at(cptr, length.value))

    def load_model(self, fname):
        if isinstance(fname, (str, os.PathLike)):
            path = os.fspath(os.path.expanduser(fname))
            _check_call(_LIB.XGBoosterLoadModel(self.handle, _c_str(path)))
        elif isinstance(fname, bytearray):
            buf = (ctypes.c_char * len(fname)).from_buffer(fname)
            _check_call(_LIB.XGBoosterLoadModelFromBuffer(self.handle, buf,
                                                          c_bst_ulong(len(fname))))
        else:
            raise TypeError("Unknown file type: ", fname)
        if self.attr("best_iteration") is not None:
            self.best_iteration = int(self.attr("best_iteration"))
        if self.attr("best_score") is not None:
            self.best_score = float(self.attr("best_score"))
        if self.attr("best_ntree_limit") is not None:
            self.best_ntree_limit = int(self.attr("best_ntree_limit"))

    # ---- dumps and importance -----------------------------------------------------------
    def get_dump(self, fmap="", with_stats=False, dump_format="text"):
        fmap = os.fspath(os.path.expanduser(fmap))
        length = c_bst_ulong()
        arr = ctypes.POINTER(ctypes.c_char_p)()
        _check_call(_LIB.XGBoosterDumpModelEx(self.handle, _c_str(fmap),
                                              ctypes.c_int(with_stats), _c_str(dump_format),
                                              ctypes.byref(length), ctypes.byref(arr)))
        return _from_cstr_list(arr, length)

    def dump_model(self, fout, fmap="", with_stats=False, dump_format="text"):
        dump = self.get_dump(fmap, with_stats, dump_format)
        with open(os.fspath(os.path.expanduser(fout)), "w", encoding="utf-8") as out:
            if dump_format == "json":
                out.write("[\n" + ",\n".join(dump) + "]\n")
            else:
                for i, tree in enumerate(dump):
                    out.write(f"booster[{i}]:\n{tree}")

    def trees_to_dataframe(self, fmap=""):
        """The model's trees as a pandas DataFrame, one row per node (XGBoost 1.7's)."""
        from .trees_frame import trees_to_dataframe
        return trees_to_dataframe(self, fmap)

    def get_split_value_histogram(self, feature, fmap="", bins=None, as_pandas=True):
        """Histogram of the split values used for `feature` (DataFrame or ndarray)."""
        from .trees_frame import split_value_histogram
        return split_value_histogram(self, feature, fmap, bins, as_pandas)

    def get_fscore(self, fmap=""):
        return self.get_score(fmap, importance_type="weight")

    def get_score(self, fmap="", importance_type="weight"):
        fmap = os.fspath(os.path.expanduser(fmap))
        config = json.dumps({"importance_type": importance_type, "feature_map": fmap})
        n_features = c_bst_ulong()
        features = ctypes.POINTER(ctypes.c_char_p)()
        dims = c_bst_ulong()
        shape = ctypes.POINTER(c_bst_ulong)()
        scores = ctypes.POINTER(ctypes.c_float)()
        _check_call(_LIB.XGBoosterFeatureScore(
            self.handle, _c_str(config), ctypes.byref(n_features), ctypes.byref(features),
            ctypes.byref(dims), ctypes.byref(shape), ctypes.byref(scores)))
        names = _from_cstr_list(features, n_features)
        values = _prediction_output(shape, dims, scores)
        if values.ndim > 1 and values.shape[1] > 1:
            return {f: [float(s) for s in v] for f, v in zip(names, values)}
        return {f: float(v) for f, v in zip(names, values.reshape(-1))}


__all__ = ["Booster", "XGBoostError"]
