#!/usr/bin/python3
"""treering task=dump of XGBoost's sample model equals `xgboost task=dump` byte for byte
(text and JSON, with and without stats)."""
import filecmp
import os
import shutil

import cli_testlib as t


def test_dumps_equal_xgboost_cli():
    if shutil.which("xgboost") is None:
        t.skip("the xgboost CLI is not installed")
    with t.TempDir() as d:
        for fmt in ("text", "json"):
            for stats in ("0", "1"):
                args = ["task=dump", "model_in=" + t.SAMPLE_MODEL, "dump_format=" + fmt,
                        "dump_stats=" + stats]
                ours = os.path.join(d, "ours.%s.%s" % (fmt, stats))
                theirs = os.path.join(d, "xgb.%s.%s" % (fmt, stats))
                t.run([t.treering_bin(), "/dev/null", "name_dump=" + ours] + args)
                t.run(["xgboost", "/dev/null", "name_dump=" + theirs] + args)
                assert filecmp.cmp(ours, theirs, shallow=False), \
                    "dump_format=%s dump_stats=%s differs from XGBoost's" % (fmt, stats)


if __name__ == "__main__":
    t.main([test_dumps_equal_xgboost_cli])
