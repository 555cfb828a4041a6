#!/usr/bin/python3
"""Learning to rank against python3-xgboost 1.7 (the peer), on MSLR-shaped generated data
(bench/boost/rank_data.py: query groups of 10..200 documents, relevance 0..4, 50 features,
some queries without a relevant document).

* rank:pairwise, rank:ndcg, rank:map with nthread=1 on both sides: XGBoost's pair sampler is
  deterministic for a given nthread, so the trees are XGBoost's and the test margins agree to
  1e-5 (also with num_pairsample=3, fix_list_weight=2.5); XGBoost loads treering's model file
  (its lambda_rank_param block) and predicts the same.
* ndcg, map, pre with @k and '-': treering's values (printed to 17 digits) against XGBoost's
  metric of the same predictions (treering's model's test margins given to XGBoost as
  base_margin; XGBoost prints 6 significant digits, so values <= 1 are within 5e-7 of its
  own): equal to 1e-6. A one-round depth-2 model gives many tied predictions per group.
* FILE.group and qid:N give the same model file (one process and two workers); a qid that comes back after another query is
  an error naming FILE:LINE (one process and two workers).
* Two workers: groups of two documents with different labels make the sampled pairs
  independent of the random streams, so the two-worker model must equal the one-process model
  byte for byte (a group cut in two by the byte sharding would lose its pair). On the MSLR-shaped
  set the two-worker job's test metrics must equal XGBoost's for the model it wrote, and so must
  a five-worker job's on three long queries (ranks that hold only the middle of a group).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "cli"))
sys.path.insert(0, os.path.join(REPO, "bench", "boost"))

import cli_testlib as t  # noqa: E402
from rank_data import generate  # noqa: E402

METRICS = ["ndcg", "ndcg@5", "ndcg-", "ndcg@5-", "map", "map@5", "map-", "map@5-", "pre@5",
           "pre@1"]
XGB_FLOATS = "?float_parsing=xgboost"  # the numbers XGBoost's parser makes (docs/data.md)


def make_set(d, name, queries, seed, group_file=False, **kw):
    path = os.path.join(d, name + ".libsvm")
    generate(path, queries, seed=seed, nfeat=50, group_file=group_file, **kw)
    return path


def last_metrics(stdout, prefix="test"):
    lines = [line for line in stdout.splitlines() if line.startswith("[")]
    assert lines, "no metric line in:\n" + stdout
    values = {}
    for item in lines[-1].split("\t")[1:]:
        name, value = item.split(":")
        values[name[len(prefix) + 1:]] = float(value)
    return values


def treering_train(d, train, test, keys, model, submit_workers=0):
    args = [t.treering_bin(), "/dev/null", "data=" + train + XGB_FLOATS,
            "eval[test]=" + test + XGB_FLOATS, "tree_method=hist", "nthread=1",
            "model_out=" + model] + keys + ["eval_metric=" + m for m in METRICS]
    if submit_workers:
        submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
        if not os.path.exists(submit):
            t.skip("treering-submit is not built")
        args = [submit, "--cluster", "local", "--num-workers", str(submit_workers), "--"] + args
    return last_metrics(t.run(args, cwd=d).stdout)


def treering_margins(d, model, data):
    out = os.path.join(d, "pred.txt")
    t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model,
           "test:data=" + data + XGB_FLOATS, "name_pred=" + out, "pred_margin=1"])
    return t.read_values(out)


def xgboost_metrics(data, margins, objective):
    """XGBoost's value of each metric for the given predictions (as base_margin)."""
    import numpy as np
    import xgboost as xgb
    dm = xgb.DMatrix(data + "?format=libsvm")
    dm.set_base_margin(np.asarray(margins, dtype=np.float32))
    values = {}
    for m in METRICS:
        booster = xgb.train({"objective": objective, "eval_metric": m, "nthread": 1}, dm, 0)
        text = booster.eval(dm, "test")  # "[0]\ttest-ndcg@5:0.688190"
        values[m] = float(text.split("\t")[1].split(":")[1])
    return values


