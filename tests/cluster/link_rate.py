#!/usr/bin/python3
"""Measures what a simulated cluster's link carries: TCP bytes from host 1 to host 2 for a few
seconds, best of 3, next to the configured tbf rate. Run under cluster.sh, e.g.
    tests/cluster/cluster.sh run 2 --rate 100mbit -- /usr/bin/python3 tests/cluster/link_rate.py
(On a loaded machine the sender can be CPU-bound above a few Gbit/s; the rate is a ceiling.)"""
import os
import subprocess
import sys

SECONDS = 3
SERVER = r"""
import socket, sys, time
family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(family, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5201)); s.listen(1)
print("ready", flush=True)
c, _ = s.accept()
n, t0 = 0, None
while True:
    b = c.recv(1 << 20)
    if not b: break
    if t0 is None: t0 = time.time()
    n += len(b)
print("%d %.6f" % (n, time.time() - t0), flush=True)
"""
CLIENT = r"""
import socket, sys, time
family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
c = socket.create_connection((sys.argv[1], 5201))
buf = b"\0" * (1 << 20)
end = time.time() + float(sys.argv[2])
while time.time() < end: c.sendall(buf)
c.close()
"""


def one_run(ns, hosts):
    server = subprocess.Popen(["ip", "netns", "exec", ns[1], sys.executable, "-c", SERVER,
                               hosts[1]], stdout=subprocess.PIPE, text=True)
    assert server.stdout.readline().strip() == "ready"
    subprocess.run(["ip", "netns", "exec", ns[0], sys.executable, "-c", CLIENT, hosts[1],
                    str(SECONDS)], check=True)
    n, secs = server.stdout.readline().split()
    server.wait(timeout=30)
    return int(n) * 8 / float(secs) / 1e6


def main():
    ns, hosts = os.environ["CLUSTER_NETNS"].split(), os.environ["CLUSTER_HOSTS"].split()
    if len(ns) < 2:
        print("link_rate: needs a cluster of 2 or more hosts")
        return 1
    best = max(one_run(ns, hosts) for _ in range(3))
    load = os.getloadavg()[0]
    print("link %s -> %s: %.1f Mbit/s (best of 3, %d s each), tbf rate %s, load average %.1f"
          % (hosts[0], hosts[1], best, SECONDS, os.environ.get("CLUSTER_RATE"), load))
    return 0


if __name__ == "__main__":
    sys.exit(main())
