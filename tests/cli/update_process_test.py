#!/usr/bin/python3
"""process_type=update in the config-file CLI, against Debian's `xgboost` CLI: a model trained
on one half of the data, then refreshed on the other half (refresh_leaf 1 and 0) and pruned to a
smaller depth, gives XGBoost's model file byte for byte; two workers under treering-submit
refresh to the single process's file; running more rounds than the model has is one error."""
import os
import shutil

import cli_testlib as t

KEYS = ["objective=binary:logistic", "tree_method=hist", "max_depth=4", "nthread=1"]


def make_halves(d):
    import numpy as np
    rng = np.random.default_rng(5)
    # + 0.0: no -0.0 values (which of -0 and 0 becomes a cut differs from XGBoost: issue 34)
    x = np.round(rng.normal(size=(1600, 5)) * 16) / 16 + 0.0
    x[rng.random(x.shape) < 0.08] = np.nan
    z = np.nan_to_num(x[:, 0]) - 0.5 * np.nan_to_num(x[:, 1]) ** 2 + np.nan_to_num(x[:, 2])
    y = (z + rng.normal(scale=0.6, size=len(x)) > 0).astype(float)
    paths = []
    for name, rows in (("first", slice(0, 800)), ("second", slice(800, None))):
        paths.append(os.path.join(d, name + ".libsvm"))
        t.write_libsvm(paths[-1], x[rows], y[rows])
    return paths


def read(path):
    with open(path, "rb") as f:
        return f.read()


def test_update_matches_xgboost_cli():
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI (Debian package xgboost) is not installed")
    with t.TempDir() as d:
        first, second = make_halves(d)
        updates = {"refresh": ["updater=refresh"],
                   "stats_only": ["updater=refresh", "refresh_leaf=0"],
                   "refresh_prune": ["updater=refresh,prune", "gamma=2"]}
        for tag, program in (("ours", t.treering_bin()), ("theirs", "xgboost")):
            base = os.path.join(d, tag + "_base.json")
            t.run([program, "/dev/null", "data=" + first, "num_round=5", "model_out=" + base] +
                  KEYS)
            for name, keys in updates.items():
                t.run([program, "/dev/null", "data=" + second, "num_round=5", "model_in=" + base,
                       "process_type=update", "model_out=" + os.path.join(
                           d, "%s_%s.json" % (tag, name))] + KEYS + keys)
        for name in updates:
            ours, theirs = (os.path.join(d, "%s_%s.json" % (tag, name))
                            for tag in ("ours", "theirs"))
            assert read(ours) == read(theirs), "%s: %s differs from XGBoost's %s" % (
                name, ours, theirs)
        print("refresh, refresh_leaf=0 and refresh,prune give XGBoost's model files")


def test_two_workers_refresh_to_the_single_model():
    submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(submit):
        t.skip("treering-submit is not built")
    with t.TempDir() as d:
        first, second = make_halves(d)
        base = os.path.join(d, "base.json")
        t.run([t.treering_bin(), "/dev/null", "data=" + first, "num_round=4",
               "model_out=" + base] + KEYS)
        update = ["data=" + second, "num_round=4", "model_in=" + base, "process_type=update",
                  "updater=refresh"] + KEYS
        single, dist = os.path.join(d, "single.json"), os.path.join(d, "dist.json")
        t.run([t.treering_bin(), "/dev/null", "model_out=" + single] + update)
        t.run([submit, "--cluster", "local", "--num-workers", "2", "--", t.treering_bin(),
               "/dev/null", "model_out=" + dist] + update, cwd=d)
        assert read(single) == read(dist), "2 workers: %s differs from %s" % (dist, single)


def test_more_rounds_than_the_model_is_one_error():
    with t.TempDir() as d:
        first, second = make_halves(d)
        base = os.path.join(d, "base.json")
        t.run([t.treering_bin(), "/dev/null", "data=" + first, "num_round=2",
               "model_out=" + base] + KEYS)
        out = os.path.join(d, "out.json")
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + second, "num_round=3",
                      "model_in=" + base, "process_type=update", "updater=refresh",
                      "model_out=" + out] + KEYS, check=False)
        assert proc.returncode != 0 and not os.path.exists(out), proc.stderr
        assert "no more trees left for updating" in proc.stderr, proc.stderr
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + second, "num_round=1",
                      "updater=refresh"] + KEYS, check=False)
        assert proc.returncode == 2 and "updater" in proc.stderr, proc.stderr


if __name__ == "__main__":
    t.main([test_update_matches_xgboost_cli, test_two_workers_refresh_to_the_single_model,
            test_more_rounds_than_the_model_is_one_error])
