"""treering.collective / rabit / tracker: a Python RabitTracker and worker processes.

Collectives across 3 processes equal the values computed here; 2 and 3 Python workers
training with treering.train give the model file of `treering-submit --cluster local` with
the CLI, byte for byte; a world of one behaves as python3-xgboost 1.7.4's collective."""
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import warnings

import numpy as np
import pytest

import treering as xgb
from treering import collective, rabit
from treering.tracker import RabitTracker

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "dist_worker.py")
ROUNDS = 4


def run_workers(tracker, argv_of, n):
    env = dict(os.environ, TREERING_TEST_WORKER_ARGS=json.dumps(tracker.worker_envs()),
               OMP_NUM_THREADS="1")
    procs = [subprocess.Popen([sys.executable, WORKER] + argv_of(i), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(n)]
    outs = [p.communicate(timeout=60) for p in procs]
    for i, (p, (_, err)) in enumerate(zip(procs, outs)):
        assert p.returncode == 0, f"worker {i} exited {p.returncode}:\n{err}"
    tracker.join(30)
    return outs


def test_world_of_one_matches_xgboost():
    xgboost = pytest.importorskip("xgboost", reason="python3-xgboost 1.7.4 (the peer)")
    data = np.arange(6, dtype=np.float64).reshape(2, 3)
    for lib in (collective, xgboost.collective):
        lib.init()
        try:
            assert lib.get_rank() == 0 and lib.get_world_size() == 1
            assert lib.is_distributed() == 0
            out = lib.allreduce(data, lib.Op.SUM)
            assert out.shape == (6,) and out.tolist() == data.ravel().tolist()
            assert lib.broadcast({"a": 1}, 0) == {"a": 1}
        finally:
            lib.finalize()
    assert collective.get_processor_name() == socket.gethostname()
    with pytest.raises(TypeError, match="numpy.ndarray"):
        collective.allreduce([1, 2], collective.Op.SUM)
    with pytest.raises(TypeError, match="data"):
        collective.allreduce(np.ones(2, np.float16), collective.Op.SUM)
    with pytest.raises(xgb.XGBoostError, match="federated"):
        collective.init(xgboost_communicator="federated")


def check_collectives(prefix, world):
    results = [json.loads((prefix.parent / f"{prefix.name}{i}").read_text())
               for i in range(world)]
    ranks = range(world)
    for rank, r in enumerate(results):
        assert r["rank"] == rank and r["world"] == world and r["distributed"] == 1
        assert r["sum"] == [sum(i + 1 for i in ranks), sum(10 * i for i in ranks),
                            -sum(ranks)]
        assert r["max"] == [0.5 * (world - 1), 0.0] and r["min"] == [0.0, -1.25 * (world - 1)]
        ors = ands = xors = None
        for i in ranks:
            bits = [1 << i, 0xF0 | i]
            ors = bits if ors is None else [a | b for a, b in zip(ors, bits)]
            ands = bits if ands is None else [a & b for a, b in zip(ands, bits)]
            xors = bits if xors is None else [a ^ b for a, b in zip(xors, bits)]
        assert r["or"] == ors and r["and"] == ands and r["xor"] == xors
        assert r["rabit_or"] == r["or"]  # rabit.Op.OR is the bitwise or
        assert r["shape"] == [6]
        assert r["bcast"] == {"from": world - 1, "list": [1, 2, 3]}


def test_tracker_three_workers_collectives(tmp_path, capfd):
    tracker = RabitTracker("127.0.0.1", 3, timeout=60)
    assert tracker.port > 0 and tracker.worker_envs()["DMLC_NUM_WORKER"] == 3
    tracker.start(3)
    assert tracker.alive()
    run_workers(tracker, lambda i: ["collective", str(i), str(tmp_path / "r")], 3)
    assert not tracker.alive() and tracker.failure() is None
    check_collectives(tmp_path / "r", 3)
    # The tracker in this process prints the ranks' messages through the package's log
    # callback on stdout, as XGBoost's package does with its library's log lines.
    printed = capfd.readouterr().out
    assert all(f"rank {i} says hello" in printed for i in range(3)), printed


def test_script_under_treering_submit(tmp_path):
    submit = os.path.join(os.environ.get("TREERING_BUILD_DIR", ""), "bin", "treering-submit")
    if not os.path.exists(submit):
        pytest.skip("treering-submit is not built")
    proc = subprocess.run([submit, "--cluster", "local", "--num-workers", "2", "--",
                           sys.executable, WORKER, "collective", "env", str(tmp_path / "s")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    check_collectives(tmp_path / "s", 2)
    assert "rank 1 says hello" in proc.stdout + proc.stderr


def test_script_under_mpirun(tmp_path):
    if shutil.which("mpirun") is None:
        pytest.skip("mpirun (openmpi-bin) is not installed")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    proc = subprocess.run(["mpirun", "-n", "2", sys.executable, WORKER, "collective", "mpi",
                           str(tmp_path / "m")], capture_output=True, text=True, timeout=60,
                          env=env)
    assert proc.returncode == 0, proc.stderr
    check_collectives(tmp_path / "m", 2)


def test_rabit_module_is_deprecated_alias():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rabit.init()
        assert rabit.get_rank() == 0 and rabit.get_world_size() == 1
        assert rabit.get_processor_name() == collective.get_processor_name().encode()
        assert rabit.finalize() == 0
    assert any(issubclass(w.category, FutureWarning) for w in caught)
    with pytest.raises(ValueError, match="prepare_fun"):
        rabit.allreduce(np.ones(2), rabit.Op.SUM, prepare_fun=lambda x: None)


def test_tracker_refusals():
    with pytest.raises(xgb.XGBoostError, match="n_workers"):
        RabitTracker("127.0.0.1", 0)
    with pytest.raises(xgb.XGBoostError, match="max_attempts"):
        RabitTracker("127.0.0.1", 2, max_attempts=0)
    with pytest.raises(xgb.XGBoostError, match="recovery_timeout"):
        RabitTracker("127.0.0.1", 2, recovery_timeout=-1)
    with pytest.raises(ValueError, match="sortby"):
        RabitTracker("127.0.0.1", 2, sortby="rank")
    # Restarts on: the workers are told, so they pick the robust engine.
    assert RabitTracker("127.0.0.1", 2, max_attempts=3).worker_envs()[
        "TREERING_MAX_ATTEMPTS"] == 3
    tracker = RabitTracker("127.0.0.1", 2)
    assert "TREERING_MAX_ATTEMPTS" not in tracker.worker_envs()
    with pytest.raises(ValueError, match="n_workers"):
        tracker.start(3)
    with pytest.raises(xgb.XGBoostError, match="not started"):
        tracker.join()
    tracker.stop()


def write_libsvm(path, rows, rng):
    """6 float32 features (written exactly), 15% missing; feature 5 always present."""
    with open(path, "w") as f:
        for _ in range(rows):
            x = np.float32([rng.gauss(0, 1) for _ in range(6)])
            z = x[0] + 0.5 * x[1] - x[2] ** 2
            cols = ["%d:%.9g" % (j, v) for j, v in enumerate(x)
                    if j == 5 or rng.random() >= 0.15]
            f.write("%d %s\n" % (z > 0, " ".join(cols)))


CLI_KEYS = ["objective=binary:logistic", "eval_metric=auc", "eval_metric=logloss",
            "max_depth=4", "eta=0.3", "tree_method=hist", "nthread=1"]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_python_workers_equal_cli(tmp_path, capfd, workers):
    build = os.environ.get("TREERING_BUILD_DIR", "")
    submit = os.path.join(build, "bin", "treering-submit")
    cli = os.path.join(build, "bin", "treering")
    if not (os.path.exists(submit) and os.path.exists(cli)):
        pytest.skip(f"treering and treering-submit are not built in {build!r}")
    rng = random.Random(7)
    train, test = tmp_path / "train.libsvm", tmp_path / "test.libsvm"
    write_libsvm(train, 1500, rng)
    write_libsvm(test, 500, rng)
    cli_model, py_model = tmp_path / "cli.json", tmp_path / "py.json"
    proc = subprocess.run(
        [submit, "--cluster", "local", "--num-workers", str(workers), "--bind-to", "none",
         "--", cli, "/dev/null", f"data={train}", f"eval[test]={test}",
         f"num_round={ROUNDS}", f"model_out={cli_model}"] + CLI_KEYS,
        capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    tracker = RabitTracker("127.0.0.1", workers, timeout=60)
    tracker.start(workers)
    outs = run_workers(tracker, lambda i: ["train", str(i), str(train), str(test),
                                           str(py_model), str(ROUNDS), "n_features=6"]
                       + CLI_KEYS, workers)
    assert cli_model.read_bytes() == py_model.read_bytes(), \
        f"{workers} workers: the Python model differs from the CLI's"
    # Only rank 0's EvaluationMonitor prints, through the tracker (here, on stdout); a job
    # of one worker is not distributed for treering, so it prints on its own stdout.
    if workers > 1:
        assert all("[0]\t" not in out for out, _ in outs)
        printed = metric_lines(capfd.readouterr().out)
    else:
        printed = metric_lines(outs[0][0])
    cli_lines = metric_lines(proc.stdout)
    assert len(printed) == len(cli_lines) == ROUNDS
    for ours, theirs in zip(printed, cli_lines):  # Python prints 5 decimals, the CLI 17
        assert ours.keys() == theirs.keys()
        assert all(abs(ours[k] - theirs[k]) < 6e-6 for k in ours), (ours, theirs)
    history = json.loads((tmp_path / "py.json.history").read_text())
    assert history["test"]["auc"][-1] == pytest.approx(cli_lines[-1]["test-auc"], abs=1e-12)


def metric_lines(text):
    """[{"test-auc": value, ...}] of the `[i]\tname:value...` lines in `text`."""
    out = []
    for line in text.splitlines():
        if line.startswith("[") and "]\t" in line:
            out.append({k: float(v) for k, v in
                        (item.split(":") for item in line.split("\t")[1:])})
    return out


@pytest.mark.parametrize("victim", [0, 1])
def test_python_workers_survive_a_kill_under_treering_submit(tmp_path, victim):
    """treering-submit --local-num-attempt restarts a killed Python worker; treering.train
    checkpoints every round in such a job, so the model is the CLI's uninterrupted one."""
    build = os.environ.get("TREERING_BUILD_DIR", "")
    submit, cli = (os.path.join(build, "bin", p) for p in ("treering-submit", "treering"))
    if not (os.path.exists(submit) and os.path.exists(cli)):
        pytest.skip(f"treering and treering-submit are not built in {build!r}")
    rng = random.Random(11)
    train, test = tmp_path / "train.libsvm", tmp_path / "test.libsvm"
    write_libsvm(train, 1500, rng)
    write_libsvm(test, 500, rng)
    cli_model, py_model = tmp_path / "cli.json", tmp_path / "py.json"
    launch = [submit, "--cluster", "local", "--num-workers", "2", "--bind-to", "none"]
    proc = subprocess.run(launch + ["--", cli, "/dev/null", f"data={train}",
                                    f"eval[test]={test}", f"num_round={ROUNDS}",
                                    f"model_out={cli_model}"] + CLI_KEYS,
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    env = dict(os.environ, TREERING_TEST_KILL=f"{victim},2")
    proc = subprocess.run(launch + ["--local-num-attempt", "2", "--", sys.executable, WORKER,
                                    "train", "env", str(train), str(test), str(py_model),
                                    str(ROUNDS), "n_features=6"] + CLI_KEYS,
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "restart" in (proc.stdout + proc.stderr).lower(), "no worker was restarted"
    assert cli_model.read_bytes() == py_model.read_bytes()
