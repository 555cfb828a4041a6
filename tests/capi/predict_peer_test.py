#!/usr/bin/env python3
"""capi_predict_peer: one XGBoost-trained model loaded into libtreering.so and Debian's
libxgboost.so.0 side by side (ctypes); every prediction call, shape, dump, score and
attribute call must agree. usage: predict_peer_test.py BUILD_DIR (exit 77: no peer)."""
import ctypes
import json
import os
import sys
import tempfile

PEER = "/usr/lib/x86_64-linux-gnu/libxgboost.so.0"
try:
    import numpy as np
    import xgboost
except ImportError as e:  # pragma: no cover
    print(f"skip: {e}")
    sys.exit(77)
if not os.path.exists(PEER):
    print(f"skip: no {PEER}")
    sys.exit(77)

u64 = ctypes.c_uint64
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


class Lib:
    def __init__(self, path, name):
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        self.name = name
        self.lib.XGBGetLastError.restype = ctypes.c_char_p

    def call(self, fn, *args):
        rc = getattr(self.lib, fn)(*args)
        if rc != 0:
            raise RuntimeError(f"{self.name} {fn}: {self.lib.XGBGetLastError().decode()}")

    def try_call(self, fn, *args):
        rc = getattr(self.lib, fn)(*args)
        return rc, (self.lib.XGBGetLastError().decode() if rc else "")

    def booster(self, model_path):
        h = ctypes.c_void_p()
        self.call("XGBoosterCreate", None, u64(0), ctypes.byref(h))
        self.call("XGBoosterLoadModel", h, model_path.encode())
        return h

    def dmatrix(self, x, missing=float("nan")):
        x = np.ascontiguousarray(x, dtype=np.float32)
        h = ctypes.c_void_p()
        self.call("XGDMatrixCreateFromMat", x.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                  u64(x.shape[0]), u64(x.shape[1]), ctypes.c_float(missing), ctypes.byref(h))
        return h

    def proxy(self):
        h = ctypes.c_void_p()
        self.call("XGProxyDMatrixCreate", ctypes.byref(h))
        return h

    def _result(self, shape, dim, result):
        dims = [shape[i] for i in range(dim.value)]
        n = int(np.prod(dims)) if dims else 0
        values = np.ctypeslib.as_array(result, shape=(n,)).copy() if n else np.zeros(0, np.float32)
        return dims, values.reshape(dims)

    def predict(self, booster, dmat, config):
        shape, dim, result = ctypes.POINTER(u64)(), u64(), ctypes.POINTER(ctypes.c_float)()
        self.call("XGBoosterPredictFromDMatrix", booster, dmat, json.dumps(config).encode(),
                  ctypes.byref(shape), ctypes.byref(dim), ctypes.byref(result))
        return self._result(shape, dim, result)

    def predict_legacy(self, booster, dmat, mask, ntree_limit):
        n, result = u64(), ctypes.POINTER(ctypes.c_float)()
        self.call("XGBoosterPredict", booster, dmat, ctypes.c_int(mask), ctypes.c_uint(ntree_limit),
                  ctypes.c_int(0), ctypes.byref(n), ctypes.byref(result))
        return np.ctypeslib.as_array(result, shape=(n.value,)).copy()

    def inplace_dense(self, booster, x, config, proxy=None):
        shape, dim, result = ctypes.POINTER(u64)(), u64(), ctypes.POINTER(ctypes.c_float)()
        self.call("XGBoosterPredictFromDense", booster, interface(x), json_config(config), proxy,
                  ctypes.byref(shape), ctypes.byref(dim), ctypes.byref(result))
        return self._result(shape, dim, result)

    def inplace_csr(self, booster, indptr, indices, values, ncol, config):
        shape, dim, result = ctypes.POINTER(u64)(), u64(), ctypes.POINTER(ctypes.c_float)()
        self.call("XGBoosterPredictFromCSR", booster, interface(indptr), interface(indices),
                  interface(values), u64(ncol), json_config(config), None, ctypes.byref(shape),
                  ctypes.byref(dim), ctypes.byref(result))
        return self._result(shape, dim, result)

    def strings(self, fn, booster, *args):
        n, out = u64(), ctypes.POINTER(ctypes.c_char_p)()
        self.call(fn, booster, *args, ctypes.byref(n), ctypes.byref(out))
        return [out[i].decode() for i in range(n.value)]

    def feature_score(self, booster, config):
        n, names = u64(), ctypes.POINTER(ctypes.c_char_p)()
        dim, shape, scores = u64(), ctypes.POINTER(u64)(), ctypes.POINTER(ctypes.c_float)()
        self.call("XGBoosterFeatureScore", booster, json.dumps(config).encode(), ctypes.byref(n),
                  ctypes.byref(names), ctypes.byref(dim), ctypes.byref(shape), ctypes.byref(scores))
        dims = [shape[i] for i in range(dim.value)]
        return ([names[i].decode() for i in range(n.value)], dims,
                [scores[i] for i in range(int(np.prod(dims)))])


