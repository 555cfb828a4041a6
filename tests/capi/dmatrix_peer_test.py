#!/usr/bin/env python3
"""capi_dmatrix_peer: the same DMatrix built in libtreering.so and in Debian's libxgboost.so.0
(XGBoost 1.7) through ctypes; shapes, entries (GetDataAsCSR) and every info field must agree,
and inputs XGBoost refuses must be refused by treering too. Exit 77 when the peer is missing.
Usage: dmatrix_peer_test.py BUILD_DIR"""
import ctypes
import json
import os
import sys
import tempfile

PEER = '/usr/lib/x86_64-linux-gnu/libxgboost.so.0'
try:
    import numpy as np
except ImportError:
    print('numpy missing: skipped')
    sys.exit(77)
if not os.path.exists(PEER):
    print('peer %s missing: skipped' % PEER)
    sys.exit(77)

u64 = ctypes.c_uint64
# XGBoost's iterator DMatrix writes cache pages into the working directory: use a scratch one.
SCRATCH = tempfile.TemporaryDirectory()
os.chdir(SCRATCH.name)
ours = ctypes.CDLL(os.path.join(os.path.abspath(sys.argv[1]), 'lib', 'libtreering.so'))
peer = ctypes.CDLL(PEER)
LIBS = {'treering': ours, 'xgboost': peer}
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what)


def message(lib):
    try:
        lib.XGBGetLastError.restype = ctypes.c_char_p
        return (lib.XGBGetLastError().decode().splitlines() or [''])[0]
    except AttributeError:
        return '(no XGBGetLastError)'


def iface(a):
    i = dict(a.__array_interface__)
    i['data'] = list(i['data'])
    i.pop('descr', None)
    return json.dumps(i).encode()


def ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def both(name, make):
    """make(lib) -> (rc, handle) in both libraries; returns {lib: handle} or None if refused."""
    out = {}
    rcs = {}
    for key, lib in LIBS.items():
        h = ctypes.c_void_p()
        rcs[key] = make(lib, ctypes.byref(h))
        out[key] = h
    check(rcs['treering'] == rcs['xgboost'],
          '%s: return codes differ %s (treering: %s; xgboost: %s)' %
          (name, rcs, message(ours), message(peer)))
    return out if rcs['xgboost'] == 0 and rcs['treering'] == 0 else None


def shape(lib, h):
    r, c, n = u64(), u64(), u64()
    assert lib.XGDMatrixNumRow(h, ctypes.byref(r)) == 0
    assert lib.XGDMatrixNumCol(h, ctypes.byref(c)) == 0
    assert lib.XGDMatrixNumNonMissing(h, ctypes.byref(n)) == 0
    return r.value, c.value, n.value


def csr(lib, h):
    rows, _, nnz = shape(lib, h)
    indptr = np.zeros(rows + 1, dtype=np.uint64)
    indices = np.zeros(max(nnz, 1), dtype=np.uint32)
    data = np.zeros(max(nnz, 1), dtype=np.float32)
    assert lib.XGDMatrixGetDataAsCSR(h, b'{}', ptr(indptr), ptr(indices), ptr(data)) == 0
    # XGBoost keeps a row's entries in input order; treering sorts them: compare sorted rows.
    rows_out = []
    for r in range(rows):
        b, e = int(indptr[r]), int(indptr[r + 1])
        rows_out.append(sorted(zip(indices[b:e].tolist(), data[b:e].tolist())))
    return indptr.tolist(), rows_out


def float_info(lib, h, field):
    n = u64()
    p = ctypes.POINTER(ctypes.c_float)()
    assert lib.XGDMatrixGetFloatInfo(h, field.encode(), ctypes.byref(n), ctypes.byref(p)) == 0
    return [p[i] for i in range(n.value)]


def group_ptr(lib, h):
    n = u64()
    p = ctypes.POINTER(ctypes.c_uint)()
    assert lib.XGDMatrixGetUIntInfo(h, b'group_ptr', ctypes.byref(n), ctypes.byref(p)) == 0
    return [p[i] for i in range(n.value)]


