"""Booster.trees_to_dataframe and get_split_value_histogram, read from the text dump.

Both parse `get_dump` text as XGBoost 1.7 does, so the frame has its columns, value types
and node order (sorted by tree, then node id).
"""
import json
import re
import warnings

import numpy as np

_LEAF = re.compile(r"^\s*(\d+):leaf=([^,]+),cover=(\S+)")
_SPLIT = re.compile(r"^\s*(\d+):\[(.*)\] yes=(\d+),no=(\d+),missing=(\d+),gain=([^,]+),"
                    r"cover=(\S+)")


def _pandas():
    try:
        import pandas as pd
    except ImportError as err:
        raise ImportError("pandas must be available to use this method."
                          "Install pandas before calling again.") from err
    return pd


def _parse_condition(cond):
    """(feature, split value, categories) of a split's bracketed condition."""
    if "<" in cond:
        name, value = cond.split("<", 1)
        return name, float(value), None
    if ":{" in cond:
        name, cats = cond.split(":", 1)
        return name, float("nan"), cats[1:-1].split(",")
    raise ValueError("Failed to parse model text dump.")


def _node_rows(tree_id, dump):
    nan = float("nan")
    for line in dump.split("\n"):
        if not line.strip():
            continue
        leaf = _LEAF.match(line)
        if leaf:
            node = int(leaf.group(1))
            yield (tree_id, node, "Leaf", nan, nan, nan, nan, float(leaf.group(2)),
                   float(leaf.group(3)), nan)
            continue
        split = _SPLIT.match(line)
        if not split:
            raise ValueError("Failed to parse model text dump.")
        name, value, cats = _parse_condition(split.group(2))
        prefix = f"{tree_id}-"
        yield (tree_id, int(split.group(1)), name, value, prefix + split.group(3),
               prefix + split.group(4), prefix + split.group(5), float(split.group(6)),
               float(split.group(7)), cats)


def trees_to_dataframe(booster, fmap=""):
    """One row per node: Tree, Node, ID, Feature, Split, Yes, No, Missing, Gain, Cover,
    Category (a leaf's Gain is its value, as in XGBoost)."""
    pd = _pandas()
    name = json.loads(booster.save_config())["learner"]["gradient_booster"]["name"]
    if name not in {"gbtree", "dart"}:
        raise ValueError(f"This method is not defined for Booster type {name}")
    rows = [row for i, tree in enumerate(booster.get_dump(fmap, with_stats=True))
            for row in _node_rows(i, tree)]
    columns = ["Tree", "Node", "Feature", "Split", "Yes", "No", "Missing", "Gain", "Cover",
               "Category"]
    cols = {c: [r[k] for r in rows] for k, c in enumerate(columns)}
    cols["ID"] = [f"{t}-{n}" for t, n in zip(cols["Tree"], cols["Node"])]
    order = ["Tree", "Node", "ID", "Feature", "Split", "Yes", "No", "Missing", "Gain",
             "Cover", "Category"]
    frame = pd.DataFrame({c: cols[c] for c in order})
    return frame.sort_values(["Tree", "Node"]).reset_index(drop=True)


def split_value_histogram(booster, feature, fmap="", bins=None, as_pandas=True):
    """[[upper bin edge, count], ...] of the thresholds `feature` is split at (empty bins
    dropped); bins = the number of distinct thresholds unless `bins` is smaller."""
    pattern = re.compile(r"\[{0}<([\d.Ee+-]+)\]".format(feature))  # 1.7: name not escaped
    values = [float(v) for tree in booster.get_dump(fmap=fmap) for v in pattern.findall(tree)]
    n_unique = len(np.unique(values))
    bins = max(min(n_unique, bins) if bins is not None else n_unique, 1)
    counts, edges = np.histogram(values, bins=bins)
    stacked = np.column_stack((edges[1:], counts))
    stacked = stacked[stacked[:, 1] > 0]
    if stacked.size == 0:
        names = booster.feature_names or [f"f{i}" for i in range(booster.num_features())]
        types = booster.feature_types
        if feature in names and types is not None and types[names.index(feature)] == "c":
            raise ValueError("Split value historgam doesn't support categorical split.")
    if as_pandas:
        try:
            import pandas as pd
        except ImportError:
            warnings.warn("Returning histogram as ndarray (as_pandas == True, but pandas is "
                          "not installed).", UserWarning)
            return stacked
        return pd.DataFrame(stacked, columns=["SplitValue", "Count"])
    return stacked
