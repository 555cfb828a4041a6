"""Helpers for the distributed integration tests: start `treering` as N workers under
treering-submit (socket engine) or mpirun (MPI engine), generate small data, read metric lines.

Each test script takes the build's bin directory as argv[1] and exits 0 (pass), 1 (fail) or 77
(skipped: a peer is not installed, so a test or part of one did not run), as the tests in
tests/cli do (cli_testlib.main)."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "cli"))
import cli_testlib as t  # noqa: E402

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}


def submit_bin():
    return os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")


def submit(n, command, cwd=None, check=True):
    """`treering-submit --cluster local --num-workers n -- command...`."""
    return t.run([submit_bin(), "--cluster", "local", "--num-workers", str(n), "--"] + command,
                 cwd=cwd, check=check)


def have_mpirun():
    """True when mpirun is on PATH. When it is not, the current test records that its
    MPI-engine runs were skipped (t.skip_part): the script then exits 77 unless a test failed,
    so a run without the peer is never reported as passed."""
    if shutil.which("mpirun") is not None:
        return True
    t.skip_part("mpirun (the MPI engine's launcher, Debian package openmpi-bin) is not on PATH: "
                "the MPI-engine runs were not made")
    return False


def mpirun(n, command, cwd=None, check=True):
    """mpirun over TCP on loopback (the MPI engine), oversubscribed on the 2-core machine."""
    args = ["mpirun", "-np", str(n), "--oversubscribe", "--mca", "btl", "tcp,self",
            "--mca", "btl_tcp_if_include", "lo"] + command
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, **MPI_ENV))
    if check and proc.returncode != 0:
        raise AssertionError("%s exited %d\nstdout:\n%s\nstderr:\n%s" %
                             (" ".join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


def launch(how, n, command, cwd=None, check=True):
    """how: "single" (no launcher; n must be 1), "submit" or "mpirun"."""
    if how == "single":
        assert n == 1
        return t.run(command, cwd=cwd, check=check)
    return (submit if how == "submit" else mpirun)(n, command, cwd=cwd, check=check)


def metric_lines(stdout):
    """The per-round lines ("[i]\\tname:value..."), as {round: {name: value}}."""
    rounds = {}
    for line in stdout.splitlines():
        if not line.startswith("[") or "\t" not in line:
            continue
        head, *pairs = line.split("\t")
        rounds[int(head[1:-1])] = {p.rsplit(":", 1)[0]: float(p.rsplit(":", 1)[1]) for p in pairs}
    return rounds


def write_data(d, name, rows, test_rows=None, features=8, seed=7, decimals=None, missing=0.1):
    """A train file of `rows` rows and a test file (test_rows, default rows / 3) in LibSVM;
    `decimals` rounds the values (few distinct values per feature). Returns the two paths."""
    import numpy as np
    rng = np.random.default_rng(seed)
    split = rows
    rows += rows // 3 if test_rows is None else test_rows
    x = rng.normal(size=(rows, features))
    if decimals is not None:
        x = np.round(x, decimals)
    x[rng.random(size=x.shape) < missing] = np.nan
    v = np.nan_to_num(x)
    z = v[:, 0] + 0.7 * v[:, 1] - 0.5 * v[:, 2] ** 2 + 0.3 * v[:, 3]
    kind = name.split("-")[0]
    if kind == "binary":
        y = (z + 0.5 * rng.normal(size=rows) > 0).astype(float)
    elif kind == "multi":
        y = np.digitize(z + 0.3 * rng.normal(size=rows), [-0.8, 0.2, 1.0]).astype(float)
    else:
        y = z + 0.3 * rng.normal(size=rows)
    paths = [os.path.join(d, "%s.%s.libsvm" % (name, part)) for part in ("train", "test")]
    t.write_libsvm(paths[0], x[:split], y[:split])
    t.write_libsvm(paths[1], x[split:], y[split:])
    return paths


def fnv1a64(data):
    h = 14695981039346656037
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h