def str_info(lib, h, field):
    n = u64()
    p = ctypes.POINTER(ctypes.c_char_p)()
    assert lib.XGDMatrixGetStrFeatureInfo(h, field.encode(), ctypes.byref(n), ctypes.byref(p)) == 0
    return [p[i].decode() for i in range(n.value)]


FLOAT_FIELDS = ['label', 'weight', 'base_margin', 'label_lower_bound', 'label_upper_bound',
                'feature_weights']


def same(name, hs):
    if hs is None:
        return
    a, b = hs['treering'], hs['xgboost']
    check(shape(ours, a) == shape(peer, b),
          '%s: shape %s vs %s' % (name, shape(ours, a), shape(peer, b)))
    check(csr(ours, a) == csr(peer, b), '%s: entries differ' % name)
    for f in FLOAT_FIELDS:
        x, y = float_info(ours, a, f), float_info(peer, b, f)
        check(np.allclose(x, y, equal_nan=True) and len(x) == len(y),
              '%s: %s %s vs %s' % (name, f, x[:8], y[:8]))
    check(group_ptr(ours, a) == group_ptr(peer, b),
          '%s: group_ptr %s vs %s' % (name, group_ptr(ours, a), group_ptr(peer, b)))
    for f in ['feature_name', 'feature_type']:
        check(str_info(ours, a, f) == str_info(peer, b, f), '%s: %s' % (name, f))


def ours_only(name, want_rc, make):
    """A documented difference from XGBoost (docs/c-api.md, "DMatrix"): treering's result only."""
    h = ctypes.c_void_p()
    rc = make(ours, ctypes.byref(h))
    check(rc == want_rc, '%s: treering returned %d (%s)' % (name, rc, message(ours)))
    return h


def dense(name, a, config):
    hs = both(name, lambda lib, out: lib.XGDMatrixCreateFromDense(iface(a), config, out))
    same(name, hs)
    return hs


rng = np.random.default_rng(7)
x = rng.normal(size=(40, 6)).astype(np.float32)
x[rng.random(x.shape) < 0.3] = np.nan
x[3, :] = np.nan
x[:, 5] = np.nan  # a last column with no value: the column count still says 6
x[5, 2] = 0.25
base = dense('dense f4 NaN', x, b'{"missing": NaN, "nthread": 1}')
dense('dense missing 0.25', x, b'{"missing": 0.25}')
dense('dense f8 Fortran', np.asfortranarray(x.astype(np.float64)), b'{"missing": NaN}')
dense('dense strided view', x[::3, ::2], b'{"missing": NaN}')
dense('dense i4', rng.integers(-3, 3, size=(7, 4)).astype(np.int32), b'{"missing": 0}')
dense('dense u1', rng.integers(0, 3, size=(7, 4)).astype(np.uint8), b'{"missing": 1}')
# XGBoost 1.7 refuses bool arrays ("Boolean-1 is not supported"); treering reads them as 0/1.
boolean = rng.random((5, 3)) < 0.5
hb = ours_only('dense bool', 0, lambda lib, out: lib.XGDMatrixCreateFromDense(
    iface(boolean), b'{"missing": NaN}', out))
check(shape(ours, hb) == (5, 3, 15), 'dense bool shape %s' % (shape(ours, hb),))
dense('dense 1-D', np.arange(5, dtype=np.float32), b'{"missing": 2}')
inf = x.copy()
inf[1, 1] = np.inf
dense('dense inf refused', inf, b'{"missing": NaN}')
dense('dense inf allowed when missing is inf', inf, b'{"missing": Infinity}')
dense('dense without missing', x, b'{"nthread": 1}')
dense('dense bad json', x, b'{"missing": NaN')
# XGBoost byte-swaps big-endian arrays; treering refuses them.
ours_only('dense big-endian', -1, lambda lib, out: lib.XGDMatrixCreateFromDense(
    iface(x.astype('>f4')), b'{"missing": NaN}', out))

