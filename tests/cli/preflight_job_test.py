#!/usr/bin/python3
"""Pre-flight and hang-report keys in real two-worker jobs under treering-submit
(docs/status.md): ranks whose training parts differ in label kind or CSV feature count fail
at once with one line naming the ranks and the difference; the link test names both ends
(host, interface, address:port) of a refused link; a worker-side rabit_hang_report turns the
tracker's hang lines on (the tracker's own --hang-report is 0). Exit 77 when not built."""
import os
import re
import time

import cli_testlib as t
from status_page_test import Job


def submit():
    path = os.path.join(os.path.dirname(t.treering_bin()), "treering-submit")
    if not os.path.exists(path):
        t.skip("treering-submit is not built")
    return path


def wrapper(d, rank1_line):
    """A worker command that changes rank 1's (DMLC_TASK_ID 1) arguments or environment."""
    path = os.path.join(d, "worker.sh")
    with open(path, "w") as f:
        f.write('#!/bin/sh\nif [ "$DMLC_TASK_ID" = 1 ]; then %s; fi\nexec "$@"\n' % rank1_line)
    os.chmod(path, 0o755)
    return path


def two_workers(d, worker, keys):
    return t.run([submit(), "--cluster", "local", "--num-workers", "2", "--", worker,
                  t.treering_bin(), "/dev/null", "num_round=2", "nthread=1",
                  "model_out=" + d + "/m.json"] + keys, cwd=d, check=False)


def write_rows(path, labels, features, sep):
    with open(path, "w") as f:
        for i, y in enumerate(labels):
            xs = [(i * 7 + j * 13) % 97 / 10 for j in range(features)]
            if sep == ",":
                f.write(",".join(str(v) for v in [y] + xs) + "\n")
            else:
                f.write("%s %s\n" % (y, " ".join("%d:%g" % (j, v) for j, v in enumerate(xs))))


def test_label_kinds_differ():
    with t.TempDir() as d:
        binary, cont = os.path.join(d, "binary.libsvm"), os.path.join(d, "cont.libsvm")
        write_rows(binary, [i % 2 for i in range(200)], 5, " ")
        write_rows(cont, [0.25] * 200, 5, " ")
        proc = two_workers(d, wrapper(d, 'exec "$@" data=%s' % cont), ["data=" + binary])
        assert proc.returncode != 0, proc.stderr
        expected = ("the ranks' training parts differ: label kind: binary 0/1 on rank 0, "
                    "continuous (e.g. 0.25) on rank 1")
        assert expected in proc.stderr, proc.stderr
        assert not os.path.exists(os.path.join(d, "m.json"))
        print(expected)


def test_csv_feature_counts_differ():
    with t.TempDir() as d:
        ten, eleven = os.path.join(d, "ten.csv"), os.path.join(d, "eleven.csv")
        write_rows(ten, [i % 3 for i in range(100)], 10, ",")
        write_rows(eleven, [i % 3 for i in range(100)], 11, ",")
        proc = two_workers(d, wrapper(d, 'exec "$@" "data=%s?format=csv"' % eleven),
                           ["data=%s?format=csv" % ten])
        assert proc.returncode != 0, proc.stderr
        expected = "feature count: 10 on rank 0, 11 on rank 1"
        assert expected in proc.stderr, proc.stderr
        print(expected)


def test_link_test_names_both_ends():
    with t.TempDir() as d:
        data = os.path.join(d, "train.libsvm")
        write_rows(data, [i % 2 for i in range(100)], 5, " ")
        # Rank 1 advertises a port nobody listens on: rank 0's dial is refused.
        worker = wrapper(d, "export TREERING_TEST_PREFLIGHT_REFUSE=1")
        proc = two_workers(d, worker, ["data=" + data])
        assert proc.returncode != 0, proc.stderr
        m = re.search(r"pre-flight link test: rank 0 \((\S+), lo 127\.0\.0\.1:(\d+)\) cannot reach "
                      r"rank 1 \((\S+), lo 127\.0\.0\.1:(\d+)\): connection refused", proc.stderr)
        assert m, proc.stderr
        assert m.group(1) == os.uname().nodename == m.group(3), m.group(0)
        assert m.group(2) != m.group(4), m.group(0)
        assert "rank 1 (%s, lo 127.0.0.1:%s) cannot reach" % (m.group(1), m.group(4)) not in \
            proc.stderr, "rank 1 reached rank 0: only rank 1's port was closed\n" + proc.stderr
        assert not os.path.exists(os.path.join(d, "m.json"))
        print(m.group(0))
        # Without the fault the same job trains: the test passes on working links.
        ok = two_workers(d, "/usr/bin/env", ["data=" + data])
        assert ok.returncode == 0, ok.stderr


def test_a_workers_hang_report_key_reaches_the_tracker():
    with t.TempDir() as d:
        # The tracker's lines are off (--hang-report 0); the workers' key turns them on.
        job = Job(d, ["num_round=3000", "rabit_hang_report=1"], ["--hang-report", "0"])
        try:
            s = job.wait_rounds(2)
            pid = s["ranks"][1]["pid"]
            job.freeze([pid])
            m = job.wait_for(r"\[tracker\] (.*rank 1 \(127\.0\.0\.1, pid %d\).*)" % pid, 20)
            print("hang line: " + m.group(1))
        finally:
            job.end()
    with t.TempDir() as d:
        # The tracker's lines at 1 s, the workers' key 0: none (the workers' key wins).
        job = Job(d, ["num_round=3000", "rabit_hang_report=0"], ["--hang-report", "1"])
        try:
            s = job.wait_rounds(2)
            pid = s["ranks"][1]["pid"]
            job.freeze([pid])
            time.sleep(5)
            assert not re.search(r"\[tracker\] .*pid %d" % pid, job.stderr()), job.stderr()
        finally:
            job.end()


if __name__ == "__main__":
    t.main([test_label_kinds_differ, test_csv_feature_counts_differ,
            test_link_test_names_both_ends, test_a_workers_hang_report_key_reaches_the_tracker])