def interface(a):
    a = np.ascontiguousarray(a)
    return json.dumps({"data": [a.ctypes.data, True], "shape": list(a.shape), "strides": None,
                       "typestr": a.dtype.str, "version": 3}).encode()


def json_config(config):
    # XGBoost's Python sends NaN unquoted (allow_nan): both readers must take it.
    return json.dumps(config).encode()


def same(a, b, what, exact=True):
    dims_a, va = a
    dims_b, vb = b
    check(dims_a == dims_b, f"{what}: shape {dims_a} vs peer {dims_b}")
    if dims_a != dims_b:
        return
    if exact:
        ok = np.array_equal(va, vb, equal_nan=True)
        diff = 0.0 if ok else float(np.nanmax(np.abs(va.astype(np.float64) - vb)))
        check(ok, f"{what}: values differ (max |diff| {diff:g})")
    else:
        check(np.allclose(va, vb, rtol=1e-5, atol=1e-6), f"{what}: values differ beyond 1e-5")


def train_models(tmp):
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 6)).astype(np.float32)
    x[rng.random(x.shape) < 0.1] = np.nan
    y = (np.nan_to_num(x[:, 0]) + np.nan_to_num(x[:, 1]) * 0.5 > 0).astype(np.float32)
    models = {}
    names = ["age", "height", "weight", "income", "score", "rank"]
    d = xgboost.DMatrix(x, label=y, feature_names=names)
    bst = xgboost.train({"objective": "binary:logistic", "max_depth": 4, "tree_method": "hist",
                         "nthread": 1}, d, num_boost_round=6)
    bst.set_attr(best_iteration="4", note="from xgboost")
    models["binary"] = os.path.join(tmp, "binary.json")
    bst.save_model(models["binary"])
    y3 = np.digitize(np.nan_to_num(x[:, 2]), [-0.5, 0.5]).astype(np.float32)
    bst3 = xgboost.train({"objective": "multi:softprob", "num_class": 3, "max_depth": 3,
                          "tree_method": "hist", "nthread": 1},
                         xgboost.DMatrix(x, label=y3), num_boost_round=4)
    models["softprob"] = os.path.join(tmp, "softprob.json")
    bst3.save_model(models["softprob"])
    bst4 = xgboost.train({"objective": "multi:softmax", "num_class": 3, "max_depth": 2,
                          "tree_method": "hist", "nthread": 1},
                         xgboost.DMatrix(x, label=y3), num_boost_round=3)
    models["softmax"] = os.path.join(tmp, "softmax.json")
    bst4.save_model(models["softmax"])
    bst5 = xgboost.train({"objective": "reg:squarederror", "max_depth": 5,
                          "tree_method": "hist", "nthread": 1},
                         xgboost.DMatrix(x, label=y * 2.0 + 1.0), num_boost_round=5)
    models["regression"] = os.path.join(tmp, "regression.json")
    bst5.save_model(models["regression"])
    return models, x


