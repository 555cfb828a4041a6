#!/usr/bin/python3
"""The library-wide calls of libtreering.so against Debian's libxgboost.so.0 (XGBoost 1.7.4),
loaded side by side with ctypes: version, build info keys, the global configuration (defaults,
values as numbers and strings, refusals, per-thread scope) and a world-of-one communicator.

usage: library_peer_test.py <build dir>     exit 77 when the peer is missing"""
import ctypes
import json
import os
import sys
import threading

PEER = "/usr/lib/x86_64-linux-gnu/libxgboost.so.0"


def load(path):
    lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
    lib.XGBGetLastError.restype = ctypes.c_char_p
    return lib


def get_config(lib):
    out = ctypes.c_char_p()
    assert lib.XGBGetGlobalConfig(ctypes.byref(out)) == 0, lib.XGBGetLastError()
    return json.loads(out.value)


def main():
    build = sys.argv[1]
    if not os.path.exists(PEER):
        print(f"peer {PEER} missing (apt-get install libxgboost0)")
        return 77
    ours = load(os.path.join(build, "lib", "libtreering.so"))
    peer = load(PEER)
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    versions = []
    for lib in (ours, peer):
        v = [ctypes.c_int(), ctypes.c_int(), ctypes.c_int()]
        lib.XGBoostVersion(*[ctypes.byref(x) for x in v])
        versions.append([x.value for x in v])
    check(versions[0] == versions[1], f"XGBoostVersion {versions[0]} == peer {versions[1]}")

    infos = []
    for lib in (ours, peer):
        out = ctypes.c_char_p()
        assert lib.XGBuildInfo(ctypes.byref(out)) == 0
        infos.append(json.loads(out.value))
    prefetch = {"BUILTIN_PREFETCH_PRESENT", "MM_PREFETCH_PRESENT"}  # documented as absent
    missing = set(infos[1]) - set(infos[0]) - prefetch
    check(not missing, f"XGBuildInfo has the peer's keys (missing: {sorted(missing)})")
    for key in ("USE_OPENMP", "USE_CUDA", "USE_NCCL", "USE_FEDERATED"):
        if key in infos[1]:
            check(infos[0].get(key) == infos[1][key], f"XGBuildInfo {key} as the peer's")

    check(get_config(ours) == get_config(peer), f"default config {get_config(peer)}")
    for config in ('{"verbosity": 2}', '{"verbosity": "3"}', '{"use_rmm": true}',
                   '{"use_rmm": false, "verbosity": 0}', '{"verbosity": 1}'):
        rc = [lib.XGBSetGlobalConfig(config.encode()) for lib in (ours, peer)]
        check(rc[0] == rc[1] == 0, f"set {config}: {rc}")
        check(get_config(ours) == get_config(peer), f"after {config}: {get_config(ours)}")
    # Both refuse; treering then leaves the configuration as it was, where XGBoost 1.7 keeps
    # what it parsed before failing (verbosity 4, or the known keys next to an unknown one):
    # a documented difference (docs/c-api.md, "Library").
    before = get_config(ours)
    for config in ('{"verbosity": 4}', '{"verbosity": 0, "nthread": 2}', '{"verbosity": -1}',
                   '[1]'):
        rc = [lib.XGBSetGlobalConfig(config.encode()) for lib in (ours, peer)]
        check(rc[0] == rc[1] == -1, f"set {config} refused by both: {rc} "
              f"({ours.XGBGetLastError().decode()!r})")
        check(get_config(ours) == before, f"ours unchanged after {config} "
              f"(peer now {get_config(peer)})")
    for lib in (ours, peer):
        assert lib.XGBSetGlobalConfig(b'{"verbosity": 1}') == 0

    # Per thread in both: a thread sets verbosity 3, the main thread still sees its own value.
    seen = {}

    def worker(name, lib):
        lib.XGBSetGlobalConfig(b'{"verbosity": 3}')
        seen[name] = get_config(lib)["verbosity"]

    for name, lib in (("ours", ours), ("peer", peer)):
        t = threading.Thread(target=worker, args=(name, lib))
        t.start()
        t.join()
    check(seen == {"ours": 3, "peer": 3}, f"thread's own value {seen}")
    check(get_config(ours) == get_config(peer) == {"use_rmm": False, "verbosity": 1},
          "the main thread keeps its configuration")

    for name, lib in (("ours", ours), ("peer", peer)):
        assert lib.XGCommunicatorInit(b"{}") == 0, lib.XGBGetLastError()
    check([ours.XGCommunicatorGetRank(), ours.XGCommunicatorGetWorldSize(),
           ours.XGCommunicatorIsDistributed()] ==
          [peer.XGCommunicatorGetRank(), peer.XGCommunicatorGetWorldSize(),
           peer.XGCommunicatorIsDistributed()], "world of one: rank, size, distributed")
    for data_type, ctype in ((2, ctypes.c_int32), (6, ctypes.c_float), (7, ctypes.c_double)):
        for op in (0, 1, 2):
            results = []
            for lib in (ours, peer):
                buf = (ctype * 3)(3, -1, 7)
                rc = lib.XGCommunicatorAllreduce(buf, 3, data_type, op)
                results.append((rc, list(buf)))
            check(results[0] == results[1], f"allreduce type {data_type} op {op}: {results[0]}")
    for lib in (ours, peer):
        assert lib.XGCommunicatorFinalize() == 0
    # XGBoost 1.7's own worker (the peer's rabit, dmlc protocol) joins treering's in-process
    # tracker when it is created with "legacy": true; its print reaches our log callback.
    lines = []
    callback = ctypes.CFUNCTYPE(None, ctypes.c_char_p)(lambda line: lines.append(line.decode()))
    assert ours.XGBRegisterLogCallback(callback) == 0
    tracker = ctypes.c_void_p()
    rc = ours.XGTrackerCreate(b'{"n_workers": 1, "host": "127.0.0.1", "legacy": true, '
                              b'"timeout": 30}', ctypes.byref(tracker))
    check(rc == 0, "XGTrackerCreate legacy" + ("" if rc == 0 else f": {ours.XGBGetLastError()}"))
    args = ctypes.c_char_p()
    assert ours.XGTrackerWorkerArgs(tracker, ctypes.byref(args)) == 0
    args = json.loads(args.value)
    assert ours.XGTrackerRun(tracker, None) == 0
    # As XGBoost 1.7's Python passes its tracker's worker environment: upper case, numbers.
    env = {"DMLC_TRACKER_URI": args["dmlc_tracker_uri"], "DMLC_TRACKER_PORT":
           args["dmlc_tracker_port"], "DMLC_NUM_WORKER": 1, "DMLC_TASK_ID": "0"}
    rc = peer.XGCommunicatorInit(json.dumps(env).encode())
    check(rc == 0, "libxgboost worker joins" + ("" if rc == 0 else f": {peer.XGBGetLastError()}"))
    buf = (ctypes.c_double * 2)(1.5, 2)
    check(peer.XGCommunicatorAllreduce(buf, 2, 7, 2) == 0 and list(buf) == [1.5, 2.0],
          "libxgboost worker allreduce under treering's tracker")
    peer.XGCommunicatorPrint(b"hello from xgboost")
    check(peer.XGCommunicatorFinalize() == 0, "libxgboost worker finalizes")
    rc = ours.XGTrackerWaitFor(tracker, b'{"timeout": 30}')
    check(rc == 0, "XGTrackerWaitFor" + ("" if rc == 0 else f": {ours.XGBGetLastError()}"))
    assert ours.XGTrackerFree(tracker) == 0
    assert ours.XGBRegisterLogCallback(None) == 0
    check("hello from xgboost" in lines, f"the worker's print reached the callback: {lines}")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
