"""A link cut between two simulated hosts (run under `cluster.sh run 2 --name auto --
hang_report_test.py BIN_DIR`, which sets the CLUSTER_* variables): a 2-host job under
treering-submit --cluster ssh; once two rounds are done the second host's link to the bridge
goes down, and the tracker must print a hang line naming the rank on that host (its heartbeats
stopped with its link) within a few seconds (--hang-report 1). docs/status.md.
Exit 0 pass, 1 fail, 77 skipped."""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

SKIP = 77
BIN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ""
CLUSTER = os.environ.get("CLUSTER_DIR", "")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    if not CLUSTER:
        print("SKIP: run me under tests/cluster/cluster.sh run 2 -- (no CLUSTER_DIR)")
        sys.exit(SKIP)
    name = os.environ["CLUSTER_NAME"]
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as work:
        hosts = os.path.join(work, "hosts")
        with open(os.path.join(CLUSTER, "hosts")) as src, open(hosts, "w") as dst:
            lines = src.readlines()[:2]
            dst.writelines(lines)
        second = lines[1].split()[0]
        data = os.path.join(work, "train.libsvm")
        with open(data, "w") as f:
            for i in range(4000):
                f.write("%d %s\n" % (i % 2, " ".join("%d:%d" % (j, (i * 7 + j * 13) % 97)
                                                     for j in range(10))))
        err_path = os.path.join(work, "err.txt")
        argv = [os.path.join(BIN, "treering-submit"), "--cluster", "ssh", "--num-workers", "2",
                "--host-file", hosts, "--ssh-command", os.environ["CLUSTER_SSH"],
                "--hang-report", "1", "--", os.path.join(BIN, "treering"), "/dev/null",
                "data=" + data, "num_round=5000", "nthread=1", "max_depth=4",
                "objective=binary:logistic", "rabit_timeout=60",
                "model_out=" + os.path.join(work, "m.json")]
        proc = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL,
                                stderr=open(err_path, "w"), start_new_session=True)
        veth = None
        try:
            def err():
                with open(err_path) as f:
                    return f.read()
            deadline = time.time() + 60
            url = None
            while time.time() < deadline and url is None:
                m = re.search(r"status: (http://\S+)", err())
                url = m and m.group(1).replace("/?token=", "/status.json?token=")
                time.sleep(0.1)
            if url is None:
                fail("no status line:\n" + err()[-2000:])
            status = None
            while time.time() < deadline:
                with urllib.request.urlopen(url, timeout=5) as r:
                    status = json.loads(r.read())
                if status["rounds_done"] >= 2:
                    break
                time.sleep(0.1)
            else:
                fail("fewer than 2 rounds in 60 s: %s\n%s" % (status, err()[-2000:]))
            rank = [r["rank"] for r in status["ranks"] if r["host"] == second]
            if not rank:
                fail("no rank on %s: %s" % (second, status["ranks"]))
            pid = [r["pid"] for r in status["ranks"] if r["host"] == second][0]
            # Host 2's veth (cluster.sh: NAME-v2 on the bridge side) goes down: its links to
            # the other host and to the tracker carry nothing from now on.
            veth = "%s-v2" % name
            subprocess.run(["ip", "link", "set", veth, "down"], check=True)
            cut = time.time()
            pattern = r"\[tracker\] (.*rank %d \(%s, pid %d\) has sent nothing.*)" % (
                rank[0], re.escape(second), pid)
            line = None
            while time.time() < cut + 20 and line is None:
                m = re.search(pattern, err())
                line = m and m.group(1)
                time.sleep(0.1)
            if line is None:
                fail("no hang line naming rank %d on %s within 20 s of the cut:\n%s" %
                     (rank[0], second, err()[-3000:]))
            print("PASS: %.1f s after the cut: %s" % (time.time() - cut, line))
        finally:
            if veth:
                subprocess.run(["ip", "link", "set", veth, "up"])
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


if __name__ == "__main__":
    main()
