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
    with open(path) as f:
        learner = json.load(f)["learner"]
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
        assert files == ["0002.json", "0004.json", "0005.json"], files
        assert [rounds_in(os.path.join(d, "snap", f))[0] for f in files] == [2, 4, 5]
    with t.TempDir() as d:  # model_out is written even when num_round % save_period == 0
        train(d, "num_round=4", "save_period=2", "model_out=final.json")
        assert sorted(f for f in os.listdir(d) if f.endswith(".json")) == \
            ["0002.json", "0004.json", "final.json"]


def test_continue_from_model_in():
    with t.TempDir() as d:
        train(d, "num_round=3", "model_out=a.json")
        train(d, "num_round=2", "model_in=a.json", "model_out=b.json")
        assert rounds_in(os.path.join(d, "b.json"))[0] == 5
        with open(os.path.join(d, "a.json")) as a, open(os.path.join(d, "b.json")) as b:
            first = json.load(a)["learner"]["gradient_booster"]["model"]["trees"]
            both = json.load(b)["learner"]["gradient_booster"]["model"]["trees"]
        assert [tr["split_conditions"] for tr in both[:3]] == \
            [tr["split_conditions"] for tr in first]


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
