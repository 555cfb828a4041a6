#!/usr/bin/python3
"""The tracker's status page during a real two-worker job (docs/status.md): status.json against
the job's own ranks (their pids), rounds and metric lines; the page in Debian's headless
chromium (its DOM shows both ranks and a curve with one point per finished round; a screenshot
is kept under the build dir); a SIGSTOPped worker and a worker stuck reading its data each get
a hang line naming them. Workers are frozen with SIGSTOP while the page is read, so what the
browser draws is exactly the JSON read before."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

import cli_testlib as t

ROWS, FEATURES = 3000, 12


def make_data(d):
    import numpy as np
    rng = np.random.default_rng(36)
    x = rng.normal(size=(ROWS, FEATURES))
    y = x[:, 0] * 2 + np.sin(x[:, 1] * 3) + rng.normal(scale=0.1, size=ROWS)
    train = os.path.join(d, "train.libsvm")
    test = os.path.join(d, "test.libsvm")
    t.write_libsvm(train, x[:2000], y[:2000])
    t.write_libsvm(test, x[2000:], y[2000:])
    return train, test


class Job:
    """treering-submit running two workers in the background, its output in files."""

    def __init__(self, d, extra_keys, submit_args=(), data=None):
        submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
        if not os.path.exists(submit):
            t.skip("treering-submit is not built")
        train, test = make_data(d)
        self.out_path = os.path.join(d, "out.txt")
        self.err_path = os.path.join(d, "err.txt")
        keys = ["data=" + (data or train), "eval[test]=" + test, "eval_train=1",
                "objective=reg:squarederror", "max_depth=6", "nthread=1", "tree_method=hist",
                "eta=0.05"] + extra_keys
        args = [submit, "--cluster", "local", "--num-workers", "2"] + list(submit_args) + \
            ["--", t.treering_bin(), "/dev/null", "model_out=" + os.path.join(d, "m.json")] + keys
        self.proc = subprocess.Popen(args, cwd=d, stdout=open(self.out_path, "w"),
                                     stderr=open(self.err_path, "w"), start_new_session=True)
        self.url = self.wait_for(r"status: (http://\S+)", 20).group(1)
        self.stopped = []

    def stderr(self):
        with open(self.err_path) as f:
            return f.read()

    def stdout(self):
        with open(self.out_path) as f:
            return f.read()

    def wait_for(self, pattern, timeout_s):
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            m = re.search(pattern, self.stderr())
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("no %r within %g s; stderr:\n%s" % (pattern, timeout_s, self.stderr()))

    def status(self, token=True):
        url = self.url.replace("/?token=", "/status.json?token=") if token else \
            self.url.split("?")[0] + "status.json"
        with urllib.request.urlopen(url, timeout=5) as r:
            return json.loads(r.read())

    def wait_rounds(self, n, timeout_s=30):
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            s = self.status()
            if s["rounds_done"] >= n and all(r["pid"] for r in s["ranks"]):
                return s
            time.sleep(0.05)
        raise AssertionError("fewer than %d rounds in %g s: %s" % (n, timeout_s, s))

    def freeze(self, pids):
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
            self.stopped.append(pid)

    def end(self):
        for pid in self.stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browser(args, timeout_s=60):
    base = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=" + args.pop(0), "--virtual-time-budget=4000"]
    proc = subprocess.run(base + args, capture_output=True, text=True, timeout=timeout_s)
    return proc


def metric_lines(stdout):
    """{(round, name): value} from rank 0's '[i]\\tname:value' lines."""
    values = {}
    for line in stdout.splitlines():
        m = re.match(r"\[(\d+)\]\t(.*)", line)
        if m:
            for item in m.group(2).split("\t"):
                name, value = item.rsplit(":", 1)
                values[(int(m.group(1)), name)] = float(value)
    return values


