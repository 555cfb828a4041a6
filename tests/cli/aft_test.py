#!/usr/bin/python3
"""survival:aft from the CLI (issue 35): label intervals come from FILE.bounds beside the data
file (docs/data.md), one "LOWER UPPER" line per row.

* trained from a LibSVM file and its .bounds, predictions and the metric lines equal
  python3-xgboost 1.7.4 trained on the same rows with label_lower_bound / label_upper_bound;
* bad bounds (lower > upper, negative, NaN, not two numbers, wrong row count) and a missing
  side file are one line on stderr naming the file, the line and the key, exit 2, no model;
* two workers under treering-submit write the model one process writes, byte for byte."""
import os

import cli_testlib as t

KEYS = ["objective=survival:aft", "aft_loss_distribution=logistic",
        "aft_loss_distribution_scale=0.9", "eval_metric=aft-nloglik",
        "eval_metric=interval-regression-accuracy", "max_depth=3", "num_round=5", "nthread=1",
        "tree_method=hist", "eta=0.3"]


def make_data(d, rows=400, seed=2):
    """train.libsvm (label 0: survival:aft reads only the bounds) and train.libsvm.bounds with
    uncensored, right-, left- and interval-censored rows in turn."""
    import numpy as np
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(rows, 4)) * 8) / 8
    t_ = np.exp(0.7 * x[:, 0] - 0.4 * x[:, 1] + 0.5 * rng.normal(size=rows))
    lines = []
    for i, ti in enumerate(t_):
        kind = i % 4
        lo, hi = ("%.6g" % ti,) * 2
        if kind == 1:
            hi = "inf"
        elif kind == 2:
            lo = "0"
        elif kind == 3:
            lo, hi = "%.6g" % (ti * 0.6), "%.6g" % (ti * 1.7)
        lines.append("%s %s\n" % (lo, hi) if i % 2 else "%s,%s\n" % (lo, hi))
    path = os.path.join(d, "train.libsvm")
    t.write_libsvm(path, x, np.zeros(rows))
    with open(path + ".bounds", "w") as f:
        f.write("# lower upper\n" + "".join(lines))
    return path


def peer_booster(path):
    import numpy as np
    import xgboost as xgb
    lo, hi = [], []
    with open(path + ".bounds") as f:
        for line in f:
            if line.startswith("#"):
                continue
            a, b = line.replace(",", " ").split()
            lo.append(float(a))
            hi.append(float(b))
    dm = xgb.DMatrix(path + "?format=libsvm")
    dm.set_float_info("label_lower_bound", np.asarray(lo, dtype=np.float32))
    dm.set_float_info("label_upper_bound", np.asarray(hi, dtype=np.float32))
    params = dict(kv.split("=", 1) for kv in KEYS if not kv.startswith(("num_round",
                                                                        "eval_metric")))
    params["eval_metric"] = ["aft-nloglik", "interval-regression-accuracy"]
    log = {}
    booster = xgb.train(params, dm, 5, evals=[(dm, "train")], evals_result=log,
                        verbose_eval=False)
    return booster, dm, log


def test_side_file_matches_python_xgboost():
    with t.TempDir() as d:
        data = make_data(d)
        model, pred = os.path.join(d, "aft.json"), os.path.join(d, "aft.pred")
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + data, "eval[train]=" + data,
                      "model_out=" + model] + KEYS, cwd=d)
        t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model,
               "test:data=" + data, "name_pred=" + pred, "nthread=1"])
        booster, dm, log = peer_booster(data)
        ours, theirs = t.read_values(pred), [float(v) for v in booster.predict(dm)]
        worst = max(abs(a - b) / max(1.0, abs(b)) for a, b in zip(ours, theirs))
        assert len(ours) == len(theirs) and worst <= 1e-5, "predictions differ by %g" % worst
        metric_lines = [l for l in proc.stdout.splitlines() if l.startswith("[")]
        assert len(metric_lines) == 5, proc.stdout
        for i, line in enumerate(metric_lines):
            fields = dict(f.split(":") for f in line.split("\t")[1:])
            for name in ("aft-nloglik", "interval-regression-accuracy"):
                want = log["train"][name][i]
                got = float(fields["train-" + name])
                assert abs(got - want) <= 1e-5, "%s round %d: %g vs %g" % (name, i, got, want)


def expect_error(d, data, needles):
    proc = t.run([t.treering_bin(), "/dev/null", "data=" + data, "model_out=bad.json"] + KEYS,
                 cwd=d, check=False)
    assert proc.returncode == 2, "exit %d: %s" % (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, "expected one line, got %r" % proc.stderr
    for needle in needles:
        assert needle in lines[0], "%r not in %r" % (needle, lines[0])
    assert not os.path.exists(os.path.join(d, "bad.json")), "model written despite the error"


def test_bad_bounds_name_file_line_and_key():
    with t.TempDir() as d:
        data = make_data(d, rows=8)
        bounds = data + ".bounds"
        with open(bounds) as f:
            good = f.read().splitlines()
        cases = [("3 2", ["train.libsvm.bounds:4", "above UPPER", "data"]),
                 ("-1 2", ["train.libsvm.bounds:4", "negative", "data"]),
                 ("nan 2", ["train.libsvm.bounds:4", "NaN", "data"]),
                 ("1", ["train.libsvm.bounds:4", "expected 'LOWER UPPER'", "data"]),
                 ("1 two", ["train.libsvm.bounds:4", "expected 'LOWER UPPER'", "data"])]
        for bad, needles in cases:
            with open(bounds, "w") as f:
                f.write("\n".join(good[:3] + [bad] + good[4:]) + "\n")
            expect_error(d, data, needles)
        with open(bounds, "w") as f:
            f.write("\n".join(good[:-1]) + "\n")
        expect_error(d, data, ["train.libsvm.bounds", "7 rows of bounds", "data has 8", "data"])
        os.remove(bounds)
        expect_error(d, data, ["data", "survival:aft needs", "train.libsvm.bounds"])


def test_two_workers_equal_one_process():
    submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(submit):
        t.skip("treering-submit is not built")
    with t.TempDir() as d:
        data = make_data(d, rows=1200)
        keys = ["data=" + data, "eval[train]=" + data] + KEYS
        dist, single = os.path.join(d, "dist.json"), os.path.join(d, "single.json")
        proc = t.run([submit, "--cluster", "local", "--num-workers", "2", "--",
                      t.treering_bin(), "/dev/null", "model_out=" + dist] + keys, cwd=d)
        one = t.run([t.treering_bin(), "/dev/null", "model_out=" + single] + keys, cwd=d)
        dist_lines = [l for l in proc.stdout.splitlines() if l.startswith("[")]
        one_lines = [l for l in one.stdout.splitlines() if l.startswith("[")]
        assert len(dist_lines) == len(one_lines) == 5, (dist_lines, one_lines)
        for a, b in zip(dist_lines, one_lines):  # sums of doubles in another order: to 1e-12
            fa, fb = a.split("\t"), b.split("\t")
            assert [f.split(":")[0] for f in fa] == [f.split(":")[0] for f in fb], (a, b)
            for x, y in zip(fa[1:], fb[1:]):
                assert abs(float(x.split(":")[1]) - float(y.split(":")[1])) <= 1e-12, (a, b)
        with open(dist, "rb") as a, open(single, "rb") as b:
            assert a.read() == b.read(), "the 2-worker model differs from one process's"


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_side_file_matches_python_xgboost, test_bad_bounds_name_file_line_and_key,
            test_two_workers_equal_one_process])