def assert_metrics_equal(mine, peer, what):
    for m in METRICS:
        assert abs(mine[m] - peer[m]) <= 1e-6, "%s: %s treering %.9f, xgboost %.9f" % (
            what, m, mine[m], peer[m])


def test_objectives_match_xgboost():
    import numpy as np
    import xgboost as xgb
    with t.TempDir() as d:
        train = make_set(d, "train", 40, seed=1)
        test = make_set(d, "test", 15, seed=2)
        dtrain = xgb.DMatrix(train + "?format=libsvm")
        dtest = xgb.DMatrix(test + "?format=libsvm")
        cases = [("rank:pairwise", {}), ("rank:ndcg", {}), ("rank:map", {}),
                 ("rank:ndcg", {"num_pairsample": 3, "fix_list_weight": 2.5})]
        for objective, extra in cases:
            keys = ["objective=" + objective, "num_round=6", "max_depth=4", "eta=0.3"] + [
                "%s=%s" % kv for kv in extra.items()]
            model = os.path.join(d, objective.replace(":", "_") + ".json")
            mine = treering_train(d, train, test, keys, model)
            params = {"tree_method": "hist", "nthread": 1, "objective": objective,
                      "max_depth": 4, "eta": 0.3, **extra}
            booster = xgb.train(params, dtrain, 6)
            peer = np.asarray(booster.predict(dtest, output_margin=True), dtype=float)
            margins = np.asarray(treering_margins(d, model, test))
            diff = float(np.abs(margins - peer).max())
            assert diff <= 1e-5, "%s: test margins differ from XGBoost's by %g" % (objective, diff)
            assert_metrics_equal(mine, xgboost_metrics(test, margins, objective), objective)
            # XGBoost loads treering's file (lambda_rank_param included) and predicts the same.
            loaded = xgb.Booster(model_file=model)
            config = json.loads(loaded.save_config())["learner"]["objective"]
            assert config["name"] == objective and int(
                config["lambda_rank_param"]["num_pairsample"]) == extra.get("num_pairsample", 1)
            again = np.asarray(loaded.predict(dtest, output_margin=True), dtype=float)
            assert float(np.abs(again - margins).max()) <= 1e-6, objective
            print("%s %s: margins within %.2g of XGBoost's, test ndcg %.6f" %
                  (objective, extra, diff, mine["ndcg"]))


def test_metrics_with_ties():
    with t.TempDir() as d:
        train = make_set(d, "train", 20, seed=3)
        test = make_set(d, "test", 30, seed=4)
        model = os.path.join(d, "m.json")
        keys = ["objective=rank:pairwise", "num_round=1", "max_depth=2"]
        mine = treering_train(d, train, test, keys, model)
        margins = treering_margins(d, model, test)
        assert len(set(margins)) <= 4, "expected tied predictions, got %d values" % len(
            set(margins))
        assert_metrics_equal(mine, xgboost_metrics(test, margins, "rank:pairwise"), "ties")
        assert mine["ndcg"] != mine["ndcg-"], "some query must have no relevant document"


def test_group_file_equals_qid():
    with t.TempDir() as d:
        with_qid = make_set(d, "q", 30, seed=5)
        with_file = make_set(d, "g", 30, seed=5, group_file=True)
        test = make_set(d, "test", 10, seed=6)
        keys = ["objective=rank:ndcg", "num_round=4", "max_depth=3"]
        a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
        treering_train(d, with_qid, test, keys, a)
        treering_train(d, with_file, test, keys, b)
        with open(a, "rb") as fa, open(b, "rb") as fb:
            assert fa.read() == fb.read(), "FILE.group and qid:N gave different models"
        # Two workers: each learns its global row offset to number the file's groups.
        treering_train(d, with_qid, test, keys, a, submit_workers=2)
        treering_train(d, with_file, test, keys, b, submit_workers=2)
        with open(a, "rb") as fa, open(b, "rb") as fb:
            assert fa.read() == fb.read(), "2 workers: FILE.group and qid:N differ"
        # A group file that does not add up to the rows is refused, naming it.
        with open(with_file + ".group", "a") as g:
            g.write("3\n")
        proc = t.run([t.treering_bin(), "/dev/null", "data=" + with_file,
                      "objective=rank:ndcg", "num_round=1"], check=False)
        assert proc.returncode != 0 and with_file + ".group" in proc.stderr, proc.stderr


