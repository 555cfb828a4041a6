"""libtreering's booster calls against the peer, Debian's libxgboost.so.0, through ctypes: the
same params and data through both libraries give the same eval lines and predictions (to the
CLI tests' 1e-5), models saved by one load in the other (JSON, UBJSON, legacy binary),
serialize / unserialize round-trips, custom-gradient rounds and base_margin agree.
usage: booster_peer_test.py BUILD_DIR (exit 77 when the peer is missing)"""
import json
import math
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capi_testlib as t  # noqa: E402

TOL = 1e-5
PARAMS = [("objective", "binary:logistic"), ("max_depth", "3"), ("eta", "0.3"),
          ("eval_metric", "logloss"), ("eval_metric", "auc"), ("nthread", "2"),
          ("tree_method", "hist")]
TMP = tempfile.mkdtemp()


def write_data(path, rows, seed):
    rnd = random.Random(seed)
    labels = []
    with open(path, "w") as f:
        for _ in range(rows):
            x = [rnd.random() for _ in range(6)]
            y = int(x[0] + x[1] * 0.5 + 0.2 * rnd.random() > 0.9)
            labels.append(y)
            f.write("%d %s\n" % (y, " ".join("%d:%.5f" % (i, v) for i, v in enumerate(x))))
    return labels


TRAIN = os.path.join(TMP, "train.libsvm")
TEST = os.path.join(TMP, "test.libsvm")
write_data(TRAIN, 500, 1)
write_data(TEST, 200, 2)


def libs():
    return t.Lib(t.treering_lib_path()), t.Lib(t.PEER)


def uri(lib, path):
    return path + "?format=libsvm" if lib.path == t.PEER else path


def train(lib, rounds=4, params=PARAMS, base_margin=None):
    d = lib.dmatrix(uri(lib, TRAIN), base_margin=base_margin)
    e = lib.dmatrix(uri(lib, TEST), base_margin=base_margin and base_margin[:200])
    b = lib.booster([d, e], params)
    lines = []
    for i in range(rounds):
        lib.update(b, i, d)
        lines.append(lib.eval(b, i, [("train", d), ("test", e)]))
    return b, d, e, lines


def assert_lines_close(ours, theirs):
    for a, b in zip(ours, theirs):
        fa, fb = a.split("\t"), b.split("\t")
        assert [x.split(":")[0] for x in fa] == [x.split(":")[0] for x in fb], (a, b)
        for x, y in zip(fa[1:], fb[1:]):
            assert abs(float(x.split(":")[1]) - float(y.split(":")[1])) <= TOL, (a, b)


def assert_close(a, b, what):
    assert len(a) == len(b), (what, len(a), len(b))
    diff = max(abs(x - y) for x, y in zip(a, b))
    assert diff <= TOL, "%s: max abs diff %g" % (what, diff)


def test_eval_lines_and_predictions():
    ours, peer = libs()
    bo, _, eo, lo = train(ours)
    bp, _, ep, lp = train(peer)
    assert re.match(r"^\[3\]\ttrain-logloss:\d\.\d{17}\ttrain-auc:", lo[-1]), lo[-1]
    assert_lines_close(lo, lp)
    assert_close(ours.predict(bo, eo), peer.predict(bp, ep), "predictions")
    assert ours.rounds(bo) == peer.rounds(bp) == 4
    assert ours.num_feature(bo) == peer.num_feature(bp) == 6


def test_models_cross_load():
    ours, peer = libs()
    bo, _, eo, _ = train(ours)
    bp, _, ep, _ = train(peer)
    want = peer.predict(bp, ep)
    for fmt, ext in (("json", "json"), ("ubj", "ubj"), ("deprecated", "model")):
        for src, dst, b_src in ((ours, peer, bo), (peer, ours, bp)):
            raw = src.save_buffer(b_src, fmt)
            path = os.path.join(TMP, "m.%s" % ext)
            src.save(b_src, path)
            d = dst.dmatrix(uri(dst, TEST))
            for load in (lambda b: dst.load_buffer(b, raw), lambda b: dst.load(b, path)):
                b = dst.booster([], [("nthread", "2")])
                load(b)
                assert_close(dst.predict(b, d), want, "%s model %s -> %s" % (fmt, src.path,
                                                                              dst.path))
                dst.free(b)
    # Our model saved in each format is what the peer writes for the same model, feature
    # names and types included (learner.feature_names / feature_types).
    names = ["f_%d" % i for i in range(6)]
    for field, values in (("feature_name", names), ("feature_type", ["q"] * 6)):
        arr = (t.ctypes.c_char_p * 6)(*[v.encode() for v in values])
        peer.call("XGBoosterSetStrFeatureInfo", bp, field.encode(), arr, t.ctypes.c_uint64(6))
    assert b'"feature_names":["f_0","f_1"' in peer.save_buffer(bp, "json")
    for fmt in ("json", "ubj", "deprecated"):
        raw = peer.save_buffer(bp, fmt)
        b = ours.booster([], [])
        ours.load_buffer(b, raw)
        assert ours.save_buffer(b, fmt) == raw, fmt


