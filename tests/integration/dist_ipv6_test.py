#!/usr/bin/python3
"""treering-submit --host-ip ::1: the tracker and the workers' peer links run over IPv6 and the
3-worker model is byte-identical to the one trained over 127.0.0.1, with the same metric lines.
A worker told to advertise a host name that does not resolve fails at once, naming it, instead
of retrying until its 120 s bootstrap deadline. Skipped (77) without an IPv6 loopback."""
import os
import socket
import subprocess
import time

import distlib
from distlib import t


def have_ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def train(d, host_ip, train_path, test_path):
    model = os.path.join(d, "model.%s.json" % host_ip.replace(":", "_"))
    proc = t.run([distlib.submit_bin(), "--cluster", "local", "--num-workers", "3",
                  "--host-ip", host_ip, "--", t.treering_bin(), "/dev/null",
                  "data=" + train_path, "eval[test]=" + test_path, "num_round=6",
                  "max_depth=4", "eta=0.3", "nthread=1", "objective=binary:logistic",
                  "eval_metric=auc", "model_out=" + model])
    with open(model, "rb") as f:
        return distlib.metric_lines(proc.stdout), f.read(), proc.stderr


def test_ipv6_job_matches_ipv4():
    if not have_ipv6_loopback():
        t.skip("no IPv6 loopback (::1 cannot be bound on this machine)")
    with t.TempDir() as d:
        train_path, test_path = distlib.write_data(d, "binary-v6", 600)
        v4_metrics, v4_model, _ = train(d, "127.0.0.1", train_path, test_path)
        v6_metrics, v6_model, v6_err = train(d, "::1", train_path, test_path)
        assert "[submit] tracker ::1:" in v6_err, v6_err
        assert sorted(v6_metrics) == list(range(6)), v6_metrics
        assert v6_metrics == v4_metrics, "metrics differ:\n%r\n%r" % (v6_metrics, v4_metrics)
        assert v6_model == v4_model, "the ::1 model differs from the 127.0.0.1 one"


def test_unresolvable_advertised_host_fails_fast():
    with t.TempDir() as d:
        train_path, _ = distlib.write_data(d, "binary-bad", 60)
        env = dict(os.environ, TREERING_HOST_IP="no-such-host.invalid")
        start = time.monotonic()
        proc = subprocess.run([distlib.submit_bin(), "--cluster", "local", "--num-workers", "2",
                               "--", t.treering_bin(), "/dev/null", "data=" + train_path,
                               "num_round=1"], capture_output=True, text=True, timeout=120,
                              env=env)
        took = time.monotonic() - start
        out = proc.stdout + proc.stderr
        assert proc.returncode != 0, out
        assert "no-such-host.invalid" in out, out
        assert took < 15, "took %.1f s to fail:\n%s" % (took, out)


if __name__ == "__main__":
    t.main([test_ipv6_job_matches_ipv4, test_unresolvable_advertised_host_fails_fast])