def compare_predictions(libs, models, x):
    for kind, path in models.items():
        boosters = [lib.booster(path) for lib in libs]
        mats = [lib.dmatrix(x) for lib in libs]
        rounds = json.load(open(path))["learner"]["gradient_booster"]["model"][
            "gbtree_model_param"]["num_trees"]
        ranges = [(0, 0), (0, 2), (1, 3)]
        for ptype in range(7):
            for strict in (False, True):
                for begin, end in ranges:
                    if ptype >= 2 and begin != 0:
                        continue  # explanations start at round 0 in both
                    cfg = {"type": ptype, "training": False, "iteration_begin": begin,
                           "iteration_end": end, "strict_shape": strict}
                    res = [lib.predict(b, m, cfg) for lib, b, m in zip(libs, boosters, mats)]
                    same(res[0], res[1], f"{kind} {cfg}", exact=ptype in (0, 1, 6))
        # Rows without a missing value take the predictor's one-compare walk.
        full = np.nan_to_num(x, nan=0.25)
        full_mats = [lib.dmatrix(full) for lib in libs]
        for ptype in (0, 1, 6):
            cfg = {"type": ptype, "training": False, "iteration_begin": 0, "iteration_end": 0,
                   "strict_shape": False}
            res = [lib.predict(b, m, cfg) for lib, b, m in zip(libs, boosters, full_mats)]
            same(res[0], res[1], f"{kind} rows without missing values {cfg}")
        for mask in (0, 1, 2, 4, 4 | 8, 16):
            for limit in (0, 2):
                res = [lib.predict_legacy(b, m, mask, limit)
                       for lib, b, m in zip(libs, boosters, mats)]
                same(([len(res[0])], res[0]), ([len(res[1])], res[1]),
                     f"{kind} legacy mask {mask} ntree_limit {limit}", exact=mask in (0, 1, 2))
        # Inplace: NaN always missing, plus a sentinel for "missing".
        xs = np.where(np.isnan(x), -999.0, x).astype(np.float32)
        for data, missing in ((x, float("nan")), (xs, -999.0), (x[:1], float("nan")),
                              (x.astype(np.float64), float("nan"))):
            for ptype in (0, 1):
                for strict in (False, True):
                    cfg = {"type": ptype, "training": False, "iteration_begin": 0,
                           "iteration_end": 0, "strict_shape": strict, "missing": missing,
                           "cache_id": 0}
                    res = [lib.inplace_dense(b, data, cfg) for lib, b in zip(libs, boosters)]
                    same(res[0], res[1], f"{kind} dense {data.dtype} {data.shape} {cfg}")
        rows = [np.flatnonzero(~np.isnan(r)) for r in x[:50]]
        indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.uint64)
        indices = np.concatenate(rows).astype(np.uint32)
        values = np.concatenate([x[i, r] for i, r in enumerate(rows)]).astype(np.float32)
        cfg = {"type": 0, "training": False, "iteration_begin": 0, "iteration_end": 0,
               "strict_shape": False, "missing": float("nan"), "cache_id": 0}
        res = [lib.inplace_csr(b, indptr, indices, values, x.shape[1], cfg)
               for lib, b in zip(libs, boosters)]
        same(res[0], res[1], f"{kind} csr")
        # base_margin through the proxy.
        groups = 3 if "soft" in kind else 1
        margin = np.linspace(-1, 1, 20 * groups).astype(np.float32)
        if groups > 1:
            margin = margin.reshape(20, groups)
        res = []
        for lib, b in zip(libs, boosters):
            p = lib.proxy()
            # XGBoost's Python inplace_predict: base_margin on an empty proxy, rows in the call.
            lib.call("XGDMatrixSetInfoFromInterface", p, b"base_margin", interface(margin))
            res.append(lib.inplace_dense(b, x[:20], dict(cfg, type=1), p))
        same(res[0], res[1], f"{kind} inplace with base_margin")
        # Errors: wrong column count, unknown type.
        for lib, b in zip(libs, boosters):
            rc, msg = lib.try_call("XGBoosterPredictFromDense", b, interface(x[:, :3]),
                                   json_config(cfg), None, ctypes.byref(ctypes.POINTER(u64)()),
                                   ctypes.byref(u64()),
                                   ctypes.byref(ctypes.POINTER(ctypes.c_float)()))
            check(rc == -1, f"{lib.name}: 3 columns for a 6-feature model accepted")


