"""plot_importance, plot_tree and to_graphviz against python3-xgboost 1.7.4.

matplotlib and graphviz are not installed here: without them both packages must raise the
same ImportError; with recording stand-ins for them (put in sys.modules), both must make the
same drawing calls and the same graphviz source for the same model.
"""
import importlib.util
import inspect
import os
import sys
import types

import numpy as np
import pytest

xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
import treering as tr  # noqa: E402

NAMES = ("plot_importance", "plot_tree", "to_graphviz")


class Recorder:
    """An Axes / Source stand-in: every method call is logged with its arguments."""

    def __init__(self, log, name):
        self._log, self._name = log, name

    def __getattr__(self, attr):
        def call(*args, **kwargs):
            self._log.append((self._name, attr, _plain(args), _plain(kwargs)))
            return b"png" if attr == "pipe" else None
        return call


def _plain(value):
    """Comparable form of call arguments (numpy arrays as lists, floats rounded)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return round(float(value), 4)
    if isinstance(value, np.integer):
        return int(value)
    return value


@pytest.fixture
def fake_libs(monkeypatch):
    """Stand-in matplotlib.pyplot / matplotlib.image / graphviz recording into one log."""
    log = []
    mpl = types.ModuleType("matplotlib")
    pyplot = types.ModuleType("matplotlib.pyplot")
    pyplot.subplots = lambda *a, **k: (None, Recorder(log, "ax"))
    image = types.ModuleType("matplotlib.image")
    image.imread = lambda buf: ("image", buf.read())
    mpl.pyplot, mpl.image = pyplot, image
    graphviz = types.ModuleType("graphviz")

    class Source(Recorder):
        def __init__(self, source):
            super().__init__(log, "source")
            self.source = source
            log.append(("Source", source))
    graphviz.Source = Source
    for name, module in (("matplotlib", mpl), ("matplotlib.pyplot", pyplot),
                         ("matplotlib.image", image), ("graphviz", graphviz)):
        monkeypatch.setitem(sys.modules, name, module)
    return log


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """One xgboost model (with a categorical split) loaded into both packages."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 4))
    x[:, 3] = rng.integers(0, 4, size=300)
    y = (x[:, 0] + (x[:, 3] == 2) + 0.2 * rng.normal(size=300) > 0.5).astype(float)
    d = xgb.DMatrix(x, label=y, feature_names=["alpha", "beta", "gamma", "kind"],
                    feature_types=["q", "q", "q", "c"], enable_categorical=True)
    booster = xgb.train({"max_depth": 3, "tree_method": "hist", "nthread": 1,
                         "max_cat_to_onehot": 1}, d, 4)
    path = os.path.join(tmp_path_factory.mktemp("plot"), "model.json")
    booster.save_model(path)
    return tr.Booster(model_file=path), xgb.Booster(model_file=path)


def test_import_errors_and_signatures():
    if importlib.util.find_spec("matplotlib") or importlib.util.find_spec("graphviz"):
        pytest.skip("matplotlib/graphviz installed: this checks the messages without them")
    for name in NAMES:
        messages = []
        for m in (tr, xgb):
            with pytest.raises(ImportError) as err:
                getattr(m, name)(m.Booster())
            messages.append(str(err.value))
        assert messages[0] == messages[1], name


def test_signatures():
    for name in NAMES:
        ours = inspect.signature(getattr(tr, name)).parameters.values()
        theirs = inspect.signature(getattr(xgb, name)).parameters.values()
        assert [(p.name, p.kind, p.default) for p in ours] == [
            (p.name, p.kind, p.default) for p in theirs], name


@pytest.mark.parametrize("kwargs", [
    {}, {"importance_type": "gain", "max_num_features": 2, "show_values": False},
    {"xlim": (0, 50), "ylim": (-2, 5), "title": None, "grid": False, "color": "red"}])
def test_plot_importance_calls(fake_libs, models, kwargs):
    logs = []
    for booster, m in zip(models, (tr, xgb)):
        fake_libs.clear()
        m.plot_importance(booster, **kwargs)
        logs.append(list(fake_libs))
    assert logs[0] == logs[1]
    assert any(call[1] == "barh" for call in logs[0])
    for m in (tr, xgb):
        with pytest.raises(ValueError, match="xlim must be a tuple of 2 elements"):
            m.plot_importance({"a": 1.0}, xlim=[0, 1])
        with pytest.raises(ValueError, match="tree must be Booster, XGBModel or dict"):
            m.plot_importance(42)


@pytest.mark.parametrize("kwargs", [
    {}, {"num_trees": 2, "rankdir": "LR"},
    {"rankdir": "LR", "size": "3", "bgcolor": "grey", "yes_color": "#00ff00"},
    {"no_color": "blue", "condition_node_params": {"style": "filled", "shape": "box"},
     "leaf_node_params": {"shape": "ellipse"}},
    {"ranksep": "1", "nodesep": "0.5"}])  # 1.7 drops the first extra keyword here
def test_to_graphviz_source(fake_libs, models, kwargs):
    sources = []
    for booster, m in zip(models, (tr, xgb)):
        fake_libs.clear()
        graph = m.to_graphviz(booster, **kwargs)
        sources.append(graph.source)
    assert sources[0] == sources[1], f"{sources[0]}\n---\n{sources[1]}"
    assert sources[0].startswith("digraph {")


def test_plot_tree_calls(fake_libs, models):
    logs = []
    for booster, m in zip(models, (tr, xgb)):
        fake_libs.clear()
        m.plot_tree(booster, num_trees=1, rankdir="LR")
        logs.append(list(fake_libs))
    assert logs[0] == logs[1]
    assert ("ax", "axis", ["off"], {}) in logs[0]
