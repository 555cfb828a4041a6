#!/usr/bin/python3
"""How many split conditions of a model are cut points of treering's sketch.

usage: split_cut_overlap.py MODEL CUTS
  MODEL  an XGBoost 1.7 model (any format python3-xgboost loads; treering writes them too)
  CUTS   "feature cut" lines from `treering-setup-bench TRAIN 256 2 1 CUTS`
Every split of a treering model is one of its cuts (100 %, the check that the method works);
the share for an XGBoost model on the same data says how far XGBoost's sketch picked other
cut points (issue 19: the test AUC gap at 10M rows).
"""
import collections
import json
import os
import sys
import tempfile

import numpy as np
import xgboost as xgb


def main(model_path, cuts_path):
    cuts = collections.defaultdict(set)
    with open(cuts_path) as f:
        for line in f:
            feature, value = line.split()
            cuts[int(feature)].add(np.float32(float(value)))
    booster = xgb.Booster(model_file=model_path)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.json")
        booster.save_model(path)
        with open(path) as f:
            model = json.load(f)
    total = hit = 0
    for tree in model["learner"]["gradient_booster"]["model"]["trees"]:
        for left, feature, cond in zip(tree["left_children"], tree["split_indices"],
                                       tree["split_conditions"]):
            if left == -1:  # a leaf
                continue
            total += 1
            hit += np.float32(cond) in cuts[feature]
    print(f"{hit}/{total} split conditions are treering cuts ({hit / max(total, 1):.1%})")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