def compare_model_info(libs, models, tmp):
    fmap = os.path.join(tmp, "fmap.txt")
    with open(fmap, "w") as f:
        f.write("0 a q\n1 b q\n2 c int\n3 d q\n4 e i\n5 f float\n")
    for kind, path in models.items():
        boosters = [lib.booster(path) for lib in libs]
        for fmt in ("text", "json", "dot"):
            for stats in (0, 1):
                for fm in ("", fmap):
                    dumps = [lib.strings("XGBoosterDumpModelEx", b, fm.encode(), ctypes.c_int(stats),
                                         fmt.encode()) for lib, b in zip(libs, boosters)]
                    check(dumps[0] == dumps[1], f"{kind} dump {fmt} stats {stats} fmap {fm!r}")
        names = (ctypes.c_char_p * 6)(*[f"x{i}".encode() for i in range(6)])
        types = (ctypes.c_char_p * 6)(*[b"q"] * 6)
        dumps = [lib.strings("XGBoosterDumpModelExWithFeatures", b, ctypes.c_int(6), names, types,
                             ctypes.c_int(1), b"json") for lib, b in zip(libs, boosters)]
        check(dumps[0] == dumps[1], f"{kind} dump with features")
        dumps = [lib.strings("XGBoosterDumpModel", b, b"", ctypes.c_int(0))
                 for lib, b in zip(libs, boosters)]
        check(dumps[0] == dumps[1], f"{kind} XGBoosterDumpModel")
        for imp in ("weight", "gain", "cover", "total_gain", "total_cover"):
            scores = [lib.feature_score(b, {"importance_type": imp, "feature_map": ""})
                      for lib, b in zip(libs, boosters)]
            check(scores[0][:2] == scores[1][:2], f"{kind} {imp}: names/shape {scores[0][:2]} "
                  f"vs {scores[1][:2]}")
            check(np.allclose(scores[0][2], scores[1][2], rtol=1e-6), f"{kind} {imp}: scores")
        # Attributes and feature info as loaded, then set and read back.
        for lib, b in zip(libs, boosters):
            lib.call("XGBoosterSetAttr", b, b"mine", b"1")
            lib.call("XGBoosterSetAttr", b, b"note", None)
            lib.call("XGBoosterSetStrFeatureInfo", b, b"feature_type", (ctypes.c_char_p * 6)(
                *[b"q", b"q", b"int", b"q", b"q", b"float"]), u64(6))
        got = []
        for lib, b in zip(libs, boosters):
            attrs = {}
            for key in lib.strings("XGBoosterGetAttrNames", b):
                out, ok = ctypes.c_char_p(), ctypes.c_int()
                lib.call("XGBoosterGetAttr", b, key.encode(), ctypes.byref(out), ctypes.byref(ok))
                attrs[key] = out.value.decode()
            out, ok = ctypes.c_char_p(), ctypes.c_int(7)
            lib.call("XGBoosterGetAttr", b, b"absent", ctypes.byref(out), ctypes.byref(ok))
            got.append((attrs, ok.value, out.value,
                        lib.strings("XGBoosterGetStrFeatureInfo", b, b"feature_name"),
                        lib.strings("XGBoosterGetStrFeatureInfo", b, b"feature_type")))
        check(got[0] == got[1], f"{kind} attributes/feature info {got[0]} vs {got[1]}")


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    ours = os.path.join(build, "lib", "libtreering.so")
    libs = [Lib(ours, "treering"), Lib(PEER, "xgboost")]
    with tempfile.TemporaryDirectory() as tmp:
        models, x = train_models(tmp)
        compare_predictions(libs, models, x)
        compare_model_info(libs, models, tmp)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print("all predictions, shapes, dumps, scores and attributes agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
