#!/usr/bin/python3
"""The `treering` command's OpenMP waiting policy (base/src/omp_wait_policy.cc, issue 33 goal 4):
libgomp, as the program's threads see it (OMP_DISPLAY_ENV=verbose), spins kOmpSpinCount =
10000 times before sleeping instead of libgomp's 300000, unless the user set OMP_WAIT_POLICY or
GOMP_SPINCOUNT, which win; the program's output, exit code and model are as without it."""
import os
import re
import tempfile

import cli_testlib as t


def displayed_spin_counts(env_extra, args=("--help",)):
    env = dict(os.environ, OMP_DISPLAY_ENV="verbose")
    for key in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT"):
        env.pop(key, None)
    env.update(env_extra)
    import subprocess
    proc = subprocess.run([t.treering_bin(), *args], capture_output=True, text=True, env=env,
                          timeout=120)
    counts = re.findall(r"GOMP_SPINCOUNT = '(\d+)'", proc.stdout + proc.stderr)
    return proc, counts


def test_default_budget():
    proc, counts = displayed_spin_counts({})
    assert proc.returncode == 0, proc.stderr
    # libgomp of the first image shows its default, the program's own run the budget
    assert counts and counts[-1] == "10000", counts
    assert proc.stdout.count("Usage:") <= 1 and proc.stdout.count("treering") >= 1


def test_process_keeps_its_name():
    # The second image is executed by the binary's path, so `top` and `pkill treering` see
    # "treering", not "exe" (the name of /proc/self/exe).
    import subprocess
    import time
    d = tempfile.mkdtemp()
    data = os.path.join(d, "wide.libsvm")
    with open(data, "w") as f:
        for i in range(20000):
            f.write("%d " % (i % 2) + " ".join("%d:%g" % (j, (i * (j + 3)) % 97 / 7.0)
                                               for j in range(20)) + "\n")
    proc = subprocess.Popen([t.treering_bin(), "/dev/null", "data=" + data, "num_round=400",
                             "max_depth=8", "nthread=1", "model_out=" + os.path.join(d, "m")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names = set()
    try:
        for _ in range(100):
            time.sleep(0.05)
            try:
                with open("/proc/%d/environ" % proc.pid, "rb") as f:
                    if b"GOMP_SPINCOUNT=10000" not in f.read():
                        continue  # still the first image
                with open("/proc/%d/comm" % proc.pid) as f:
                    names.add(f.read().strip())
                break
            except FileNotFoundError:
                break
    finally:
        proc.kill()
        proc.wait()
    assert names == {"treering"}, names


def test_user_settings_win():
    for env, want in (({"GOMP_SPINCOUNT": "300000"}, ["300000"]),
                      ({"OMP_WAIT_POLICY": "passive"}, ["0"]),
                      ({"OMP_WAIT_POLICY": "active"}, ["30000000000"])):
        proc, counts = displayed_spin_counts(env)
        assert proc.returncode == 0, proc.stderr
        assert counts == want, (env, counts)  # one image: no second run


def test_same_model_and_exit_codes():
    d = tempfile.mkdtemp()
    rows = ["%d 0:%g 1:%g" % (i % 2, (i * 7) % 13 / 3.0, (i * 5) % 11 / 2.0) for i in range(400)]
    with open(os.path.join(d, "d.libsvm"), "w") as f:
        f.write("\n".join(rows) + "\n")
    models = []
    for env in ({}, {"GOMP_SPINCOUNT": "300000"}):
        out = os.path.join(d, "m%d.json" % len(models))
        args = ["/dev/null", "data=" + os.path.join(d, "d.libsvm"), "num_round=3",
                "objective=binary:logistic", "nthread=2", "model_out=" + out]
        proc, _ = displayed_spin_counts(env, args)
        assert proc.returncode == 0, proc.stderr
        models.append(open(out, "rb").read())
    assert models[0] == models[1]
    proc, _ = displayed_spin_counts({}, ["/dev/null", "no_such_key=1"])
    assert proc.returncode != 0 and "no_such_key" in proc.stderr, proc.stderr


if __name__ == "__main__":
    t.main([test_default_budget, test_process_keeps_its_name, test_user_settings_win,
            test_same_model_and_exit_codes])
