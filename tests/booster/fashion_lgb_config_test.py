#!/usr/bin/python3
"""bench/boost/fashion_lgb.conf gives LightGBM 4.6's leaf values (issue 19 item 1).

LightGBM's multiclass softmax hessian is K/(K-1) p (1-p), XGBoost's (and treering's) 2 p (1-p):
for K = 10 classes XGBoost's is 1.8x LightGBM's. The config therefore scales eta, lambda and
min_child_weight by 1.8, which should give LightGBM's learning_rate 0.3, lambda_l2 1 and
min_sum_hessian_in_leaf 1 exactly. Checked against the computed expectation: on a small
10-class set, every leaf of every tree of three rounds equals -G / (H_lgb + 1) * 0.3 over the
rows that reach it (G, H_lgb from the softmax of the margins of the trees before it), and every
leaf holds H_lgb >= 1. The unscaled XGBoost step (eta 0.3, lambda 1) must miss it, so the
check can tell. Run with /usr/bin/python3 TEST.py BUILD/bin."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cli_testlib as t  # noqa: E402

CONF = os.path.join(t.REPO, "bench", "boost", "fashion_lgb.conf")
FAST_CONF = os.path.join(t.REPO, "bench", "boost", "fashion_fast.conf")
# What fashion_fast.conf may add to fashion_lgb.conf (docs/learner.md): none changes the step.
FAST_EXTRA = {"max_bin", "colsample_bynode", "min_data_in_leaf"}
K = 10
ROUNDS = 3
LGB_LR, LGB_LAMBDA, LGB_MIN_HESS = 0.3, 1.0, 1.0


def conf_keys(path):
    """The config's learning keys (not its data, metric, round count and output paths)."""
    keys = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if "=" not in line:
                continue
            k, v = (s.strip() for s in line.split("=", 1))
            if k in ("data", "eval[test]", "model_out", "num_round", "eval_metric", "nthread"):
                continue
            keys[k] = v.strip('"')
    return keys


def make_data(path):
    """Few distinct values (exact cuts) and labels that depend on the features."""
    import numpy as np
    rng = np.random.default_rng(19)
    x = rng.integers(0, 6, size=(3000, 5)).astype(float)
    y = (x[:, 0] + 2 * x[:, 1] + (x[:, 2] > 2) * x[:, 3] + rng.integers(0, 3, 3000)) % K
    t.write_libsvm(path, x, y)
    return x, y.astype(int)


def leaf_of(tree, row):
    node = 0
    while tree["left_children"][node] != -1:
        f = tree["split_indices"][node]
        go_left = row[f] < tree["split_conditions"][node]
        node = tree["left_children"][node] if go_left else tree["right_children"][node]
    return node


def test_leaves_equal_lightgbm_step():
    check_leaves(CONF)


def test_fast_config_keeps_the_step_and_the_row_floor():
    """fashion_fast.conf: fashion_lgb.conf's keys unchanged but for FAST_EXTRA; its leaves are
    still LightGBM's step. With LightGBM's min_data_in_leaf 20 added, every split leaves each
    child >= 20 rows as LightGBM 4.x counts them: RoundInt(H_child * rows / H_node), H the
    split's XGBoost hessian."""
    lgb, fast = conf_keys(CONF), conf_keys(FAST_CONF)
    for k, v in lgb.items():
        if k not in FAST_EXTRA:
            assert fast.get(k) == v, "fashion_fast.conf changes %s: %s -> %s" % (k, v, fast.get(k))
    assert set(fast) - set(lgb) <= FAST_EXTRA, set(fast) - set(lgb)
    check_leaves(FAST_CONF)
    check_leaves(FAST_CONF, {"min_data_in_leaf": "20"})


def paths(tree, x):
    """For every row, the nodes it passes from the root to its leaf."""
    out = []
    for row in x:
        node, path = 0, [0]
        while tree["left_children"][node] != -1:
            f = tree["split_indices"][node]
            go_left = row[f] < tree["split_conditions"][node]
            node = tree["left_children"][node] if go_left else tree["right_children"][node]
            path.append(node)
        out.append(path)
    return out


