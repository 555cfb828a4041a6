#!/usr/bin/python3
"""`treering` with booster=mlp end to end: two workers under treering-submit (one metric line per
epoch from rank 0, effective batch, equal checksums), task=pred agreeing with the last epoch's
test-merror, resume from a snapshot equal to an uninterrupted run (same model bytes), and bad
configs / model files failing with exit code 2 and one line naming the file and key."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli"))
import cli_testlib as t  # noqa: E402


def make_data(d, rows, name, seed):
    rng = random.Random(seed)
    path = os.path.join(d, name)
    with open(path, "w") as f:
        for _ in range(rows):
            feats = {j: rng.uniform(0, 4) + j % 3 for j in range(20) if rng.random() < 0.6}
            score = sum((1 if j % 2 == 0 else -0.7) * v for j, v in feats.items())
            label = 0 if score < 0 else 1 if score < 4 else 2
            f.write("%d %s\n" % (label, " ".join("%d:%.4f" % kv for kv in sorted(feats.items()))))
    return path


def base_keys(d):
    return ["booster=mlp", "objective=multi:softmax", "num_class=3", "hidden_layers=16,8",
            "data=" + make_data(d, 600, "train.libsvm", 1),
            "eval[test]=" + make_data(d, 200, "test.libsvm", 2),
            "eval_metric=merror", "nthread=1", "batch_size=32", "learning_rate=0.1"]


def submit_bin():
    return os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")


def test_two_workers_and_predict():
    if not os.path.exists(submit_bin()):
        t.skip("treering-submit is not built")
    with t.TempDir() as d:
        keys = base_keys(d) + ["epochs=3", "learning_rate=0.3", "model_out=" + os.path.join(d, "m.mlp")]
        proc = t.run([submit_bin(), "--cluster", "local", "--num-workers", "2", "--",
                      t.treering_bin(), "/dev/null"] + keys, cwd=d)
        lines = [l for l in proc.stdout.splitlines() if "test-merror:" in l]
        assert [l.split("\t")[0].split()[-1] for l in lines] == ["[0]", "[1]", "[2]"], proc.stdout
        assert "effective batch 64" in proc.stderr, proc.stderr
        assert "equal on all ranks" in proc.stderr, proc.stderr
        assert "T_sync/T_comp" in proc.stderr and "on 2 workers" in proc.stderr, proc.stderr
        merror = float(lines[-1].split("test-merror:")[1].split()[0])
        pred = os.path.join(d, "pred.txt")
        t.run([t.treering_bin(), "/dev/null", "booster=mlp", "task=pred", "num_class=3",
               "model_in=" + os.path.join(d, "m.mlp"), "test:data=" + os.path.join(d, "test.libsvm"),
               "name_pred=" + pred], cwd=d)
        labels = [int(l.split()[0]) for l in open(os.path.join(d, "test.libsvm"))]
        preds = t.read_values(pred)
        wrong = sum(int(p) != y for p, y in zip(preds, labels)) / len(labels)
        assert len(preds) == 200 and abs(wrong - merror) < 1e-9, (wrong, merror)
        assert merror < 0.5, "the network did not learn: merror %g" % merror


def test_resume_equals_uninterrupted():
    with t.TempDir() as d:
        keys = base_keys(d) + ["epochs=4", "optimizer=adam", "learning_rate=0.01"]
        t.run([t.treering_bin(), "/dev/null", "model_out=" + os.path.join(d, "full.mlp")] + keys, cwd=d)
        snaps = os.path.join(d, "snaps")
        first = t.run([t.treering_bin(), "/dev/null", "save_every=2", "model_dir=" + snaps,
                       "model_out=" + os.path.join(d, "ignored.mlp")] + keys, cwd=d)
        assert sorted(os.listdir(snaps)) == ["0002.mlp", "0004.mlp"], os.listdir(snaps)
        resumed = t.run([t.treering_bin(), "/dev/null", "model_in=" + os.path.join(snaps, "0002.mlp"),
                         "model_out=" + os.path.join(d, "resumed.mlp")] + keys, cwd=d)
        full_lines = [l for l in first.stdout.splitlines() if l.startswith("[")]
        resumed_lines = [l for l in resumed.stdout.splitlines() if l.startswith("[")]
        assert resumed_lines == full_lines[2:], (resumed_lines, full_lines)
        with open(os.path.join(d, "full.mlp"), "rb") as a, open(os.path.join(d, "resumed.mlp"), "rb") as b:
            assert a.read() == b.read(), "resumed model differs from the uninterrupted one"


def expect_user_error(d, args, *needles):
    proc = t.run([t.treering_bin()] + args, cwd=d, check=False)
    assert proc.returncode == 2, (args, proc.returncode, proc.stderr)
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1, err
    for n in needles:
        assert n in err, (n, err)


def test_help_lists_mlp_keys():
    out = t.run([t.treering_bin(), "--help"]).stdout
    assert "booster=mlp" in out and "gbtree | dart | gblinear | mlp" in out, out
    for line in ("hidden_layers = 256,128", "optimizer = sgd", "batch_size = 64", "epochs = 10"):
        assert line in out, line


def test_bad_input_is_one_line_exit_2():
    with t.TempDir() as d:
        conf = os.path.join(d, "mlp.conf")
        with open(conf, "w") as f:
            f.write("booster = mlp\nobjective = multi:softmax\nnum_class = 3\nbatch_size = 0\n")
        data = make_data(d, 50, "train.libsvm", 3)
        expect_user_error(d, [conf, "data=" + data], "mlp.conf:4", "batch_size", "'0'")
        with open(conf, "w") as f:
            f.write("booster = mlp\nobjective = multi:softmax\nnum_class = 3\neval_metric = nope\n")
        expect_user_error(d, [conf, "data=" + data], "mlp.conf:4", "eval_metric", "'nope'")
        expect_user_error(d, ["/dev/null", "booster=mlp", "num_class=3", "hidden_layer=8",
                              "data=" + data], "hidden_layer", "did you mean 'hidden_layers'")
        expect_user_error(d, ["/dev/null", "booster=mlp", "data=" + data], "num_class")
        expect_user_error(d, ["/dev/null", "booster=mlp", "num_class=3", "activation=gelu",
                              "data=" + data], "command line", "activation", "relu")
        # The .mlp file has nowhere to record best_iteration (docs/mlp.md).
        expect_user_error(d, ["/dev/null", "booster=mlp", "num_class=3", "data=" + data,
                              "eval[train]=" + data, "early_stopping_rounds=2"],
                          "early_stopping_rounds", "booster=mlp")
        bad_model = os.path.join(d, "bad.mlp")
        with open(bad_model, "wb") as f:
            f.write(b"TRRMLP01" + b"\0" * 30)
        expect_user_error(d, ["/dev/null", "booster=mlp", "task=pred", "num_class=3",
                              "model_in=" + bad_model, "test:data=" + data], "bad.mlp")
        out = os.path.join(d, "m.mlp")
        t.run([t.treering_bin(), "/dev/null", "booster=mlp", "num_class=3", "epochs=1",
               "hidden_layers=4", "data=" + data, "model_out=" + out], cwd=d)
        expect_user_error(d, ["/dev/null", "booster=mlp", "num_class=3", "epochs=2",
                              "hidden_layers=8", "data=" + data, "model_in=" + out],
                          "hidden_layers differs")
        # Prediction rounds select trees; an MLP has none.
        expect_user_error(d, ["/dev/null", "booster=mlp", "task=pred", "num_class=3",
                              "model_in=" + out, "test:data=" + data, "iteration_end=1"],
                          "iteration_end", "booster=mlp")
        assert not os.path.exists(os.path.join(d, "pred.txt"))


if __name__ == "__main__":
    t.main([test_two_workers_and_predict, test_resume_equals_uninterrupted,
            test_help_lists_mlp_keys, test_bad_input_is_one_line_exit_2])
