#!/usr/bin/python3
"""Distributed jobs write their files from rank 0 only, every rank holds the model rank 0
wrote, debug_synchronize catches ranks that grow different trees, task=pred gathers the
ranks' shards into the single-process prediction file, and rank 0 alone prints a timing report
whose numbers agree with each other.

Every worker runs in its own directory (r0, r1, ...) and file names are relative, so a file
written by another rank would show up in that rank's directory."""
import os
import re

import distlib
from distlib import t

# tree_method=hist: unset would be exact in one process and approx (as hist) on several.
KEYS = ["objective=binary:logistic", "max_depth=4", "nthread=1", "eval_metric=auc",
        "tree_method=hist"]


def per_rank_dirs(d, rank_var, command):
    """A bash command line that enters d/r<rank> (created) and runs `command` there."""
    quoted = " ".join("'%s'" % a for a in command)
    return ["bash", "-c", 'mkdir -p "%s/r$%s" && cd "%s/r$%s" && exec %s' %
            (d, rank_var, d, rank_var, quoted)]


def test_only_rank0_writes_and_every_rank_holds_its_model():
    with t.TempDir() as d:
        train, test = distlib.write_data(d, "binary", 3000)
        cmd = [t.treering_bin(), "/dev/null", "data=" + train, "eval[test]=" + test,
               "num_round=5", "save_period=2", "model_dir=out", "debug_synchronize=1"] + KEYS
        proc = distlib.submit(3, per_rank_dirs(d, "DMLC_TASK_ID", cmd))
        out0 = os.path.join(d, "r0", "out")
        assert sorted(os.listdir(out0)) == ["0002.model", "0004.model", "0005.model"], \
            os.listdir(out0)
        for r in (1, 2):
            assert os.listdir(os.path.join(d, "r%d" % r)) == [], "rank %d wrote files" % r
        with open(os.path.join(out0, "0005.model"), "rb") as f:
            final = f.read()
        digests = {}
        for line in proc.stdout.splitlines():
            m = re.match(r"(\[rank (\d)\] )?debug_synchronize: model fnv1a64=(\w+) bytes=(\d+)$",
                         line)
            if m:
                digests[int(m.group(2) or 0)] = (m.group(3), int(m.group(4)))
        assert digests == {r: (distlib.fnv1a64(final), len(final)) for r in range(3)}, \
            "digests %s, file %s\n%s" % (digests, distlib.fnv1a64(final), proc.stdout)
        # The snapshots are the models a single process has after 2 and 4 rounds.
        for rounds in (2, 4):
            single = os.path.join(d, "single%d.model" % rounds)  # same name, same format
            t.run([t.treering_bin(), "/dev/null", "data=" + train, "num_round=%d" % rounds,
                   "model_out=" + single] + KEYS)
            with open(single, "rb") as a, open(os.path.join(out0, "%04d.model" % rounds),
                                               "rb") as b:
                assert a.read() == b.read(), "snapshot %04d.model differs" % rounds


def diverging_job(d, how, check, preflight=False):
    """Rank 1 is started with another eta: its leaf values differ from round 0 on (the
    pre-flight check stops such a job first unless TREERING_PREFLIGHT=0)."""
    train, _ = distlib.write_data(d, "binary", 1000)
    rank_var = "DMLC_TASK_ID" if how == "submit" else "OMPI_COMM_WORLD_RANK"
    script = (("" if preflight else "TREERING_PREFLIGHT=0 ") + 'exec "%s" /dev/null data="%s" num_round=3 debug_synchronize=%d %s '
              'model_out="%s/m$%s.json" eta=$([ "$%s" = 1 ] && echo 0.5 || echo 0.3)' %
              (t.treering_bin(), train, check, " ".join(KEYS), d, rank_var, rank_var))
    return distlib.launch(how, 2, ["bash", "-c", script], check=False)


def test_debug_synchronize_fails_loudly_when_ranks_diverge():
    launchers = ["submit"] + (["mpirun"] if distlib.have_mpirun() else [])
    for how in launchers:
        with t.TempDir() as d:
            proc = diverging_job(d, how, check=1)
            output = proc.stdout + proc.stderr
            assert proc.returncode != 0, how + ": the diverging job succeeded\n" + output
            assert "debug_synchronize: round 0: tree 0 of rank(s) 1 differs from rank 0's" \
                in output, how + ":\n" + output
            assert not os.path.exists(os.path.join(d, "m0.json")), how + ": a model was written"
        with t.TempDir() as d:  # without the check the same job "succeeds" silently
            proc = diverging_job(d, how, check=0)
            assert proc.returncode == 0, how + ":\n" + proc.stdout + proc.stderr
            assert not os.path.exists(os.path.join(d, "m1.json"))