mat = np.ascontiguousarray(x)
for label, fn in [('mat', 'XGDMatrixCreateFromMat'), ('mat_omp', 'XGDMatrixCreateFromMat_omp')]:
    def make(lib, out, fn=fn):
        f = getattr(lib, fn)
        args = [ptr(mat), u64(40), u64(6), ctypes.c_float(0.25), out]
        return f(*args) if fn.endswith('Mat') else f(*args, 2)
    same(label, both(label, make))

# CSR: raw arrays and array interfaces, unsorted rows, NaN and missing values.
indptr = np.array([0, 3, 3, 6, 7], dtype=np.uint64)
indices = np.array([4, 0, 2, 1, 7, 3, 0], dtype=np.uint32)
values = np.array([1.5, np.nan, -2, 3, 4, 0.5, 9], dtype=np.float32)
for ncol in [8, 12]:
    same('csrex ncol %d' % ncol, both('csrex', lambda lib, out: lib.XGDMatrixCreateFromCSREx(
        ptr(indptr), ptr(indices), ptr(values), ctypes.c_size_t(5), ctypes.c_size_t(7),
        ctypes.c_size_t(ncol), out)))
    same('csr ncol %d' % ncol, both('csr', lambda lib, out: lib.XGDMatrixCreateFromCSR(
        iface(indptr), iface(indices), iface(values), u64(ncol), b'{"missing": 0.5}', out)))
same('csr i8 indptr', both('csr i8', lambda lib, out: lib.XGDMatrixCreateFromCSR(
    iface(indptr.astype(np.int64)), iface(indices.astype(np.int32)), iface(values.astype(np.float64)),
    u64(8), b'{"missing": NaN}', out)))

# CSC.
col_ptr = np.array([0, 2, 2, 5], dtype=np.uint64)
rows_i = np.array([1, 4, 0, 2, 4], dtype=np.uint32)
cvals = np.array([1, 2, np.nan, 4, 5], dtype=np.float32)
for nrow in [0, 5, 9]:
    same('csc nrow %d' % nrow, both('csc', lambda lib, out: lib.XGDMatrixCreateFromCSCEx(
        ptr(col_ptr), ptr(rows_i), ptr(cvals), ctypes.c_size_t(4), ctypes.c_size_t(5),
        ctypes.c_size_t(nrow), out)))

# Meta information on the dense matrix, then slices of it.
b = base
n = 40
label = rng.random(n).astype(np.float32)
weight = rng.random(n).astype(np.float32)
margin = rng.normal(size=(n, 3)).astype(np.float32)
for key, h in b.items():
    lib = LIBS[key]
    assert lib.XGDMatrixSetFloatInfo(h, b'label', ptr(label), u64(n)) == 0, message(lib)
    assert lib.XGDMatrixSetDenseInfo(h, b'weight', ptr(weight.astype(np.float64)), u64(n), 2) == 0
    assert lib.XGDMatrixSetInfoFromInterface(h, b'base_margin', iface(margin)) == 0, message(lib)
    assert lib.XGDMatrixSetFloatInfo(h, b'label_lower_bound', ptr(label), u64(n)) == 0
    assert lib.XGDMatrixSetFloatInfo(h, b'label_upper_bound', ptr(label + 1), u64(n)) == 0
    fw = np.array([1, 0, 2, 3, 0.5, 1], dtype=np.float32)
    assert lib.XGDMatrixSetFloatInfo(h, b'feature_weights', ptr(fw), u64(6)) == 0
    names = (ctypes.c_char_p * 6)(*[b'f%d' % i for i in range(6)])
    assert lib.XGDMatrixSetStrFeatureInfo(h, b'feature_name', names, u64(6)) == 0
    types = (ctypes.c_char_p * 6)(b'q', b'c', b'int', b'float', b'i', b'q')
    assert lib.XGDMatrixSetStrFeatureInfo(h, b'feature_type', types, u64(6)) == 0
same('dense with infos', b)
idx = np.array([5, 0, 39, 5, 17], dtype=np.int32)
same('slice', both('slice', lambda lib, out: lib.XGDMatrixSliceDMatrix(
    b[[k for k, v in LIBS.items() if v is lib][0]], ptr(idx), u64(5), out)))
