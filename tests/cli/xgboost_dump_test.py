#!/usr/bin/python3
"""treering task=dump of XGBoost's sample model equals `xgboost task=dump` byte for byte
(text, JSON and dot; with and without stats; with and without a feature map naming some of its
784 features as indicator, integer, float and quantitative), and a map calling a split feature
categorical is refused by both."""
import filecmp
import os
import shutil

import cli_testlib as t

TYPES = ("i", "q", "int", "float")


def write_fmap(path, features=700, categorical=None):
    with open(path, "w") as f:
        for i in range(features):
            kind = "c" if i == categorical else TYPES[i % len(TYPES)]
            f.write("%d\tpixel%d\t%s\n" % (i, i, kind))


def test_dumps_equal_xgboost_cli():
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI is not installed")
    with t.TempDir() as d:
        fmap = os.path.join(d, "featmap.txt")
        write_fmap(fmap)
        for fmt in ("text", "json", "dot"):
            for stats in ("0", "1"):
                for fm in ("NULL", fmap):
                    args = ["task=dump", "model_in=" + t.SAMPLE_MODEL, "dump_format=" + fmt,
                            "dump_stats=" + stats, "fmap=" + fm]
                    ours = os.path.join(d, "ours.%s.%s" % (fmt, stats))
                    theirs = os.path.join(d, "xgb.%s.%s" % (fmt, stats))
                    t.run([t.treering_bin(), "/dev/null", "name_dump=" + ours] + args)
                    t.run(["xgboost", "/dev/null", "name_dump=" + theirs] + args)
                    assert filecmp.cmp(ours, theirs, shallow=False), \
                        "dump_format=%s dump_stats=%s fmap=%s differs from XGBoost's" % (
                            fmt, stats, fm)


def test_categorical_feature_map_refused_by_both():
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI is not installed")
    with t.TempDir() as d:
        fmap = os.path.join(d, "featmap.txt")
        write_fmap(fmap, categorical=89)  # the sample model's first split
        for program in (t.treering_bin(), "xgboost"):
            proc = t.run([program, "/dev/null", "task=dump", "model_in=" + t.SAMPLE_MODEL,
                          "fmap=" + fmap, "name_dump=" + os.path.join(d, "dump.txt")],
                         check=False)
            assert proc.returncode != 0, "%s dumped a numerical split as categorical" % program
            if program != "xgboost":  # ours: one line naming the feature, exit 2
                assert proc.returncode == 2 and "89 'pixel89' is categorical" in proc.stderr, \
                    proc.stderr


if __name__ == "__main__":
    t.main([test_dumps_equal_xgboost_cli, test_categorical_feature_map_refused_by_both])
