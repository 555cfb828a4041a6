"""The process's collective (XGBoost 1.7's xgboost.collective) over libtreering's rabit.

A script started by ``treering-submit`` (or given :meth:`RabitTracker.worker_envs`) calls
``init()``; the library reads the ``DMLC_*`` / ``TREERING_*`` environment, and keyword
arguments win over it. ``xgboost_communicator="mpi"`` (or ``$XGBOOST_COMMUNICATOR``) joins an
``mpirun`` job instead. One communicator per process, as in treering's C API.
"""
import ctypes
import json
import logging
import pickle
from enum import IntEnum, unique

import numpy as np

from .core import _LIB, _check_call, _c_str

LOGGER = logging.getLogger("[treering.collective]")


def _jsonable(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    return value


def init(**args):
    """Join the job: ``args`` are communicator keys (``DMLC_*``, ``dmlc_*``, ``rabit_*``,
    ``TREERING_*``, ``xgboost_communicator``) over the process environment."""
    config = json.dumps({k: _jsonable(v) for k, v in args.items()})
    _check_call(_LIB.XGCommunicatorInit(_c_str(config)))


def finalize():
    """Tell the tracker this rank is done and close the links (safe to call twice)."""
    _check_call(_LIB.XGCommunicatorFinalize())


def get_rank():
    """This process's rank (0 outside a job)."""
    return int(_LIB.XGCommunicatorGetRank())


def get_world_size():
    """The number of ranks (1 outside a job)."""
    return int(_LIB.XGCommunicatorGetWorldSize())


def is_distributed():
    """1 inside a tracker (or MPI) job, else 0 (an int, as XGBoost)."""
    return int(_LIB.XGCommunicatorIsDistributed())


def communicator_print(msg):
    """Print `msg` on the tracker's console (this process's stdout outside a job)."""
    msg = msg if isinstance(msg, str) else str(msg)
    if is_distributed():
        _check_call(_LIB.XGCommunicatorPrint(_c_str(msg.strip())))
    else:
        print(msg.strip(), flush=True)


def get_processor_name():
    """This host's name."""
    name = ctypes.c_char_p()
    _check_call(_LIB.XGCommunicatorGetProcessorName(ctypes.byref(name)))
    return name.value.decode()


def _broadcast_bytes(buffer, size, root):
    _check_call(_LIB.XGCommunicatorBroadcast(buffer, ctypes.c_size_t(size), ctypes.c_int(root)))


def broadcast(data, root):
    """Send a picklable object from rank `root` to every rank; every rank returns it."""
    root = int(root)
    if not 0 <= root < get_world_size():
        raise ValueError(f"root: rank {root} is outside [0, {get_world_size()})")
    length = ctypes.c_uint64()
    payload = None
    if get_rank() == root:
        if data is None:
            raise ValueError("data: the root rank must pass an object to broadcast")
        payload = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        length.value = len(payload)
    # Two broadcasts, as XGBoost: the length, then the pickled bytes.
    _broadcast_bytes(ctypes.cast(ctypes.byref(length), ctypes.c_void_p), 8, root)
    buf = ctypes.create_string_buffer(payload, length.value) if payload is not None \
        else ctypes.create_string_buffer(length.value)
    _broadcast_bytes(ctypes.cast(buf, ctypes.c_void_p), length.value, root)
    if payload is not None:
        return data
    return pickle.loads(buf.raw[:length.value])


_DTYPE_ENUM = {np.dtype("int8"): 0, np.dtype("uint8"): 1, np.dtype("int32"): 2,
               np.dtype("uint32"): 3, np.dtype("int64"): 4, np.dtype("uint64"): 5,
               np.dtype("float32"): 6, np.dtype("float64"): 7}


@unique
class Op(IntEnum):
    """Allreduce operations: XGBoost 1.7's MAX/MIN/SUM and XGBoost 2's bitwise ones."""
    MAX = 0
    MIN = 1
    SUM = 2
    BITWISE_AND = 3
    BITWISE_OR = 4
    BITWISE_XOR = 5


def allreduce(data, op):
    """Reduce a numpy array over every rank; returns a new flat array (as XGBoost 1.7)."""
    if not isinstance(data, np.ndarray):
        raise TypeError("allreduce only takes in numpy.ndarray")
    buf = np.array(data, copy=True).ravel()
    if buf.dtype not in _DTYPE_ENUM:
        raise TypeError(f"data: data type {buf.dtype} not supported")
    _check_call(_LIB.XGCommunicatorAllreduce(buf.ctypes.data_as(ctypes.c_void_p),
                                             ctypes.c_size_t(buf.size),
                                             ctypes.c_int(_DTYPE_ENUM[buf.dtype]),
                                             ctypes.c_int(int(Op(op)))))
    return buf


class CommunicatorContext:
    """``with CommunicatorContext(**worker_envs):`` init on entry, finalize on exit."""

    def __init__(self, **args):
        self.args = args

    def __enter__(self):
        init(**self.args)
        # No `assert is_distributed()` as in XGBoost: treering reports a tracker job of one
        # worker as not distributed (XGBoost says it is), and such a job is valid.
        LOGGER.debug("communicator joined: rank %d of %d", get_rank(), get_world_size())
        return self.args

    def __exit__(self, *args):
        finalize()


__all__ = ["init", "finalize", "get_rank", "get_world_size", "is_distributed",
           "communicator_print", "get_processor_name", "broadcast", "Op", "allreduce",
           "CommunicatorContext"]
