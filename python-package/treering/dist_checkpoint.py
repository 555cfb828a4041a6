"""Per-round rabit checkpoints so a restarted distributed worker resumes, byte-identical.

Every rank calls ``XGBoosterLoadRabitCheckpoint`` once before the first round (version 0 on
a fresh job; the survivors' model on a worker restarted with the same task id under the
robust engine) and ``XGBoosterSaveRabitCheckpoint`` after each round. The training loop's
own state (the evaluation history and EarlyStopping's counters) rides in the checkpointed
model as a temporary attribute, so a restarted rank 0 returns the whole history and makes
the same stopping decisions as the survivors; the attribute is dropped after training.
"""
import base64
import ctypes
import pickle

from .callback import EarlyStopping, TrainingCallback
from .core import _LIB, _check_call

_STATE_ATTR = "treering_checkpoint_state"


class RabitCheckpoint(TrainingCallback):
    """Load the job's checkpoint before training, save one after every round."""

    def __init__(self, callbacks):
        self._stateful = [cb for cb in callbacks if isinstance(cb, EarlyStopping)]
        self.version = 0
        self._restored = None

    def before_training(self, model):
        version = ctypes.c_int()
        _check_call(_LIB.XGBoosterLoadRabitCheckpoint(model.handle, ctypes.byref(version)))
        self.version = version.value
        state = model.attr(_STATE_ATTR) if self.version > 0 else None
        if state is not None:
            self._restored = pickle.loads(base64.b64decode(state))
            for cb, saved in zip(self._stateful, self._restored["callbacks"]):
                cb.__dict__.update(saved)
        return model

    def resume_round(self, container):
        """Rounds already in the checkpoint (0 on a fresh job)."""
        if self._restored is not None:
            container.history.clear()
            container.history.update(self._restored["history"])
        return self.version

    def after_iteration(self, model, epoch, evals_log):
        # Runs after every other callback of the round (it is the container's last), so the
        # state saved is the round's final one.
        state = {"history": evals_log, "callbacks": [dict(cb.__dict__) for cb in self._stateful]}
        model.set_attr(**{_STATE_ATTR: base64.b64encode(pickle.dumps(state)).decode()})
        _check_call(_LIB.XGBoosterSaveRabitCheckpoint(model.handle))
        return False

    def after_training(self, model):
        model.set_attr(**{_STATE_ATTR: None})
        return model
