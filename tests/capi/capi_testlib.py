"""ctypes access to a C API library (libtreering.so or the peer, Debian's libxgboost.so.0) for
the C API's Python tests. Each Lib wraps one CDLL; the two load side by side (separate
handles, same symbol names)."""
import ctypes
import os
import sys

SKIP = 77
PEER = "/usr/lib/x86_64-linux-gnu/libxgboost.so.0"


def build_dir():
    return os.path.abspath(sys.argv[1])


def treering_lib_path():
    return os.path.join(build_dir(), "lib", "libtreering.so")


class CallFailed(Exception):
    pass


class Lib:
    def __init__(self, path):
        self.path = path
        self.dll = ctypes.CDLL(path)
        self.dll.XGBGetLastError.restype = ctypes.c_char_p

    def call(self, name, *args):
        """Calls `name`, raises CallFailed with XGBGetLastError's message on a non-zero return."""
        rc = getattr(self.dll, name)(*args)
        if rc != 0:
            raise CallFailed("%s returned %d: %s" % (name, rc, self.dll.XGBGetLastError().decode()))

    def last_error(self):
        return self.dll.XGBGetLastError().decode()

    # --- DMatrix ------------------------------------------------------------------------
    def dmatrix(self, path, label=None, base_margin=None, feature_types=None):
        h = ctypes.c_void_p()
        self.call("XGDMatrixCreateFromFile", path.encode(), 1, ctypes.byref(h))
        if label is not None:
            self.set_float(h, "label", label)
        if base_margin is not None:
            self.set_float(h, "base_margin", base_margin)
        if feature_types is not None:
            arr = (ctypes.c_char_p * len(feature_types))(*[t.encode() for t in feature_types])
            self.call("XGDMatrixSetStrFeatureInfo", h, b"feature_type", arr,
                      ctypes.c_uint64(len(feature_types)))
        return h

    def set_float(self, h, field, values):
        arr = (ctypes.c_float * len(values))(*values)
        self.call("XGDMatrixSetFloatInfo", h, field.encode(), arr, ctypes.c_uint64(len(values)))

    def free_dmatrix(self, h):
        self.call("XGDMatrixFree", h)

    # --- Booster ------------------------------------------------------------------------
    def booster(self, dmats, params):
        arr = (ctypes.c_void_p * len(dmats))(*[d.value for d in dmats])
        h = ctypes.c_void_p()
        self.call("XGBoosterCreate", arr, ctypes.c_uint64(len(dmats)), ctypes.byref(h))
        for k, v in params:
            self.call("XGBoosterSetParam", h, k.encode(), str(v).encode())
        return h

    def update(self, b, it, dtrain):
        self.call("XGBoosterUpdateOneIter", b, ctypes.c_int(it), dtrain)

    def boost(self, b, dtrain, grad, hess):
        g = (ctypes.c_float * len(grad))(*grad)
        h = (ctypes.c_float * len(hess))(*hess)
        self.call("XGBoosterBoostOneIter", b, dtrain, g, h, ctypes.c_uint64(len(grad)))

    def eval(self, b, it, sets):
        dm = (ctypes.c_void_p * len(sets))(*[d.value for _, d in sets])
        names = (ctypes.c_char_p * len(sets))(*[n.encode() for n, _ in sets])
        out = ctypes.c_char_p()
        self.call("XGBoosterEvalOneIter", b, ctypes.c_int(it), dm, names,
                  ctypes.c_uint64(len(sets)), ctypes.byref(out))
        return out.value.decode()

    def predict(self, b, d, margin=False):
        n = ctypes.c_uint64()
        out = ctypes.POINTER(ctypes.c_float)()
        self.call("XGBoosterPredict", b, d, ctypes.c_int(1 if margin else 0), ctypes.c_uint(0),
                  ctypes.c_int(0), ctypes.byref(n), ctypes.byref(out))
        return [out[i] for i in range(n.value)]

    def save(self, b, path):
        self.call("XGBoosterSaveModel", b, path.encode())

    def load(self, b, path):
        self.call("XGBoosterLoadModel", b, path.encode())

    def _bytes(self, name, b, *config):
        n = ctypes.c_uint64()
        out = ctypes.POINTER(ctypes.c_char)()
        self.call(name, b, *config, ctypes.byref(n), ctypes.byref(out))
        return ctypes.string_at(out, n.value)

    def save_buffer(self, b, fmt):
        return self._bytes("XGBoosterSaveModelToBuffer", b,
                           ('{"format": "%s"}' % fmt).encode())

    def serialize(self, b):
        return self._bytes("XGBoosterSerializeToBuffer", b)

    def unserialize(self, b, raw):
        self.call("XGBoosterUnserializeFromBuffer", b, raw, ctypes.c_uint64(len(raw)))

    def load_buffer(self, b, raw):
        self.call("XGBoosterLoadModelFromBuffer", b, raw, ctypes.c_uint64(len(raw)))

    def config(self, b):
        return self._bytes("XGBoosterSaveJsonConfig", b).decode()

    def load_config(self, b, text):
        self.call("XGBoosterLoadJsonConfig", b, text.encode())

    def rounds(self, b):
        n = ctypes.c_int()
        self.call("XGBoosterBoostedRounds", b, ctypes.byref(n))
        return n.value

    def num_feature(self, b):
        n = ctypes.c_uint64()
        self.call("XGBoosterGetNumFeature", b, ctypes.byref(n))
        return n.value

    def free(self, b):
        self.call("XGBoosterFree", b)


def run_tests(tests):
    """Runs each test function; exit 1 if one failed, else 0."""
    failed = 0
    for test in tests:
        try:
            test()
            print("PASS " + test.__name__)
        except Exception:  # noqa: BLE001 - report every failure, go on
            import traceback
            traceback.print_exc()
            print("FAIL " + test.__name__)
            failed += 1
    sys.exit(1 if failed else 0)
