"""Median round trip of a 1-byte TCP ping-pong, in microseconds: the measured counterpart of
rabit_link_latency_us (one message = half a round trip) on the simulated cluster, which has no
ping (iputils-ping is not installed).

  tcp_rtt.py serve ADDRESS PORT          answer one connection, then exit
  tcp_rtt.py ping ADDRESS PORT [COUNT]   print the median round trip of COUNT pings (us)
"""
import socket
import statistics
import sys
import time


def serve(address, port):
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((address, port))
        s.listen(1)
        s.settimeout(20)  # bounded: the pinging side may never come
        conn, _ = s.accept()
        with conn:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            while (b := conn.recv(1)):
                conn.sendall(b)


def ping(address, port, count):
    deadline = time.monotonic() + 10
    while True:  # the server may not be listening yet
        try:
            conn = socket.create_connection((address, port), timeout=5)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    with conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        rtts = []
        for _ in range(count):
            t0 = time.perf_counter()
            conn.sendall(b"x")
            if not conn.recv(1):
                break
            rtts.append((time.perf_counter() - t0) * 1e6)
    print("%.0f" % statistics.median(rtts))


if __name__ == "__main__":
    verb, address, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if verb == "serve":
        serve(address, port)
    else:
        ping(address, port, int(sys.argv[4]) if len(sys.argv) > 4 else 200)