def test_serialize_round_trip_continues_identically():
    ours, peer = libs()
    for lib in (ours, peer):
        b, d, e, _ = train(lib, rounds=3)
        raw = lib.serialize(b)
        copy = lib.booster([d], [])
        lib.unserialize(copy, raw)
        assert lib.serialize(copy) == raw or lib is peer
        for i in range(3, 5):
            lib.update(b, i, d)
            lib.update(copy, i, d)
        assert lib.save_buffer(b, "json") == lib.save_buffer(copy, "json"), lib.path
        if lib is ours:  # the peer's unserialized booster lists each eval_metric twice
            assert lib.eval(b, 4, [("test", e)]) == lib.eval(copy, 4, [("test", e)])


def test_peer_pickle_unserializes_here():
    """XGBoost 1.7 pickles a booster as a UBJSON snapshot; ours reads its model and the
    parameters treering knows, and continues training as the peer does."""
    ours, peer = libs()
    bp, dp, ep, _ = train(peer, rounds=3)
    raw = peer.serialize(bp)
    d = ours.dmatrix(TRAIN)
    e = ours.dmatrix(TEST)
    b = ours.booster([d], [])
    ours.unserialize(b, raw)
    assert_close(ours.predict(b, e), peer.predict(bp, ep), "predictions after unserialize")
    ours.update(b, 3, d)
    peer.update(bp, 3, dp)
    assert_close(ours.predict(b, e), peer.predict(bp, ep), "a round after unserialize")


def test_custom_gradients():
    ours, peer = libs()
    labels = [float(l.split()[0]) for l in open(TRAIN)]
    preds = {}
    for lib in (ours, peer):
        d = lib.dmatrix(uri(lib, TRAIN))
        e = lib.dmatrix(uri(lib, TEST))
        b = lib.booster([d], [("max_depth", "3"), ("nthread", "2"), ("tree_method", "hist"),
                              ("base_score", "0.5")])
        for _ in range(3):
            margin = lib.predict(b, d, margin=True)
            p = [1 / (1 + math.exp(-m)) for m in margin]
            lib.boost(b, d, [pi - y for pi, y in zip(p, labels)],
                      [max(pi * (1 - pi), 1e-16) for pi in p])
        preds[lib.path] = lib.predict(b, e, margin=True)
    assert_close(preds[ours.path], preds[peer.path], "custom-gradient margins")


def test_base_margin():
    ours, peer = libs()
    rnd = random.Random(5)
    margin = [rnd.uniform(-1, 1) for _ in range(500)]
    bo, _, eo, lo = train(ours, base_margin=margin)
    bp, _, ep, lp = train(peer, base_margin=margin)
    assert_lines_close(lo, lp)
    assert_close(ours.predict(bo, eo), peer.predict(bp, ep), "predictions with base_margin")


def test_config_round_trip():
    ours, _ = libs()
    b, d, _, _ = train(ours, rounds=1)
    cfg = ours.config(b)
    assert '"learner"' in cfg and '"version":[1,7,4]' in cfg, cfg
    other = ours.booster([d], [])
    ours.load_config(other, cfg)
    got, want = json.loads(ours.config(other)), json.loads(cfg)
    assert got["treering_params"] == want["treering_params"] == [list(p) for p in PARAMS]
    for section in ("generic_param", "learner_train_param", "metrics", "objective"):
        assert got["learner"][section] == want["learner"][section], section
    # XGBoost loads it (its LoadConfig needs the objective's parameter block and
    # learner_model_param, which come from the model).
    peer = t.Lib(t.PEER)
    dp = peer.dmatrix(uri(peer, TRAIN))
    pb = peer.booster([dp], [])
    peer.load_config(pb, cfg)
    peer.update(pb, 0, dp)
    line = peer.eval(pb, 0, [("train", dp)])
    assert "train-logloss" in line and "train-auc" in line, line


def test_our_pickle_unserializes_in_the_peer():
    """treering pickles as XGBoost 1.7 does (UBJSON {Config, Model}): libxgboost reads it."""
    ours, peer = libs()
    b, _, e, _ = train(ours, rounds=3)
    raw = ours.serialize(b)
    assert raw.startswith(b"{L\x00\x00\x00\x00\x00\x00\x00\x06Config"), raw[:20]
    pb = peer.booster([], [])
    peer.unserialize(pb, raw)
    assert_close(peer.predict(pb, peer.dmatrix(uri(peer, TEST))), ours.predict(b, e),
                 "the peer's predictions from our pickle")


def main():
    if not os.path.exists(t.PEER):
        print("SKIP: the peer %s is not installed" % t.PEER)
        sys.exit(t.SKIP)
    t.run_tests([test_eval_lines_and_predictions, test_models_cross_load,
                 test_serialize_round_trip_continues_identically,
                 test_peer_pickle_unserializes_here, test_our_pickle_unserializes_in_the_peer,
                 test_custom_gradients,
                 test_base_margin, test_config_round_trip])


if __name__ == "__main__":
    main()
