"""plot_importance, plot_tree, to_graphviz with XGBoost 1.7's signatures.

matplotlib and graphviz are not on treering's build machines, so only what can be tested
there is here: each function first imports its drawing library, as 1.7 does, and raises
1.7's ImportError without it. With the library present, the drawing itself is not
implemented yet (NotImplementedError), rather than shipped untested.
"""


def _require(module, message):
    try:
        __import__(module)
    except ImportError as err:
        raise ImportError(message) from err


def _not_yet(name):
    raise NotImplementedError(f"treering.{name}: drawing is not implemented yet (it was "
                              "written where matplotlib/graphviz were unavailable to test it)")


def plot_importance(booster, ax=None, height=0.2, xlim=None, ylim=None,
                    title="Feature importance", xlabel="F score", ylabel="Features", fmap="",
                    importance_type="weight", max_num_features=None, grid=True,
                    show_values=True, **kwargs):
    """Bar chart of feature importances (needs matplotlib)."""
    _require("matplotlib.pyplot", "You must install matplotlib to plot importance")
    _not_yet("plot_importance")


def to_graphviz(booster, fmap="", num_trees=0, rankdir=None, yes_color=None, no_color=None,
                condition_node_params=None, leaf_node_params=None, **kwargs):
    """One tree as a graphviz Source (needs graphviz)."""
    _require("graphviz", "You must install graphviz to plot tree")
    _not_yet("to_graphviz")


def plot_tree(booster, fmap="", num_trees=0, rankdir=None, ax=None, **kwargs):
    """One tree drawn on matplotlib axes (needs matplotlib and graphviz)."""
    _require("matplotlib.pyplot", "You must install matplotlib to plot tree")
    _not_yet("plot_tree")
