"""A link cut between two simulated hosts while both still reach the tracker (run under
`cluster.sh run 2 --name auto -- link_stall_test.py BIN_DIR`): a 2-host job under
treering-submit --cluster ssh; once two rounds are done each host gets a blackhole route to the
other's address, so the collective between them stops moving while both ranks' heartbeats go
on. The tracker must print the per-link hang line from the ranks' link counters, naming a
rank, its host and pid, the collective, and its silent link to the other rank
(--hang-report 2). docs/status.md. Exit 0 pass, 1 fail, 77 skipped."""
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
                "--hang-report", "2", "--", os.path.join(BIN, "treering"), "/dev/null",
                "data=" + data, "num_round=5000", "nthread=1", "max_depth=4",
                "objective=binary:logistic", "rabit_timeout=60",
                "model_out=" + os.path.join(work, "m.json")]
        proc = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL,
                                stderr=open(err_path, "w"), start_new_session=True)
        cut_routes = []
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
            first = lines[0].split()[0]
            netns = os.environ["CLUSTER_NETNS"].split()[:2]
            # Each host drops what it sends to the other; both keep their tracker link.
            for ns, other in ((netns[0], second), (netns[1], first)):
                subprocess.run(["ip", "netns", "exec", ns, "ip", "route", "add", "blackhole",
                                other], check=True)
                cut_routes.append((ns, other))
            cut = time.time()
            pattern = (r"\[tracker\] (rank (\d) \((\S+), pid (\d+)\) is inside \w+ #\d+ "
                       r"\([^)]*\); its link to rank (\d) has carried no bytes for (\d+) s.*)")
            line = None
            while time.time() < cut + 30 and line is None:
                m = re.search(pattern, err())
                line = m and m.group(1)
                time.sleep(0.1)
            if line is None:
                fail("no per-link hang line within 30 s of the cut:\n" + err()[-3000:])
            named = {r["rank"]: (r["host"], r["pid"]) for r in status["ranks"]}
            rank, host, pid, peer = int(m.group(2)), m.group(3), int(m.group(4)), int(m.group(5))
            if named.get(rank) != (host, pid) or peer != 1 - rank or int(m.group(6)) < 2:
                fail("the line does not match the job's ranks %s: %s" % (named, line))
            if "has sent nothing" in line:
                fail("a rank named silent although its tracker link works: " + line)
            print("PASS: %.1f s after the cut: %s" % (time.time() - cut, line))
        finally:
            for ns, other in cut_routes:
                subprocess.run(["ip", "netns", "exec", ns, "ip", "route", "del", "blackhole",
                                other])
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


if __name__ == "__main__":
    main()
