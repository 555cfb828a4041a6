#!/usr/bin/python3
"""Model files written by task=train: num_round=0, save_period snapshots, the default name,
continued training from model_in, and early stopping (XGBoost semantics, checked against the
metric lines treering printed)."""
import json
import os

import cli_testlib as t
from interop_test import make_data


def train(d, *keys):
    train_path, test_path = make_data(d, "binary")
    return t.run([t.treering_bin(), "/dev/null", "data=" + train_path, "eval[test]=" + test_path,
                  "objective=binary:logistic", "max_depth=3", "nthread=2"] + list(keys),
                 cwd=d)


def rounds_in(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:1] != b"{":  # NNNN.model in another of XGBoost's formats: ask XGBoost
        import xgboost
        booster = xgboost.Booster(model_file=path)
        return booster.num_boosted_rounds(), booster.attributes()
    learner = json.loads(data)["learner"]
    return len(learner["gradient_booster"]["model"]["trees"]), learner["attributes"]


def test_num_round_zero_writes_untrained_model():
    import xgboost as xgb
    with t.TempDir() as d:
        train(d, "num_round=0", "model_out=m.json")
        assert rounds_in(os.path.join(d, "m.json"))[0] == 0
        booster = xgb.Booster(model_file=os.path.join(d, "m.json"))
        preds = booster.predict(xgb.DMatrix(os.path.join(d, "binary.test.libsvm?format=libsvm")))
        assert abs(float(preds.max()) - 0.5) < 1e-7 and abs(float(preds.min()) - 0.5) < 1e-7


def test_save_period_and_default_name():
    with t.TempDir() as d:
        train(d, "num_round=5", "save_period=2", "model_dir=snap")
        files = sorted(os.listdir(os.path.join(d, "snap")))
        assert files == ["0002.model", "0004.model", "0005.model"], files
        assert [rounds_in(os.path.join(d, "snap", f))[0] for f in files] == [2, 4, 5]
    with t.TempDir() as d:  # model_out is written even when num_round % save_period == 0
        train(d, "num_round=4", "save_period=2", "model_out=final.json")
        assert sorted(f for f in os.listdir(d) if f.endswith((".json", ".model"))) == \
            ["0002.model", "0004.model", "final.json"]


def test_continue_from_model_in():
    """3 rounds, then 2 more with model_in, must write the same file as 5 rounds in one go, byte
    for byte: no field may depend on where training stopped. The cuts come from the data alone,
    the loaded trees give the margins the uninterrupted run accumulated, and the sampling
    streams depend on the seed and the model's round / tree number, not on how many rounds
    this process ran (as for a restarted distributed job, docs/distributed.md). Binary with row
    and column sampling, and 3 classes (3 trees a round: tree ids and tree_info continue)."""
    for name, keys in (("binary", ["objective=binary:logistic", "subsample=0.8",
                                   "colsample_bytree=0.8", "colsample_bynode=0.8", "seed=5"]),
                       ("softprob", ["objective=multi:softprob", "num_class=3"])):
        with t.TempDir() as d:
            train_path, test_path = make_data(d, name)

            def run(*extra):
                t.run([t.treering_bin(), "/dev/null", "data=" + train_path,
                       "eval[test]=" + test_path, "max_depth=3", "nthread=2"] + keys +
                      list(extra), cwd=d)

            run("num_round=5", "model_out=full.json")
            run("num_round=3", "model_out=first.json")
            run("num_round=2", "model_in=first.json", "model_out=continued.json")
            trees_per_round = 3 if name == "softprob" else 1
            assert rounds_in(os.path.join(d, "continued.json"))[0] == 5 * trees_per_round
            with open(os.path.join(d, "full.json"), "rb") as a, \
                    open(os.path.join(d, "continued.json"), "rb") as b:
                full, continued = a.read(), b.read()
            if continued != full:
                f, c = json.loads(full), json.loads(continued)
                raise AssertionError("%s: 3 + 2 rounds (model_in) differ from 5 in one go: %s" %
                                     (name, first_difference(f, c)))
            if name == "binary":  # the check has teeth: another seed samples other rows
                run("num_round=2", "model_in=first.json", "model_out=other.json", "seed=6")
                with open(os.path.join(d, "other.json"), "rb") as f:
                    assert f.read() != full, "the seed does not matter: sampling not exercised"


def first_difference(a, b, path=""):
    """The JSON path and values of the first difference between two parsed models."""
    if a == b:
        return "%s: equal values, different bytes" % (path or "/")
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s/%s: only in %s" % (path, k, "the first" if k in a else "the second")
            if a[k] != b[k]:
                return first_difference(a[k], b[k], "%s/%s" % (path, k))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, "%s/%d" % (path, i))
    return "%s: %.200r vs %.200r" % (path or "/", a, b)


def expected_stop(values, rounds):
    """XGBoost Python's EarlyStopping on a minimised metric: (best round, rounds trained)."""
    best, stale = 0, 0
    for i, v in enumerate(values):
        if i == 0 or v < values[best]:
            best, stale = i, 0
        else:
            stale += 1
        if stale >= rounds:
            return best, i + 1
    return best, len(values)


def test_early_stopping_as_xgboost():
    with t.TempDir() as d:
        full = train(d, "num_round=60", "eta=1", "max_depth=6", "eval_metric=logloss")
        values = [float(line.split(":")[-1]) for line in full.stdout.splitlines()]
        best, trained = expected_stop(values, 3)
        assert trained < 60, "the data set should overfit within 60 rounds at eta=1"
        stopped = train(d, "num_round=60", "eta=1", "max_depth=6", "eval_metric=logloss",
                        "early_stopping_rounds=3", "model_out=es.json")
        assert stopped.stdout.splitlines() == full.stdout.splitlines()[:trained]
        trees, attrs = rounds_in(os.path.join(d, "es.json"))
        assert trees == trained, (trees, trained)
        assert attrs["best_iteration"] == str(best), attrs
        assert attrs["best_ntree_limit"] == str(best + 1), attrs
        assert float(attrs["best_score"]) == values[best], (attrs, values[best])


def test_pred_to_stdout_and_verbosity_zero():
    with t.TempDir() as d:
        quiet = train(d, "num_round=2", "model_out=m.json", "verbosity=0")
        assert quiet.stderr == "", quiet.stderr  # no summary line
        assert len(quiet.stdout.splitlines()) == 2, quiet.stdout
        pred = ["task=pred", "model_in=m.json", "test:data=binary.test.libsvm"]
        t.run([t.treering_bin(), "/dev/null", "name_pred=p.txt"] + pred, cwd=d)
        out = t.run([t.treering_bin(), "/dev/null", "name_pred=stdout"] + pred, cwd=d)
        with open(os.path.join(d, "p.txt")) as f:
            assert out.stdout == f.read()
        assert not os.path.exists(os.path.join(d, "stdout"))


def test_help_and_version():
    help_text = t.run([t.treering_bin(), "--help"]).stdout
    for key in ("task = train", "num_round = 10", "eval[NAME]", "early_stopping_rounds = 0",
                "max_depth", "eta", "objective", "rabit_*"):
        assert key in help_text, key
    assert "treering" in t.run([t.treering_bin(), "--version"]).stdout


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_num_round_zero_writes_untrained_model, test_save_period_and_default_name,
            test_continue_from_model_in, test_early_stopping_as_xgboost,
            test_pred_to_stdout_and_verbosity_zero, test_help_and_version])