def test_preflight_names_the_key_the_ranks_disagree_on():
    with t.TempDir() as d:
        proc = diverging_job(d, "submit", check=0, preflight=True)
        output = proc.stdout + proc.stderr
        assert proc.returncode != 0, output
        assert "pre-flight: the ranks' configurations differ: eta: 0.3 on rank 0, 0.5 on rank 1" \
            in output, output
        assert not os.path.exists(os.path.join(d, "m0.json")), "a model was written"


def test_distributed_prediction_equals_single_process():
    with t.TempDir() as d:
        for name, keys in (("binary", KEYS), ("multi", ["tree_method=hist",
                                                        "objective=multi:softprob",
                                                        "num_class=4", "nthread=1"])):
            train, test = distlib.write_data(d, name, 2000, test_rows=2501)
            model = os.path.join(d, name + ".json")
            t.run([t.treering_bin(), "/dev/null", "data=" + train, "num_round=4",
                   "model_out=" + model] + keys)
            pred = [t.treering_bin(), "/dev/null", "task=pred", "model_in=" + model,
                    "test:data=" + test, "name_pred=pred.txt", "nthread=1"]
            t.run(pred, cwd=d)
            with open(os.path.join(d, "pred.txt"), "rb") as f:
                reference = f.read()
            assert reference.count(b"\n") == 2501 * (4 if name == "multi" else 1)
            runs = [("submit", 2, "DMLC_TASK_ID"), ("submit", 5, "DMLC_TASK_ID")]
            if distlib.have_mpirun():
                runs.append(("mpirun", 3, "OMPI_COMM_WORLD_RANK"))
            for how, n, rank_var in runs:
                sub = os.path.join(d, "%s-%s%d" % (name, how, n))
                distlib.launch(how, n, per_rank_dirs(sub, rank_var, pred))
                with open(os.path.join(sub, "r0", "pred.txt"), "rb") as f:
                    assert f.read() == reference, "%s %s N=%d: predictions differ" % (name, how, n)
                for r in range(1, n):
                    assert os.listdir(os.path.join(sub, "r%d" % r)) == [], "rank %d wrote" % r


def test_timing_report_from_rank0_only():
    with t.TempDir() as d:
        train, test = distlib.write_data(d, "binary", 3000)
        proc = distlib.submit(2, [t.treering_bin(), "/dev/null", "data=" + train,
                                  "eval[test]=" + test, "num_round=5",
                                  "single_worker_seconds=10", "model_out=m.json"] + KEYS, cwd=d)
        lines = [l for l in proc.stderr.splitlines() if "treering: timing:" in l]
        assert len(lines) == 2 and all(l.startswith("[rank 0] ") for l in lines), proc.stderr
        m = re.search(r"5 rounds on 2 workers in ([0-9.]+) s; .*T_comp ([0-9.]+) s, "
                      r"T_sync ([0-9.]+) s, T_sync/T_comp ([0-9.]+), ([0-9]+) bytes in "
                      r"([0-9.]+) collectives", lines[0])
        assert m, lines[0]
        total, comp, sync, _, payload, calls = map(float, m.groups())
        assert payload > 0 and calls >= 5, lines[0]  # histograms and metrics were synchronised
        m = re.search(r"= 2\*[0-9.]+/\([0-9.+]+\) = ([0-9.]+); measured 10.000/([0-9.]+) = "
                      r"([0-9.]+) \(single_worker_seconds", lines[1])
        assert m, lines[1]
        predicted, rounds_s, measured = map(float, m.groups())
        # The printed inputs are rounded (4 and 3 decimals): accept any value they round from.
        corners = [2 * c / (c + y) for c in (comp - 5e-5, comp + 5e-5)
                   for y in (max(sync - 5e-5, 0), sync + 5e-5) if c + y > 0]
        assert min(corners) - 0.005 <= predicted <= max(corners) + 0.005, lines
        assert rounds_s == total, lines
        low, high = 10 / (rounds_s + 5e-4), 10 / max(rounds_s - 5e-4, 1e-9)
        assert low - 0.005 <= measured <= high + 0.005, lines


if __name__ == "__main__":
    t.need_xgboost_python()  # numpy generates the data
    if not os.path.exists(distlib.submit_bin()):
        print("SKIP: treering-submit is not built")
        raise SystemExit(t.SKIP)
    t.main([test_only_rank0_writes_and_every_rank_holds_its_model,
            test_preflight_names_the_key_the_ranks_disagree_on,
            test_debug_synchronize_fails_loudly_when_ranks_diverge,
            test_distributed_prediction_equals_single_process,
            test_timing_report_from_rank0_only])