def test_status_json_and_page_in_a_browser():
    with t.TempDir() as d:
        job = Job(d, ["num_round=3000"])
        try:
            s = job.wait_rounds(4)
            pids = [r["pid"] for r in s["ranks"]]
            # The ranks are this job's own treering processes, children of treering-submit.
            for pid in pids:
                with open("/proc/%d/cmdline" % pid, "rb") as f:
                    assert t.treering_bin().encode() in f.read(), pid
                with open("/proc/%d/stat" % pid) as f:
                    assert int(f.read().rsplit(")", 1)[1].split()[1]) == job.proc.pid
            job.freeze(pids)
            time.sleep(0.5)  # Reports already on the wire land
            s = job.status()
            rounds = s["rounds_done"]
            assert [r["rank"] for r in s["ranks"]] == [0, 1]
            assert all(r["host"] == "127.0.0.1" and r["state"] == "running" for r in s["ranks"])
            assert set(s["metrics"]) == {"train-rmse", "test-rmse"}, s["metrics"].keys()
            for name, points in s["metrics"].items():
                assert [p[0] for p in points] == list(range(rounds)), (name, points)
            assert len(s["timeline"]) == rounds
            assert all(c is not None and c >= 0 for row in s["timeline"] for c in row["comp_s"])
            assert all(r["entered"] >= r["finished"] > 0 for r in s["ranks"])
            # The values are the job's own: rank 0's metric lines say the same.
            printed = metric_lines(job.stdout())
            compared = 0
            for name, points in s["metrics"].items():
                for rnd, value in points:
                    if (rnd, name) in printed:
                        assert abs(printed[(rnd, name)] - value) <= 1e-12 * max(1, abs(value))
                        compared += 1
            assert compared >= 2 * (rounds - 1), (compared, rounds, job.stdout())
            # Without the token: 403, nothing about the job.
            try:
                job.status(token=False)
                raise AssertionError("status.json answered without the token")
            except urllib.error.HTTPError as e:
                assert e.code == 403, e.code
            if chromium() is None:
                t.skip_part("chromium is not installed (apt-get install chromium): the page was "
                            "not loaded in a browser")
                return
            dom = browser([os.path.join(d, "profile1"), "--dump-dom", job.url])
            assert dom.returncode == 0, dom.stderr[-2000:]
            html = dom.stdout
            rows = re.findall(r'<tr data-rank="(\d+)" class="rank">(.*?)</tr>', html)
            assert [r[0] for r in rows] == ["0", "1"], html[:3000]
            for rank, cells in rows:
                assert str(pids[int(rank)]) in cells and "running" in cells, cells
            for name in ("train-rmse", "test-rmse"):
                m = re.search(r'<polyline[^>]*data-series="%s"[^>]*data-points="(\d+)"' % name,
                              html)
                assert m and int(m.group(1)) == rounds, (name, m and m.group(0), rounds)
                assert len(re.findall(r'<circle[^>]*class="pt" data-series="%s"' % name,
                                      html)) == rounds
            assert html.count('class="comp"') == 2 * min(rounds, 60)
            assert "token=" not in re.sub(r"<script>.*?</script>", "", html, flags=re.S)
            artifacts = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])),
                                     "test-artifacts")
            os.makedirs(artifacts, exist_ok=True)
            png = os.path.join(artifacts, "status_page.png")
            if os.path.exists(png):
                os.remove(png)
            shot = browser([os.path.join(d, "profile2"), "--screenshot=" + png,
                            "--window-size=412,1300", "--hide-scrollbars", job.url])
            assert shot.returncode == 0 and os.path.getsize(png) > 10000, shot.stderr[-2000:]
            print("status page of a %d-round snapshot: DOM checked, screenshot %s" % (rounds, png))
        finally:
            job.end()


def test_a_stopped_worker_is_named():
    with t.TempDir() as d:
        job = Job(d, ["num_round=3000"], ["--hang-report", "1"])
        try:
            s = job.wait_rounds(2)
            pid = s["ranks"][1]["pid"]
            job.freeze([pid])
            m = job.wait_for(r"\[tracker\] (.*has sent nothing for \d+ s.*)", 20)
            line = m.group(1)
            assert ("rank 1 (127.0.0.1, pid %d)" % pid) in line, line
            assert re.search(r"(Allreduce|Allgather|Broadcast|ReduceScatter) #\d+", line), line
            print("hang line: " + line)
        finally:
            job.end()


class StallingServer:
    """Serves one file over HTTP (HEAD, single ranges, as the loader reads, docs/data.md) and
    holds back every body until release(): a data server that stopped sending."""

    def __init__(self, path):
        import http.server
        import threading
        with open(path, "rb") as f:
            data = f.read()
        gate = self.gate = threading.Event()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def headers_only(self, code, length, extra=()):
                self.send_response(code)
                self.send_header("Content-Length", str(length))
                self.send_header("ETag", '"v1"')
                self.send_header("Accept-Ranges", "bytes")
                for k, v in extra:
                    self.send_header(k, v)
                self.end_headers()

            def do_HEAD(self):
                self.headers_only(200, len(data))

            def do_GET(self):
                if "?" in self.path:  # no ?counts / ?summary here: the loader reads ranges
                    self.headers_only(400, 0)
                    return
                gate.wait(30)
                m = re.match(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
                first = int(m.group(1)) if m else 0
                last = int(m.group(2)) if m and m.group(2) else len(data) - 1
                last = min(last, len(data) - 1)
                body = data[first:last + 1]
                self.headers_only(206 if m else 200, len(body),
                                  [("Content-Range", "bytes %d-%d/%d" % (first, last, len(data)))]
                                  if m else [])
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d/%s" % (self.server.server_address[1],
                                               os.path.basename(path))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def release(self):
        self.gate.set()

    def close(self):
        self.gate.set()
        self.server.shutdown()


