"""plot_importance, plot_tree, to_graphviz with XGBoost 1.7's signatures and output.

matplotlib and graphviz are optional: each function imports its drawing library first and
raises 1.7's ImportError without it. The drawing calls (the bars, labels and limits on the
axes; the graphviz source) are 1.7's, checked against XGBoost with stand-in modules since
neither library is on treering's build machines.
"""
import re
from io import BytesIO

import numpy as np

# The library writes the plain "dot" dump; XGBoost's "dot:{params}" variants (colours, graph
# and node attributes) are made here from it (treering's C API has only the plain form).
_DEFAULT_YES = "#0000FF"
_DEFAULT_NO = "#FF0000"
_NODE = re.compile(r'^(\s*\d+ \[ label="[^"]*") \]$')
_EDGE = re.compile(r'^(\s*\d+ -> \d+ \[label="[^"]*?(, missing)?" color=")[^"]*("\])$')


def _importance(booster, importance_type, fmap):
    if hasattr(booster, "get_booster"):  # a scikit-learn estimator
        return booster.get_booster().get_score(importance_type=importance_type, fmap=fmap)
    if hasattr(booster, "get_score"):
        return booster.get_score(importance_type=importance_type, fmap=fmap)
    if isinstance(booster, dict):
        return booster
    raise ValueError("tree must be Booster, XGBModel or dict instance")


def plot_importance(booster, ax=None, height=0.2, xlim=None, ylim=None,
                    title="Feature importance", xlabel="F score", ylabel="Features", fmap="",
                    importance_type="weight", max_num_features=None, grid=True,
                    show_values=True, **kwargs):
    """Horizontal bars of the features' importance, smallest at the bottom."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise ImportError("You must install matplotlib to plot importance") from err
    importance = _importance(booster, importance_type, fmap)
    if not importance:
        raise ValueError("Booster.get_score() results in empty.  This maybe caused by having "
                         "all trees as decision dumps.")
    ranked = sorted(importance.items(), key=lambda kv: kv[1])
    if max_num_features is not None:
        ranked = ranked[-max_num_features:]
    labels, values = zip(*ranked)
    if ax is None:
        _, ax = plt.subplots(1, 1)
    ylocs = np.arange(len(values))
    ax.barh(ylocs, values, align="center", height=height, **kwargs)
    if show_values is True:
        for value, yloc in zip(values, ylocs):
            ax.text(value + 1, yloc, value, va="center")
    ax.set_yticks(ylocs)
    ax.set_yticklabels(labels)
    for name, lim, default in (("xlim", xlim, (0, max(values) * 1.1)),
                               ("ylim", ylim, (-1, len(values)))):
        if lim is not None and (not isinstance(lim, tuple) or len(lim) != 2):
            raise ValueError(f"{name} must be a tuple of 2 elements")
        getattr(ax, f"set_{name}")(lim if lim is not None else default)
    for setter, text in ((ax.set_title, title), (ax.set_xlabel, xlabel),
                         (ax.set_ylabel, ylabel)):
        if text is not None:
            setter(text)
    ax.grid(grid)
    return ax


def _attrs(params):
    # XGBoost's C++ keeps these in a std::map: written sorted by key, values quoted.
    return "".join(f' {k}="{params[k]}"' for k in sorted(params))


def _styled_dot(dot, graph_attrs, yes_color, no_color, condition_params, leaf_params):
    """XGBoost's parameterised dot dump, from the plain one."""
    out = []
    for line in dot.split("\n"):
        node, edge = _NODE.match(line), _EDGE.match(line)
        if node and (condition_params or leaf_params):
            is_leaf = '[ label="leaf=' in line
            line = node.group(1) + _attrs(leaf_params if is_leaf else condition_params) + " ]"
        elif edge:
            # as XGBoost: yes_color marks the branch missing values take, whatever its side
            colour = yes_color if edge.group(2) else no_color
            line = edge.group(1) + colour + edge.group(3)
        out.append(line)
        if line.strip().startswith("graph [ rankdir=TB ]"):
            out.extend(f'    graph [ {k}="{graph_attrs[k]}" ]' for k in sorted(graph_attrs))
    return "\n".join(out)


def to_graphviz(booster, fmap="", num_trees=0, rankdir=None, yes_color=None, no_color=None,
                condition_node_params=None, leaf_node_params=None, **kwargs):
    """Tree `num_trees` as a graphviz Source; extra keywords become graph attributes."""
    try:
        from graphviz import Source
    except ImportError as err:
        raise ImportError("You must install graphviz to plot tree") from err
    if hasattr(booster, "get_booster"):
        booster = booster.get_booster()
    graph_attrs = {}
    extra = list(kwargs.items())
    if rankdir is not None:
        graph_attrs["rankdir"] = rankdir
    elif extra:
        extra = extra[1:]  # as 1.7: without rankdir its first extra keyword is dropped
    graph_attrs.update(extra)
    dot = booster.get_dump(fmap=fmap, dump_format="dot")[num_trees]
    styled = (graph_attrs or yes_color is not None or no_color is not None
              or condition_node_params or leaf_node_params)
    if styled:
        dot = _styled_dot(dot, graph_attrs, yes_color or _DEFAULT_YES, no_color or _DEFAULT_NO,
                          condition_node_params or {}, leaf_node_params or {})
    return Source(dot)


def plot_tree(booster, fmap="", num_trees=0, rankdir=None, ax=None, **kwargs):
    """Tree `num_trees` drawn by graphviz onto matplotlib axes."""
    try:
        from matplotlib import image
        from matplotlib import pyplot as plt
    except ImportError as err:
        raise ImportError("You must install matplotlib to plot tree") from err
    if ax is None:
        _, ax = plt.subplots(1, 1)
    graph = to_graphviz(booster, fmap=fmap, num_trees=num_trees, rankdir=rankdir, **kwargs)
    png = BytesIO(graph.pipe(format="png"))
    ax.imshow(image.imread(png))
    ax.axis("off")
    return ax