bad = np.array([1, 40], dtype=np.int32)
# XGBoost reads past the matrix for an out-of-range row; treering refuses it.
ours_only('slice out of range', -1, lambda lib, out: lib.XGDMatrixSliceDMatrix(
    b['treering'], ptr(bad), u64(2), out))


def on_both(name, hs, call):
    rcs = {k: call(LIBS[k], h) for k, h in hs.items()}
    check(rcs['treering'] == rcs['xgboost'], '%s: %s (treering: %s; xgboost: %s)' %
          (name, rcs, message(ours), message(peer)))


# Groups and qid (ranking).
g = dense('dense for groups', x, b'{"missing": NaN}')
on_both('group sizes', g, lambda lib, h: lib.XGDMatrixSetGroup(
    h, ptr(np.array([10, 25, 5], dtype=np.uint32)), u64(3)))
same('groups', g)
both('slice with groups refused', lambda lib, out: lib.XGDMatrixSliceDMatrixEx(
    g[[k for k, v in LIBS.items() if v is lib][0]], ptr(idx), u64(5), out, 0))
same('slice with groups allowed', both('slice groups', lambda lib, out: lib.XGDMatrixSliceDMatrixEx(
    g[[k for k, v in LIBS.items() if v is lib][0]], ptr(idx), u64(5), out, 1)))
q = np.repeat(np.array([3, 7, 8, 20], dtype=np.uint32), [5, 20, 1, 14])
on_both('qid', g, lambda lib, h: lib.XGDMatrixSetUIntInfo(h, b'qid', ptr(q), u64(n)))
same('qid groups', g)
on_both('qid via interface', g, lambda lib, h: lib.XGDMatrixSetInfoFromInterface(
    h, b'qid', iface(q.astype(np.int64))))
same('qid interface groups', g)
on_both('unsorted qid', g, lambda lib, h: lib.XGDMatrixSetUIntInfo(h, b'qid', ptr(q[::-1].copy()), u64(n)))
nan_label = label.copy()
nan_label[3] = np.nan
on_both('NaN label', g, lambda lib, h: lib.XGDMatrixSetFloatInfo(h, b'label', ptr(nan_label), u64(n)))
on_both('bad feature type', g, lambda lib, h: lib.XGDMatrixSetStrFeatureInfo(
    h, b'feature_type', (ctypes.c_char_p * 6)(*[b'x'] * 6), u64(6)))
on_both('feature names count', g, lambda lib, h: lib.XGDMatrixSetStrFeatureInfo(
    h, b'feature_name', (ctypes.c_char_p * 5)(*[b'a'] * 5), u64(5)))
on_both('unknown float field', g, lambda lib, h: lib.XGDMatrixSetFloatInfo(
    h, b'labels', ptr(label), u64(n)))
on_both('unknown get field', g, lambda lib, h: lib.XGDMatrixGetFloatInfo(
    h, b'nope', ctypes.byref(u64()), ctypes.byref(ctypes.POINTER(ctypes.c_float)())))

# Files: LibSVM with qid, CSV, and the text XGDMatrixSaveBinary writes read back.
with tempfile.TemporaryDirectory() as d:
    svm = os.path.join(d, 'train.libsvm')
    with open(svm, 'w') as f:
        f.write('1 qid:1 0:1.5 3:2\n0 qid:1 1:-1\n2 qid:2 0:0.5 2:3 5:1e-3\n1 qid:3 4:7\n')
    same('libsvm file', both('file', lambda lib, out: lib.XGDMatrixCreateFromFile(
        (svm + '?format=libsvm').encode(), 1, out)))
    csv = os.path.join(d, 'train.csv')
    with open(csv, 'w') as f:
        f.write('1,2,3\n4,5,6\n0,0,1.5\n')
    # XGBoost's CSV has no label unless label_column is given; treering's reads column 0
    # (docs/data.md), so the comparison names the label column.
    same('csv file', both('csv', lambda lib, out: lib.XGDMatrixCreateFromFile(
        (csv + '?format=csv&label_column=0').encode(), 1, out)))
    same('csv label_column=2', both('csv', lambda lib, out: lib.XGDMatrixCreateFromFile(
        (csv + '?format=csv&label_column=2').encode(), 1, out)))
    both('missing file', lambda lib, out: lib.XGDMatrixCreateFromFile(
        os.path.join(d, 'nope.libsvm').encode(), 1, out))
    h = ctypes.c_void_p()
    assert ours.XGDMatrixCreateFromFile(svm.encode(), 1, ctypes.byref(h)) == 0
    saved = os.path.join(d, 'saved.libsvm')
    check(ours.XGDMatrixSaveBinary(h, saved.encode(), 1) == 0, 'save binary: %s' % message(ours))
    same('saved libsvm read back', both('saved', lambda lib, out: lib.XGDMatrixCreateFromFile(
        (saved + '?format=libsvm').encode(), 1, out)))

