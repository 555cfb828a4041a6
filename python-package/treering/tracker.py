"""RabitTracker with XGBoost 1.7's names, serving treering's own tracker in this process.

The server is libtreering's (``XGTrackerCreate``/``Run``/``WaitFor``/``Free``) in a
background thread: workers speak treering's tracker protocol and prove the job token, so
:meth:`RabitTracker.worker_envs` carries the token with the address; pass it whole to
``collective.init`` (or put it in the workers' environment).
"""
import ctypes
import json
import socket
import threading

from .core import _LIB, XGBoostError, _check_call, _c_str


def get_host_ip(host_ip=None):
    """`host_ip` itself, or for None / "auto" / "ip" the address of the outward interface."""
    if host_ip not in (None, "auto", "ip", "dns"):
        return host_ip
    if host_ip == "dns":
        return socket.getfqdn()
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


class RabitTracker:
    """A tracker for `n_workers` workers on `host_ip`:`port` (0: any free port).

    treering's extra keywords: `timeout` (seconds for every worker to arrive, 0 none),
    `max_attempts` (> 1: a worker restarted with the same task id and ``DMLC_NUM_ATTEMPT``
    > 0 rejoins with its rank, and the workers run the robust engine), `recovery_timeout`
    (seconds a recovery must take at most), `token` (default: 256 random bits).
    `sortby` is accepted for compatibility: ranks follow the workers' task ids when every
    worker gives one, else their arrival order.
    """

    def __init__(self, host_ip, n_workers, port=0, use_logger=False, sortby="host", *,
                 timeout=120, max_attempts=1, recovery_timeout=60, token=None):
        if sortby not in ("host", "task"):
            raise ValueError(f"sortby: expected 'host' or 'task', got {sortby!r}")
        config = {"n_workers": int(n_workers), "host": get_host_ip(host_ip), "port": int(port),
                  "timeout": timeout, "max_attempts": int(max_attempts),
                  "recovery_timeout": recovery_timeout}
        if token is not None:
            config["token"] = str(token)
        self.handle = ctypes.c_void_p()
        _check_call(_LIB.XGTrackerCreate(_c_str(json.dumps(config)),
                                         ctypes.byref(self.handle)))
        self.n_workers = int(n_workers)
        self._use_logger = use_logger
        self._args = self._worker_args()
        self.host_ip = self._args["dmlc_tracker_uri"]
        self.port = int(self._args["dmlc_tracker_port"])
        self.thread = None
        self._error = None

    def _worker_args(self):
        out = ctypes.c_char_p()
        _check_call(_LIB.XGTrackerWorkerArgs(self.handle, ctypes.byref(out)))
        return json.loads(out.value.decode())

    def worker_envs(self):
        """What each worker passes to ``collective.init(**envs)`` (or sets as its environment):
        the tracker's address, the worker count and the job token (plus the restart limit)."""
        envs = {"DMLC_TRACKER_URI": self.host_ip, "DMLC_TRACKER_PORT": self.port,
                "DMLC_NUM_WORKER": self.n_workers,
                "TREERING_JOB_TOKEN": self._args["rabit_job_token"]}
        if "rabit_max_attempts" in self._args:
            envs["TREERING_MAX_ATTEMPTS"] = self._args["rabit_max_attempts"]
        return envs

    def start(self, n_workers):
        """Serve the job in the background (`n_workers` must be the constructor's)."""
        if int(n_workers) != self.n_workers:
            raise ValueError(f"n_workers: the tracker was created for {self.n_workers} "
                             f"workers, start() got {n_workers}")
        _check_call(_LIB.XGTrackerRun(self.handle, _c_str("{}")))

        def wait():  # ctypes drops the GIL: the program runs on while the job does
            if _LIB.XGTrackerWaitFor(self.handle, _c_str("{}")) != 0:
                self._error = _LIB.XGBGetLastError().decode()

        self.thread = threading.Thread(target=wait, daemon=True, name="treering-tracker")
        self.thread.start()

    def join(self, timeout=None):
        """Wait for every worker to finish; the job's failure raises XGBoostError.
        `timeout` (treering's addition): seconds, then XGBoostError if still running."""
        if self.thread is None:
            raise XGBoostError("RabitTracker.join: the tracker was not started")
        self.thread.join(timeout)
        if self.thread.is_alive():
            raise XGBoostError(f"RabitTracker.join: the job did not end within {timeout} s")
        if self._error is not None:
            raise XGBoostError(self._error)

    def join_quietly(self, timeout):
        """Wait up to `timeout` s for the job to end, raising nothing (treering's)."""
        if self.thread is not None:
            self.thread.join(timeout)

    def failure(self):
        """treering's addition: why the job failed (the tracker's message), or None."""
        return self._error

    def alive(self):
        """Whether the job is still running."""
        return self.thread is not None and self.thread.is_alive()

    def stop(self):
        """End the job now (its workers are aborted) and release the tracker."""
        if self.handle is not None and self.handle.value:
            _LIB.XGTrackerFree(self.handle)
            self.handle = ctypes.c_void_p()
        if self.thread is not None:
            self.thread.join(10)

    def __del__(self):
        try:
            self.stop()
        except Exception:  # pylint: disable=broad-except
            pass


__all__ = ["RabitTracker", "get_host_ip"]
