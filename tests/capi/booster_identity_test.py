"""A model trained through libtreering's C API is byte-identical to the `treering` CLI's with
the same parameters and data (issue 30: the CLI and the C API are one code path). Small
generated LibSVM sets; objectives binary:logistic, multi:softprob, rank:pairwise (qid
groups), dart, categorical features (the CLI's feature_types key vs the DMatrix's feature
types). usage: booster_identity_test.py BUILD_DIR"""
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capi_testlib as t  # noqa: E402

ROUNDS = 6


def write_libsvm(path, rows, label_of, features=8, categorical=(), qid_every=0, seed=3):
    rnd = random.Random(seed)
    with open(path, "w") as f:
        for r in range(rows):
            x = [rnd.random() for _ in range(features)]
            for c in categorical:
                x[c] = float(rnd.randrange(5))
            parts = [repr(label_of(x, rnd))]
            if qid_every:
                parts.append("qid:%d" % (r // qid_every))
            for i, v in enumerate(x):
                if rnd.random() < 0.1:
                    continue  # missing
                parts.append("%d:%s" % (i, int(v) if i in categorical else "%.6g" % v))
            f.write(" ".join(parts) + "\n")


CASES = {
    "binary": dict(label=lambda x, r: int(x[0] + 0.3 * r.random() > 0.6),
                   params=[("objective", "binary:logistic"), ("max_depth", "4"),
                           ("eta", "0.3"), ("eval_metric", "auc")]),
    "multi": dict(label=lambda x, r: min(2, int(3 * x[1])),
                  params=[("objective", "multi:softprob"), ("num_class", "3"),
                          ("max_depth", "3"), ("subsample", "0.8")]),
    "rank": dict(label=lambda x, r: int(4 * x[2]), qid_every=10,
                 params=[("objective", "rank:pairwise"), ("max_depth", "3")]),
    "dart": dict(label=lambda x, r: x[0] * 2 + x[3],
                 params=[("booster", "dart"), ("rate_drop", "0.3"), ("max_depth", "3"),
                         ("objective", "reg:squarederror")]),
    "categorical": dict(label=lambda x, r: float(x[1] in (1.0, 3.0)) + x[0],
                        categorical=(1, 4),
                        params=[("tree_method", "hist"), ("max_depth", "4"),
                                ("max_cat_to_onehot", "1")]),
}
COMMON = [("nthread", "2"), ("seed", "7")]


def cli_model(case, data, out):
    spec = CASES[case]
    keys = ["%s=%s" % kv for kv in spec["params"] + COMMON]
    if spec.get("categorical"):
        types = ["c" if i in spec["categorical"] else "q" for i in range(8)]
        keys.append("feature_types=" + ",".join(types))
    cli = os.path.join(t.build_dir(), "bin", "treering")
    subprocess.run([cli, "/dev/null", "data=" + data, "num_round=%d" % ROUNDS,
                    "model_out=" + out, "verbosity=0"] + keys, check=True, capture_output=True)
    with open(out, "rb") as f:
        return f.read()


def capi_model(lib, case, data, out, types_from="dmatrix"):
    spec = CASES[case]
    types = None
    params = spec["params"] + COMMON + [("verbosity", "0")]
    if spec.get("categorical"):
        types = ["c" if i in spec["categorical"] else "q" for i in range(8)]
        if types_from == "param":
            params = params + [("feature_types", ",".join(types))]
            types = None
    d = lib.dmatrix(data, feature_types=types)
    b = lib.booster([d], params)
    for i in range(ROUNDS):
        lib.update(b, i, d)
        lib.eval(b, i, [("train", d)])  # evaluating must not change the model
    lib.save(b, out)
    lib.free(b)
    lib.free_dmatrix(d)
    with open(out, "rb") as f:
        return f.read()


def both_refuse_legacy_binary(lib, case, data, tmp):
    """The legacy binary format has no categorical splits: the CLI and the C API refuse alike."""
    try:
        cli_model(case, data, os.path.join(tmp, "cli.cat.model"))
        print("FAIL the CLI saved categorical splits in the legacy binary format")
        return False
    except subprocess.CalledProcessError:
        pass
    try:
        capi_model(lib, case, data, os.path.join(tmp, "capi.cat.model"))
        print("FAIL the C API saved categorical splits in the legacy binary format")
        return False
    except t.CallFailed as e:
        ok = "legacy binary format has no categorical splits" in str(e)
        print("%s %s.model refused by both: %s" % ("PASS" if ok else "FAIL", case, e))
        return ok


# Parameters changed between rounds: eta (taken in place) after 3 rounds, max_depth (the
# learner is rebuilt around its model) after 5. The CLI does the same in three jobs, each
# continuing from the last one's model (model_in).
STAGES = [(3, [("eta", "0.3")]), (2, [("eta", "0.1")]), (2, [("max_depth", "2")])]
BASE = [("objective", "binary:logistic"), ("max_depth", "4"), ("subsample", "0.7")] + COMMON


def changed_params_match_cli(lib, data, tmp):
    cli = os.path.join(t.build_dir(), "bin", "treering")
    model_in = []
    params = list(BASE)
    for n, (rounds, change) in enumerate(STAGES):
        params += change
        out = os.path.join(tmp, "stage%d.json" % n)
        subprocess.run([cli, "/dev/null", "data=" + data, "num_round=%d" % rounds,
                        "model_out=" + out, "verbosity=0"] + model_in +
                       ["%s=%s" % kv for kv in params], check=True, capture_output=True)
        model_in = ["model_in=" + out]
    with open(out, "rb") as f:
        want = f.read()
    d = lib.dmatrix(data)
    b = lib.booster([d], BASE)
    i = 0
    for rounds, change in STAGES:
        for k, v in change:
            lib.call("XGBoosterSetParam", b, k.encode(), v.encode())
        for _ in range(rounds):
            lib.update(b, i, d)
            i += 1
    got = os.path.join(tmp, "changed.json")
    lib.save(b, got)
    with open(got, "rb") as f:
        ok = f.read() == want
    print("%s params changed between rounds (eta in place, max_depth rebuilt) = the CLI's "
          "model_in chain" % ("PASS" if ok else "FAIL"))
    return ok


def main():
    lib = t.Lib(t.treering_lib_path())
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case, spec in CASES.items():
            data = os.path.join(tmp, case + ".libsvm")
            write_libsvm(data, 400, spec["label"], categorical=spec.get("categorical", ()),
                         qid_every=spec.get("qid_every", 0))
            for ext in ("json", "ubj", "model"):
                if spec.get("categorical") and ext == "model":
                    failed += not both_refuse_legacy_binary(lib, case, data, tmp)
                    continue
                ours = cli_model(case, data, os.path.join(tmp, "cli.%s.%s" % (case, ext)))
                variants = ["dmatrix", "param"] if spec.get("categorical") else ["dmatrix"]
                for v in variants:
                    got = capi_model(lib, case, data,
                                     os.path.join(tmp, "capi.%s.%s" % (case, ext)), v)
                    ok = got == ours
                    print("%s %s.%s (feature types from %s): %d bytes" %
                          ("PASS" if ok else "FAIL", case, ext, v, len(ours)))
                    failed += not ok
        failed += not changed_params_match_cli(lib, os.path.join(tmp, "binary.libsvm"), tmp)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
