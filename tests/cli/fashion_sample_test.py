#!/usr/bin/python3
"""treering predicts the Fashion-MNIST test set with XGBoost's sample model (3 rounds x 10
classes) exactly as python3-xgboost 1.7 does: classes equal, margins within 1e-5."""
import importlib.util
import os

import cli_testlib as t

FASHION_SRC = "/usr/share/datasets/fashion-mnist"


def write_fashion_test(out_dir):
    """Only the 10000-row test split, with the demo's converter (same bytes as bench/data)."""
    spec = importlib.util.spec_from_file_location(
        "fashion", os.path.join(t.REPO, "demo", "fashion_mnist_to_libsvm.py"))
    fashion = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fashion)
    images = fashion.read_idx(os.path.join(FASHION_SRC, "t10k-images-idx3-ubyte.gz"))
    labels = fashion.read_idx(os.path.join(FASHION_SRC, "t10k-labels-idx1-ubyte.gz"))
    path = os.path.join(out_dir, "fashion.test.libsvm")
    fashion.write_libsvm(path, images, labels)
    return path


def test_sample_model_predictions_equal_xgboost():
    t.need_xgboost_python()
    if not os.path.exists(os.path.join(FASHION_SRC, "t10k-images-idx3-ubyte.gz")):
        t.skip("dataset-fashion-mnist is not installed")
    import numpy as np
    import xgboost as xgb
    with t.TempDir() as d:
        data = write_fashion_test(d)
        booster = xgb.Booster(model_file=t.SAMPLE_MODEL)
        dm = xgb.DMatrix(data + "?format=libsvm")
        for margin in ("0", "1"):
            out = os.path.join(d, "pred.%s.txt" % margin)
            t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + t.SAMPLE_MODEL,
                   "test:data=" + data, "name_pred=" + out, "pred_margin=" + margin])
            ours = np.array(t.read_values(out))
            theirs = booster.predict(dm, output_margin=(margin == "1")).reshape(-1)
            assert ours.shape == theirs.shape, (ours.shape, theirs.shape)
            diff = np.abs(ours - theirs).max()
            assert diff <= 1e-5, "pred_margin=%s: max abs diff %g" % (margin, diff)
            print("pred_margin=%s: %d values, max abs diff %g" % (margin, len(ours), diff))


if __name__ == "__main__":
    t.main([test_sample_model_predictions_equal_xgboost])
