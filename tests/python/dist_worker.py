"""A worker process for dist_collective_test.py: joins the tracker whose arguments are in
$TREERING_TEST_WORKER_ARGS (JSON; the job token never goes on the command line).

dist_worker.py collective TASK_ID OUT_PREFIX     collectives, written to OUT_PREFIX<rank>
dist_worker.py train TASK_ID TRAIN TEST MODEL ROUNDS key=value...
    trains on this rank's shard of the LibSVM files (the CLI's byte rule), rank 0 saves.
"""
import json
import os
import sys

import numpy as np


def shard_rows(path, part, nparts):
    """This part's lines: those starting in bytes [part*total/n, (part+1)*total/n)."""
    with open(path, "rb") as f:
        raw = f.read()
    lo, hi = part * len(raw) // nparts, (part + 1) * len(raw) // nparts
    rows, offset = [], 0
    for line in raw.split(b"\n"):
        if lo <= offset < hi and line.strip():
            rows.append(line.decode())
        offset += len(line) + 1
    return rows


def parse_libsvm(rows, n_features):
    x = np.full((len(rows), n_features), np.nan, dtype=np.float32)
    y = np.zeros(len(rows), dtype=np.float32)
    for i, row in enumerate(rows):
        items = row.split()
        y[i] = float(items[0])
        for item in items[1:]:
            j, v = item.split(":")
            x[i, int(j)] = np.float32(float(v))
    return x, y


def collectives(out_path):
    from treering import collective, rabit
    rank, world = collective.get_rank(), collective.get_world_size()
    ints = np.array([rank + 1, 10 * rank, -rank], dtype=np.int32)
    floats = np.array([0.5 * rank, -1.25 * rank], dtype=np.float64)
    bits = np.array([1 << rank, 0xF0 | rank], dtype=np.uint8)
    result = {
        "rank": rank, "world": world, "distributed": collective.is_distributed(),
        "sum": collective.allreduce(ints, collective.Op.SUM).tolist(),
        "max": collective.allreduce(floats, collective.Op.MAX).tolist(),
        "min": collective.allreduce(floats, collective.Op.MIN).tolist(),
        "or": collective.allreduce(bits, collective.Op.BITWISE_OR).tolist(),
        "and": collective.allreduce(bits, collective.Op.BITWISE_AND).tolist(),
        "xor": collective.allreduce(bits, collective.Op.BITWISE_XOR).tolist(),
        "rabit_or": rabit.allreduce(bits, rabit.Op.OR).tolist(),
        "shape": list(collective.allreduce(np.ones((2, 3), np.float32),
                                           collective.Op.SUM).shape),
        "bcast": collective.broadcast({"from": rank, "list": [1, 2, 3]}
                                      if rank == world - 1 else None, world - 1),
        "host": collective.get_processor_name(),
    }
    collective.communicator_print(f"rank {rank} says hello")
    with open(out_path, "w") as f:
        json.dump(result, f)


def train(argv):
    import treering as xgb
    from treering import collective
    train_path, test_path, model_path, rounds = argv[:4]
    # A list of pairs: eval_metric may repeat, as XGBoost takes it.
    params = [tuple(kv.split("=", 1)) for kv in argv[4:]]
    n_features = int(dict(params).pop("n_features"))
    # treering-submit appends DMLC_NUM_ATTEMPT=k to a restarted worker's arguments (as
    # dmlc-submit does): the collective's, not a booster parameter.
    params = [kv for kv in params if kv[0] != "n_features" and not kv[0].startswith("DMLC_")]
    rank, world = collective.get_rank(), collective.get_world_size()
    x, y = parse_libsvm(shard_rows(train_path, rank, world), n_features)
    tx, ty = parse_libsvm(shard_rows(test_path, rank, world), n_features)
    dtrain, dtest = xgb.DMatrix(x, y), xgb.DMatrix(tx, ty)
    history = {}
    callbacks = []
    if os.environ.get("TREERING_TEST_KILL"):  # "rank,round": SIGKILL there, first attempt only
        callbacks.append(KillOnce(*map(int, os.environ["TREERING_TEST_KILL"].split(","))))
    bst = xgb.train(params, dtrain, int(rounds), evals=[(dtest, "test")],
                    evals_result=history, callbacks=callbacks)
    if rank == 0:
        # The CLI's model has no best_iteration / best_ntree_limit (train() adds them).
        bst.set_attr(best_iteration=None, best_ntree_limit=None)
        bst.save_model(model_path)
        with open(model_path + ".history", "w") as f:
            json.dump(history, f)


def KillOnce(rank, epoch):  # pylint: disable=invalid-name
    """A callback killing this worker after round `epoch` if it is `rank`'s first attempt."""
    import signal
    import treering as xgb
    from treering import collective

    class _Kill(xgb.callback.TrainingCallback):
        def after_iteration(self, model, current, evals_log):
            if current == epoch and collective.get_rank() == rank and \
                    os.environ.get("DMLC_NUM_ATTEMPT", "0") == "0":
                os.kill(os.getpid(), signal.SIGKILL)
            return False
    return _Kill()


def main():
    """The tracker's arguments from $TREERING_TEST_WORKER_ARGS with TASK_ID, or (TASK_ID
    "env") the environment treering-submit sets, or (TASK_ID "mpi") mpirun's world."""
    from treering import collective
    mode, task = sys.argv[1], sys.argv[2]
    if task == "env":
        args = {}
    elif task == "mpi":
        args = {"xgboost_communicator": "mpi"}
    else:
        args = dict(json.loads(os.environ["TREERING_TEST_WORKER_ARGS"]), DMLC_TASK_ID=task)
    with collective.CommunicatorContext(**args):
        if mode == "collective":
            collectives(sys.argv[3] + str(collective.get_rank()))
        else:
            train(sys.argv[3:])


if __name__ == "__main__":
    main()