def smallest_child_estimate(tree, x, hess):
    """min over splits and children of LightGBM's row estimate H_child * rows / H_node, as a
    real number (LightGBM rounds it: RoundInt(e) >= m iff e >= m - 0.5)."""
    rows, hsum = {}, {}
    for path, h in zip(paths(tree, x), hess):
        for node in path:
            rows[node] = rows.get(node, 0) + 1
            hsum[node] = hsum.get(node, 0.0) + h
    smallest = float("inf")
    for node in rows:
        if tree["left_children"][node] == -1:
            continue
        for child in (tree["left_children"][node], tree["right_children"][node]):
            smallest = min(smallest, hsum[child] * rows[node] / hsum[node])
    return smallest


def check_leaves(conf, more_keys=None):
    try:
        import numpy as np
    except ImportError as e:
        t.skip("python3-numpy not installed (%s): the expectation is computed with it" % e)
    keys = conf_keys(conf)
    keys.update(more_keys or {})
    assert keys.get("eta") and keys.get("lambda") and keys.get("min_child_weight"), keys
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "train.libsvm")
        x, y = make_data(data)
        model = os.path.join(d, "model.json")
        args = ["%s=%s" % kv for kv in keys.items()]
        t.run([t.treering_bin(), "/dev/null", "data=" + data, "num_round=%d" % ROUNDS,
               "nthread=1", "objective=multi:softprob", "model_out=" + model] + args)
        with open(model) as f:
            learner = json.load(f)["learner"]
    trees = learner["gradient_booster"]["model"]["trees"]
    assert len(trees) == ROUNDS * K, len(trees)
    base = float(learner["learner_model_param"]["base_score"])
    margin = np.full((len(x), K), base)
    onehot = np.eye(K)[y]
    worst, worst_xgb, leaves = 0.0, 0.0, 0
    min_data, smallest = int(keys.get("min_data_in_leaf", 0)), float("inf")
    for r in range(ROUNDS):
        e = np.exp(margin - margin.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        grad = p - onehot
        hess_lgb = K / (K - 1.0) * p * (1 - p)
        hess_xgb = 2.0 * p * (1 - p)
        step = np.zeros_like(margin)
        for k in range(K):
            tree = trees[r * K + k]
            at = np.array([leaf_of(tree, row) for row in x])
            for leaf in np.unique(at):
                rows = at == leaf
                g, h = grad[rows, k].sum(), hess_lgb[rows, k].sum()
                want = -g / (h + LGB_LAMBDA) * LGB_LR
                got = tree["split_conditions"][leaf]
                worst = max(worst, abs(got - want) / max(1.0, abs(want)))
                xgb = -g / (hess_xgb[rows, k].sum() + 1.0) * 0.3
                worst_xgb = max(worst_xgb, abs(got - xgb) / max(1.0, abs(xgb)))
                assert h >= LGB_MIN_HESS - 1e-6, "round %d class %d leaf %d: H_lgb %g < %g" % (
                    r, k, leaf, h, LGB_MIN_HESS)
                leaves += 1
                step[rows, k] = got
            if min_data > 0:  # treering sums quantised hessians: a relative slack of 1e-6
                est = smallest_child_estimate(tree, x, hess_xgb[:, k])
                assert est >= (min_data - 0.5) * (1 - 1e-6), (
                    "round %d class %d: a child of ~%.3f rows < min_data_in_leaf %d" % (
                        r, k, est, min_data))
                smallest = min(smallest, est)
        margin += step
    assert leaves > ROUNDS * K * 4, "trees too small to tell: %d leaves" % leaves
    # treering sums quantised gradients (docs/learner.md, fixed-point histograms)
    assert worst < 1e-4, "a leaf is %g (relative) from LightGBM's step" % worst
    assert worst_xgb > 1e-2, "XGBoost's unscaled step fits as well (%g): the check is blind" % (
        worst_xgb)
    print("  %s %s: %d leaves, worst relative error %.2g (unscaled XGBoost step: %.2g)" %
          (os.path.basename(conf), more_keys or "", leaves, worst, worst_xgb))
    if min_data > 0:
        # the floor must bind somewhere, or the check could not tell it from no floor
        assert smallest < min_data + 3, "no child near min_data_in_leaf: %g" % smallest
        print("  smallest child: %.2f estimated rows (min_data_in_leaf %d)" % (smallest, min_data))


if __name__ == "__main__":
    t.main([test_leaves_equal_lightgbm_step, test_fast_config_keeps_the_step_and_the_row_floor])
