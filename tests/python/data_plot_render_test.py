"""plot_importance, plot_tree and to_graphviz with the real matplotlib and graphviz.

data_plot_test.py compares the drawing calls through recording stand-ins; this file draws for
real (matplotlib's Agg backend, graphviz's `dot`) and compares what ends up on the axes and in
the rendered tree with python3-xgboost 1.7.4 drawing the same model.
"""
import shutil

import numpy as np
import pytest

xgb = pytest.importorskip("xgboost", reason="python3-xgboost 1.7 (the peer) is not installed")
matplotlib = pytest.importorskip("matplotlib", reason="python3-matplotlib is not installed")
graphviz = pytest.importorskip("graphviz", reason="python3-graphviz is not installed")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import treering as tr  # noqa: E402


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    """A small binary model trained by xgboost, loaded by both packages (same trees)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 5))
    y = (x[:, 0] + 0.5 * x[:, 1] - x[:, 3] > 0).astype(float)
    path = str(tmp_path_factory.mktemp("plot") / "model.json")
    xgb.train({"max_depth": 3, "objective": "binary:logistic", "tree_method": "hist"},
              xgb.DMatrix(x, label=y, feature_names=["a", "b", "c", "d", "e"]), 4
              ).save_model(path)
    return path


def bars(module, path, **kwargs):
    """(labels, widths, title, xlabel) of plot_importance's horizontal bars."""
    ax = module.plot_importance(module.Booster(model_file=path), **kwargs)
    try:
        labels = [t.get_text() for t in ax.get_yticklabels()]
        widths = [round(p.get_width(), 6) for p in ax.patches]
        texts = sorted(t.get_text() for t in ax.texts)
        return labels, widths, texts, ax.get_title(), ax.get_xlabel()
    finally:
        plt.close(ax.figure)


@pytest.mark.parametrize("kwargs", [{}, {"importance_type": "gain", "max_num_features": 2},
                                    {"importance_type": "cover", "show_values": False}])
def test_plot_importance_draws_xgboosts_bars(model_file, kwargs):
    ours = bars(tr, model_file, **kwargs)
    theirs = bars(xgb, model_file, **kwargs)
    assert ours == theirs
    assert ours[1], "no bars were drawn"


def test_to_graphviz_source_renders_like_xgboost(model_file):
    if shutil.which("dot") is None:
        pytest.skip("graphviz's dot program is not installed")
    for num_trees in (0, 3):
        ours = tr.to_graphviz(tr.Booster(model_file=model_file), num_trees=num_trees)
        theirs = xgb.to_graphviz(xgb.Booster(model_file=model_file), num_trees=num_trees)
        assert ours.source == theirs.source
        # dot accepts it, and the rendered layout (plain text: nodes, edges, positions) agrees.
        assert ours.pipe(format="plain") == theirs.pipe(format="plain")


def test_plot_tree_draws_the_rendered_image(model_file):
    if shutil.which("dot") is None:
        pytest.skip("graphviz's dot program is not installed")
    images = []
    for module in (tr, xgb):
        ax = module.plot_tree(module.Booster(model_file=model_file), num_trees=1)
        images.append(np.asarray(ax.images[0].get_array()))
        plt.close(ax.figure)
    assert images[0].shape == images[1].shape and images[0].size > 0
    np.testing.assert_array_equal(images[0], images[1])
