"""XGBoost 1.7's deprecated ``xgboost.rabit`` names, forwarding to :mod:`treering.collective`."""
import logging
import warnings
from enum import IntEnum, unique

from . import collective

LOGGER = logging.getLogger("[treering.rabit]")


def _deprecation_warning():
    return ("The treering.rabit submodule is deprecated (as xgboost.rabit in 1.7); "
            "use treering.collective instead.")


def init(args=None):
    """Join the job; `args` are ``b"key=value"`` items (1.7's rabit form)."""
    warnings.warn(_deprecation_warning(), FutureWarning)
    parsed = {}
    for arg in args or []:
        key, sep, value = (arg.decode() if isinstance(arg, bytes) else str(arg)).partition("=")
        if sep:
            parsed[key] = value
    collective.init(**parsed)


def finalize():
    collective.finalize()
    return collective.is_distributed()


get_rank = collective.get_rank
get_world_size = collective.get_world_size
is_distributed = collective.is_distributed


def tracker_print(msg):
    collective.communicator_print(msg)


def get_processor_name():
    """The host name as bytes (1.7's rabit returned bytes)."""
    return collective.get_processor_name().encode()


def broadcast(data, root):
    return collective.broadcast(data, root)


@unique
class Op(IntEnum):
    """1.7's rabit operations; OR is the bitwise or."""
    MAX = 0
    MIN = 1
    SUM = 2
    OR = 3


_TO_COLLECTIVE = {Op.MAX: collective.Op.MAX, Op.MIN: collective.Op.MIN,
                  Op.SUM: collective.Op.SUM, Op.OR: collective.Op.BITWISE_OR}


def allreduce(data, op, prepare_fun=None):
    if prepare_fun is not None:
        raise ValueError("prepare_fun: preprocessing functions are no longer supported")
    return collective.allreduce(data, _TO_COLLECTIVE[Op(op)])


def version_number():
    """Checkpoint versions stored (0, as XGBoost 1.7's rabit module reports)."""
    return 0


class RabitContext:
    """``with RabitContext([b"DMLC_TASK_ID=0", ...]):`` init on entry, finalize on exit."""

    def __init__(self, args=None):
        self.args = [] if args is None else args

    def __enter__(self):
        init(self.args)
        LOGGER.warning(_deprecation_warning())

    def __exit__(self, *args):
        finalize()


__all__ = ["init", "finalize", "get_rank", "get_world_size", "is_distributed",
           "tracker_print", "get_processor_name", "broadcast", "Op", "allreduce",
           "version_number", "RabitContext"]