def test_non_contiguous_groups_fail():
    with t.TempDir() as d:
        path = os.path.join(d, "bad.libsvm")
        rows = ["1 qid:1 0:1", "0 qid:1 0:2", "1 qid:2 0:1", "0 qid:2 0:3", "2 qid:1 0:5",
                "0 qid:3 0:1"]
        with open(path, "w") as f:
            f.write("# a comment line\n" + "\n".join(rows) + "\n")
        base = [t.treering_bin(), "/dev/null", "data=" + path, "objective=rank:pairwise",
                "num_round=1", "nthread=1"]
        proc = t.run(base, check=False)
        assert proc.returncode != 0, proc.stdout
        assert path + ":6" in proc.stderr and "qid 1" in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
        proc = t.run([submit, "--cluster", "local", "--num-workers", "2", "--"] + base,
                     check=False)
        assert proc.returncode != 0 and path + ":6" in proc.stderr, proc.stderr


def cut_mid_group(lines):
    """Pads the first line with a comment until the byte middle of the file (where the second
    of two workers starts reading) falls inside a two-document group."""
    for pad in range(2000):
        first = lines[0].rstrip("\n") + (" #" + "x" * pad if pad else "") + "\n"
        padded = [first] + lines[1:]
        middle, offset = sum(len(x) for x in padded) // 2, 0
        for row, line in enumerate(padded):
            if offset >= middle:
                break
            offset += len(line)
        if row % 2 == 1:
            return padded
    raise AssertionError("no padding cuts a group")


def test_several_workers():
    import numpy as np
    with t.TempDir() as d:
        # Pairs that do not depend on the random streams: exact equality of the models.
        train = make_set(d, "pairs", 400, seed=8, min_docs=2, max_docs=2)
        with open(train) as f:
            lines = f.readlines()
        lines = [("1" if i % 2 == 0 else "0") + line[line.index(" "):]
                 for i, line in enumerate(lines)]  # the two labels of each group differ
        lines = cut_mid_group(lines)
        with open(train, "w") as f:
            f.write("".join(lines))
        keys = ["objective=rank:pairwise", "num_round=4", "max_depth=3"]
        single, dist = os.path.join(d, "single.json"), os.path.join(d, "dist.json")
        treering_train(d, train, train, keys, single)
        treering_train(d, train, train, keys, dist, submit_workers=2)
        with open(single, "rb") as a, open(dist, "rb") as b:
            assert a.read() == b.read(), "2 workers trained another model than one process"
        # MSLR-shaped: the metrics of the 2-worker job are XGBoost's for the model it wrote.
        train = make_set(d, "train", 30, seed=9)
        test = make_set(d, "test", 12, seed=10)
        model = os.path.join(d, "ndcg.json")
        keys = ["objective=rank:ndcg", "num_round=3", "max_depth=3"]
        mine = treering_train(d, train, test, keys, model, submit_workers=2)
        margins = np.asarray(treering_margins(d, model, test))
        assert_metrics_equal(mine, xgboost_metrics(test, margins, "rank:ndcg"), "2 workers")
        # Five workers on three long queries: some ranks start and end inside one group, and
        # give all their rows to the rank where it starts; the metrics on the training set
        # (each group scored whole) must still be XGBoost's.
        big = make_set(d, "big", 3, seed=11, min_docs=150, max_docs=200)
        mine = treering_train(d, big, big, keys, model, submit_workers=5)
        margins = np.asarray(treering_margins(d, model, big))
        assert_metrics_equal(mine, xgboost_metrics(big, margins, "rank:ndcg"), "5 workers")


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_objectives_match_xgboost, test_metrics_with_ties, test_group_file_equals_qid,
            test_non_contiguous_groups_fail, test_several_workers])
