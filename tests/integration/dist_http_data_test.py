#!/usr/bin/python3
"""Training data served over HTTP (issue 20 part 2): `treering-submit --serve-data DIR` and
workers reading data=http://HOST:PORT/FILE build byte-identical models to the local-file run
for 1, 2 and 4 workers (train, eval[...] and test:data), their counting pass answered by the
server (?counts); a `treering-data serve` killed and restarted mid-load is resumed; a wrong
token and a missing file fail with one clear line.
Everything on loopback, each process bounded by cli_testlib's timeout."""
import os
import signal
import socket
import subprocess
import time

import distlib
from distlib import t

KEYS = ["objective=binary:logistic", "max_depth=4", "nthread=1", "eval_metric=auc",
        "num_round=3"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def data_bin():
    return os.path.join(os.path.dirname(t.treering_bin()), "treering-data")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def test_models_identical_local_and_http():
    with t.TempDir() as d:
        train, test = distlib.write_data(d, "binary", 3000)
        port = free_port()
        url = "http://127.0.0.1:%d/" % port
        for n in (1, 2, 4):
            local = os.path.join(d, "local%d.model" % n)
            remote = os.path.join(d, "http%d.model" % n)
            a = distlib.submit(n, [t.treering_bin(), "/dev/null", "data=" + train,
                                   "eval[test]=" + test, "model_out=" + local] + KEYS)
            b = t.run([distlib.submit_bin(), "--cluster", "local", "--num-workers", str(n),
                       "--serve-data", d, "--serve-data-port", str(port), "--log-level", "DEBUG",
                       "--",
                       t.treering_bin(), "/dev/null", "data=" + url + os.path.basename(train),
                       "eval[test]=" + url + os.path.basename(test), "model_out=" + remote] +
                      KEYS)
            assert "[submit] serving %s at %s" % (d, url) in b.stderr, b.stderr
            # The job's server is treering-data serve: the counting pass is answered there (the
            # access log, on stderr under DEBUG), so each part crosses the network once.
            assert '?counts" 200' in b.stderr, b.stderr
            assert read(local) == read(remote), "%d workers: models differ" % n
            assert distlib.metric_lines(a.stdout) == distlib.metric_lines(b.stdout), \
                (a.stdout, b.stdout)
        # test:data over HTTP predicts what the local file predicts.
        server = start_server(d, port)
        try:
            for name, data in (("local", test), ("http", url + os.path.basename(test))):
                t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + local,
                       "test:data=" + data, "name_pred=" + os.path.join(d, name + ".pred")])
            assert read(os.path.join(d, "local.pred")) == read(os.path.join(d, "http.pred"))
        finally:
            stop_server(server)


def start_server(d, port, extra=()):
    proc = subprocess.Popen([data_bin(), "serve", d, "--port", str(port)] + list(extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("serving "), line
    return proc


def stop_server(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("treering-data serve ignored SIGTERM")


def info_lines(out):
    return [l for l in out.splitlines() if l.split(":")[0] in ("rows", "columns", "non-zeros",
                                                                "labels", "input bytes")]


def test_server_killed_and_restarted_mid_load():
    with t.TempDir() as d:
        train, _ = distlib.write_data(d, "binary", 200000, test_rows=1)  # ~17 MB
        port = free_port()
        url = "http://127.0.0.1:%d/%s" % (port, os.path.basename(train))
        want = t.run([data_bin(), "info", train, "--nthread", "1"]).stdout
        # The first server cuts every reply after 64 KiB, so the load is still running when it
        # is killed; the worker must then resume against the second one.
        first = start_server(d, port, ["--test-drop-after", "65536", "--test-drop-count", "1000"])
        worker = subprocess.Popen([data_bin(), "info", url, "--nthread", "1"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while "GET /" not in first.stderr.readline():
            pass
        first.kill()
        first.wait()
        time.sleep(0.5)
        second = start_server(d, port)
        out, err = worker.communicate(timeout=120)
        _, log = stop_server(second)
        assert worker.returncode == 0, err
        assert info_lines(out) == info_lines(want), (out, want)
        assert "GET /" in log, "the second server served nothing:\n" + log


def test_wrong_token_and_missing_file_are_one_clear_line():
    with t.TempDir() as d:
        train, _ = distlib.write_data(d, "binary", 100)
        token_file = os.path.join(d, "token")
        with open(token_file, "w") as f:
            f.write("right-token\n")
        port = free_port()
        server = start_server(d, port, ["--token-file", token_file])
        base = "http://127.0.0.1:%d/" % port
        try:
            env = dict(os.environ, TREERING_DATA_TOKEN="wrong-token")
            proc = subprocess.run([t.treering_bin(), "/dev/null", "num_round=1",
                                   "data=" + base + os.path.basename(train)],
                                  capture_output=True, text=True, timeout=60, env=env)
            assert proc.returncode == 2, (proc.returncode, proc.stderr)
            assert (base + os.path.basename(train) + ": HTTP 401 Unauthorized (the server "
                    "refused the token in the environment)") in proc.stderr, proc.stderr
            env = dict(os.environ, TREERING_DATA_TOKEN="right-token")
            proc = subprocess.run([t.treering_bin(), "/dev/null", "num_round=1",
                                   "data=" + base + "nope.libsvm"],
                                  capture_output=True, text=True, timeout=60, env=env)
            assert proc.returncode == 2, (proc.returncode, proc.stderr)
            assert base + "nope.libsvm: HTTP 404 Not Found" in proc.stderr, proc.stderr
        finally:
            stop_server(server)


if __name__ == "__main__":
    t.need_xgboost_python()  # numpy generates the data
    if not os.path.exists(distlib.submit_bin()) or not os.path.exists(data_bin()):
        print("SKIP: treering-submit or treering-data is not built")
        raise SystemExit(t.SKIP)
    t.main([test_models_identical_local_and_http,
            test_server_killed_and_restarted_mid_load,
            test_wrong_token_and_missing_file_are_one_clear_line])