# Iterators: three batches (dense, CSR, dense) with labels and weights set on the proxy in
# `next`; the matrices built from them must equal the peer's.
NEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
RESET = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
batches = [x[:15], x[15:30], x[30:]]


def iterate(lib, maker, config, quantile):
    proxy = ctypes.c_void_p()
    assert lib.XGProxyDMatrixCreate(ctypes.byref(proxy)) == 0
    state = {'i': 0, 'keep': []}

    def next_batch(_):
        i = state['i']
        if i == len(batches):
            return 0
        a = np.ascontiguousarray(batches[i])
        if i == 1:  # as CSR
            mask = ~np.isnan(a)
            ip = np.concatenate([[0], np.cumsum(mask.sum(axis=1))]).astype(np.uint64)
            ind = np.nonzero(mask)[1].astype(np.uint32)
            val = a[mask].astype(np.float32)
            state['keep'] += [ip, ind, val]
            assert lib.XGProxyDMatrixSetDataCSR(proxy, iface(ip), iface(ind), iface(val), u64(6)) == 0
        else:
            state['keep'].append(a)
            assert lib.XGProxyDMatrixSetDataDense(proxy, iface(a)) == 0
        lab = label[15 * i:15 * i + len(a)].copy()
        state['keep'].append(lab)
        assert lib.XGDMatrixSetFloatInfo(proxy, b'label', ptr(lab), u64(len(a))) == 0, message(lib)
        state['i'] += 1
        return 1

    def reset(_):
        state['i'] = 0

    cb_next, cb_reset = NEXT(next_batch), RESET(reset)
    out = ctypes.c_void_p()
    if quantile:
        rc = lib.XGQuantileDMatrixCreateFromCallback(None, proxy, None, cb_reset, cb_next,
                                                     config, ctypes.byref(out))
    else:
        rc = lib.XGDMatrixCreateFromCallback(None, proxy, cb_reset, cb_next, config,
                                             ctypes.byref(out))
    lib.XGDMatrixFree(proxy)
    return rc, out


for quantile in (False, True):
    name = 'quantile callback' if quantile else 'callback'
    res = {k: iterate(lib, None, b'{"missing": NaN, "cache_prefix": "", "nthread": 1, "max_bin": 64}',
                      quantile) for k, lib in LIBS.items()}
    check(res['treering'][0] == 0 and res['xgboost'][0] == 0, '%s: %s %s' % (name, res, message(ours)))
    a, p = res['treering'][1], res['xgboost'][1]
    check(shape(ours, a) == shape(peer, p), '%s: shape %s vs %s' % (name, shape(ours, a), shape(peer, p)))
    check(np.allclose(float_info(ours, a, 'label'), float_info(peer, p, 'label')), name + ': labels')
    # XGBoost 1.7 builds an external-memory matrix here, which GetDataAsCSR cannot read: the
    # entries are compared with the one-piece dense matrix instead.
    if not quantile:
        check(csr(ours, a) == csr(ours, base['treering']), name + ': equals the one-piece matrix')
res = {k: iterate(lib, None, b'{"missing": NaN, "cache_prefix": "cache"}', False)[0]
       for k, lib in LIBS.items()}
check(res['treering'] == -1, 'external memory refused: %s' % res)

if failures:
    print('%d failures' % len(failures))
    sys.exit(1)
print('capi_dmatrix_peer: all comparisons agree')