def test_a_worker_stuck_reading_its_data_is_named():
    with t.TempDir() as d:
        train, test = make_data(d)
        # Rank 1 reads its data from a server that holds the bytes back: it sits in "loading
        # data" while rank 0, which read a local copy, waits for it in the first collective.
        server = StallingServer(train)
        wrapper = os.path.join(d, "worker.sh")
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\nif [ "$DMLC_TASK_ID" = 1 ]; then exec "$@" data=%s; fi\n'
                    'exec "$@"\n' % server.url)
        os.chmod(wrapper, 0o755)
        submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
        err_path = os.path.join(d, "err.txt")
        proc = subprocess.Popen(
            [submit, "--cluster", "local", "--num-workers", "2", "--hang-report", "1", "--",
             wrapper, t.treering_bin(), "/dev/null", "data=" + train, "eval[test]=" + test,
             "num_round=2", "nthread=1", "tree_method=hist", "model_out=" + d + "/m.json"],
            cwd=d, stdout=subprocess.DEVNULL, stderr=open(err_path, "w"), start_new_session=True)
        try:
            deadline, line = time.time() + 20, None
            while time.time() < deadline and line is None and proc.poll() is None:
                with open(err_path) as f:
                    m = re.search(r"\[tracker\] (rank 1 .*has not entered.*)", f.read())
                line = m and m.group(1)
                time.sleep(0.1)
            with open(err_path) as f:
                err = f.read()
            assert line, err
            assert "rank 1 is at: loading data" in line, line
            server.release()  # the bytes come: the job then finishes normally
            assert proc.wait(timeout=60) == 0, err
            print("hang line: " + line)
        finally:
            server.close()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_preflight_names_the_key_and_ranks_that_differ():
    with t.TempDir() as d:
        train, test = make_data(d)
        # Rank 1's command line has another max_depth (a config edited between launches).
        wrapper = os.path.join(d, "worker.sh")
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\nif [ "$DMLC_TASK_ID" = 1 ]; then exec "$@" max_depth=3; fi\n'
                    'exec "$@"\n')
        os.chmod(wrapper, 0o755)
        submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
        proc = t.run([submit, "--cluster", "local", "--num-workers", "2", "--", wrapper,
                      t.treering_bin(), "/dev/null", "data=" + train, "num_round=2",
                      "max_depth=6", "nthread=1", "model_out=" + d + "/m.json"],
                     cwd=d, check=False)
        assert proc.returncode != 0, proc.stderr
        expected = "pre-flight: the ranks' configurations differ: max_depth: 6 on rank 0, 3 on rank 1"
        assert expected in proc.stderr, proc.stderr
        assert not os.path.exists(os.path.join(d, "m.json"))
        print(expected)


def test_progress_line_only_on_a_terminal():
    script = shutil.which("script")
    if script is None:
        t.skip("util-linux's `script` (a terminal for the launcher) is not installed")
    with t.TempDir() as d:
        train, test = make_data(d)
        submit = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
        args = [submit, "--cluster", "local", "--num-workers", "2", "--", t.treering_bin(),
                "/dev/null", "data=" + train, "eval[test]=" + test, "num_round=6", "nthread=1",
                "model_out=" + d + "/m.json"]
        # On a terminal (script's pseudo-terminal): the line is drawn, erased around the metric
        # lines, and gone at the end.
        typed = os.path.join(d, "typescript")
        proc = t.run([script, "-qec", " ".join("'%s'" % a for a in args), typed], cwd=d)
        with open(typed, "rb") as f:
            screen = f.read().decode("utf-8", "replace")
        drawn = re.findall(r"\r\x1b\[Kround (\d+)/6, [0-9.e-]+ s/round, about \d+ s left", screen)
        assert drawn and int(drawn[-1]) >= 2, screen[-3000:]
        assert re.search(r"\r\x1b\[K\[5\]\ttest-rmse:", screen), screen[-3000:]
        # Redirected to files: not a control character.
        plain = t.run(args, cwd=d)
        assert "\x1b" not in plain.stderr + plain.stdout, repr(plain.stderr[-500:])
        print("progress line drawn at rounds " + ",".join(drawn))
        # One process on a terminal: the loader's line (counting, then parsing with the rows).
        one = [t.treering_bin(), "/dev/null", "data=" + train, "num_round=1", "nthread=1",
               "model_out=" + d + "/m1.json"]
        t.run([script, "-qec", " ".join("'%s'" % a for a in one), typed], cwd=d)
        with open(typed, "rb") as f:
            screen = f.read().decode("utf-8", "replace")
        assert re.search(r"\r\x1b\[Kdata = \S+train.libsvm: counting [0-9.]+ of [0-9.]+ MB, "
                         r"[0-9.]+ MB/s", screen), repr(screen[:2000])
        assert re.search(r"\r\x1b\[Kdata = \S+: parsing [0-9.]+ of [0-9.]+ MB, [0-9.]+ MB/s, "
                         r"2000 rows", screen), repr(screen[:2000])
        plain = t.run(one, cwd=d)
        assert "\x1b" not in plain.stderr + plain.stdout, repr(plain.stderr[-500:])


if __name__ == "__main__":
    t.need_xgboost_python()
    t.main([test_status_json_and_page_in_a_browser, test_a_stopped_worker_is_named,
            test_a_worker_stuck_reading_its_data_is_named,
            test_preflight_names_the_key_and_ranks_that_differ,
            test_progress_line_only_on_a_terminal])
