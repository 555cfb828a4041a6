#!/usr/bin/python3
"""User errors: exit code 2, one clear line on stderr naming what is wrong, and no output
file written (not even a partial one)."""
import os

import cli_testlib as t


def expect_user_error(d, args, needles, config_text=None, output=None):
    conf = os.path.join(d, "train.conf")
    with open(conf, "w") as f:
        f.write(config_text or "")
    proc = t.run([t.treering_bin(), conf] + args, cwd=d, check=False)
    assert proc.returncode == 2, "exit %d for %s: %s" % (proc.returncode, args, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, "expected one line, got: %r" % proc.stderr
    for needle in needles:
        assert needle in lines[0], "%r not in %r" % (needle, lines[0])
    if output is not None:
        leftovers = [f for f in os.listdir(d) if f.startswith(output) or ".tmp." in f]
        assert not leftovers, "output written despite the error: %s" % leftovers
    return lines[0]


def data_files(d):
    from interop_test import make_data
    return make_data(d, "binary")


def test_unknown_key_names_line_and_nearest():
    with t.TempDir() as d:
        train, _ = data_files(d)
        expect_user_error(d, [], ["train.conf:3", "max_dept", "did you mean 'max_depth'"],
                          "objective = binary:logistic\ndata = %s\nmax_dept = 3\n" % train,
                          output="0010")
        expect_user_error(d, ["data=" + train, "etaa=0.1"], ["command line", "'etaa'", "'eta'"])


def test_unknown_rabit_key_names_line_and_nearest():
    """rabit_* keys are checked with rabit's own table while the config is read: a typo is a
    user error at its line (it used to be ignored silently), not a rabit::Init failure."""
    with t.TempDir() as d:
        train, _ = data_files(d)
        expect_user_error(d, [], ["train.conf:3", "unknown key 'rabit_timout'",
                                  "(did you mean 'rabit_timeout'?)"],
                          "objective = binary:logistic\ndata = %s\nrabit_timout = 5\n" % train,
                          output="0010")
        expect_user_error(d, ["data=" + train, "rabit_timout=5"],
                          ["command line", "'rabit_timout'", "did you mean 'rabit_timeout'"])
        expect_user_error(d, ["data=" + train, "rabit_timeout=soon"],
                          ["command line", "rabit_timeout", "seconds > 0", "'soon'"])
        line = expect_user_error(d, ["data=" + train, "frobnicate=1"],
                                 ["command line", "unknown key 'frobnicate'"])
        assert "did you mean" not in line, line


def test_learner_errors_point_at_the_line_of_their_key():
    """The learner's error carries the key as written (alias included), so the CLI finds the
    line without searching the message text."""
    with t.TempDir() as d:
        train, _ = data_files(d)
        expect_user_error(d, [], ["train.conf:3", "learning_rate", "'-1'", "[0, inf)"],
                          "data = %s\n# alias of eta\nlearning_rate = -1\n" % train)
        expect_user_error(d, [], ["train.conf:2", "eval_metric", "nope"],
                          "data = %s\neval_metric = nope\n" % train)
        expect_user_error(d, [], ["train.conf:3", "eta", "'0'", "(0, 100]"],
                          "booster = mlp\ndata = %s\neta = 0\nnum_class = 2\n" % train)


def test_bad_values_name_key_and_range():
    with t.TempDir() as d:
        train, _ = data_files(d)
        expect_user_error(d, ["data=" + train, "num_round=-2"], ["num_round", "[0, 100000000]"])
        expect_user_error(d, ["data=" + train, "max_depth=abc"], ["max_depth"])
        expect_user_error(d, ["data=" + train, "eta=-1"], ["command line", "eta", "[0, inf)"])
        expect_user_error(d, [], ["train.conf:3", "max_depth", "'abc'", "[0, 64]"],
                          "data = %s\n# depth\nmax_depth = abc\n" % train)


def test_missing_files_name_the_path():
    with t.TempDir() as d:
        expect_user_error(d, ["data=nope.libsvm", "model_out=m.json"], ["nope.libsvm"],
                          output="m.json")
        proc = t.run([t.treering_bin(), os.path.join(d, "absent.conf")], check=False)
        assert proc.returncode == 2 and "absent.conf" in proc.stderr, proc.stderr
        _, test = data_files(d)
        expect_user_error(d, ["task=pred", "model_in=missing.json", "test:data=" + test,
                              "name_pred=p.txt"], ["missing.json"], output="p.txt")


def test_corrupt_model_json():
    with t.TempDir() as d:
        _, test = data_files(d)
        with open(t.SAMPLE_MODEL) as f:
            text = f.read()
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            f.write(text.replace('"left_children":[1,3,', '"left_children":[1.5,3,', 1))
        line = expect_user_error(d, ["task=pred", "model_in=" + bad, "test:data=" + test,
                                     "name_pred=p.txt"],
                                 ["bad.json", "/learner/gradient_booster/model/trees/0/"
                                  "left_children/0", "expected an integer"], output="p.txt")
        with open(bad, "wb") as f:  # the start of XGBoost's legacy binary format
            f.write(b"binf\x00\x00\x00?" + bytes(100))
        expect_user_error(d, ["task=dump", "model_in=" + bad], ["bad.json", "legacy binary"],
                          output="dump.txt")
        with open(bad, "w") as f:
            f.write(text[: len(text) // 2])
        expect_user_error(d, ["task=dump", "model_in=" + bad, "name_dump=dump.txt"],
                          ["bad.json", "not valid JSON"], output="dump.txt")


def test_bad_data_line_names_file_and_line():
    with t.TempDir() as d:
        path = os.path.join(d, "broken.libsvm")
        with open(path, "w") as f:
            f.write("1 0:1.5 2:3\n0 1:x\n")
        expect_user_error(d, ["data=" + path, "model_out=m.json"], ["broken.libsvm:2"],
                          output="m.json")


def test_bad_feature_map_names_file_and_line():
    with t.TempDir() as d:
        fmap = os.path.join(d, "featmap.txt")
        for text, needles in (("0 a i\n1 b quantity\n", ["featmap.txt:2", "type 'quantity'"]),
                              ("0 a i\n2 b q\n", ["featmap.txt:2", "index '2': expected 1"]),
                              ("0 a\n", ["featmap.txt:1", "`index name type`"])):
            with open(fmap, "w") as f:
                f.write(text)
            expect_user_error(d, ["task=dump", "model_in=" + t.SAMPLE_MODEL, "fmap=" + fmap],
                              needles, output="dump.txt")
        expect_user_error(d, ["task=dump", "model_in=" + t.SAMPLE_MODEL, "fmap=nope.txt"],
                          ["fmap", "nope.txt"], output="dump.txt")


def test_model_dir_that_is_a_file():
    with t.TempDir() as d:
        train, _ = data_files(d)
        open(os.path.join(d, "taken"), "w").close()
        expect_user_error(d, ["data=" + train, "model_dir=taken"], ["model_dir = taken"])


def test_unwritable_output_is_a_runtime_failure():
    """An output directory that exists but takes no file is not the config's fault: exit 1, one
    line. (One that does not exist is a bad name_pred, found before the work starts: exit 2,
    tests/cli/input_checks_test.py.)"""
    with t.TempDir() as d:
        _, test = data_files(d)
        locked = os.path.join(d, "locked")
        os.mkdir(locked, 0o500)
        if os.geteuid() == 0:  # root writes in a 0500 directory; sysfs refuses even root
            locked = "/sys"
        output = os.path.join(locked, "p.txt")
        proc = t.run([t.treering_bin(), "/dev/null", "task=pred", "model_in=" + t.SAMPLE_MODEL,
                      "test:data=" + test, "name_pred=" + output], check=False)
        assert proc.returncode == 1, (proc.returncode, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1 and output in proc.stderr, proc.stderr


if __name__ == "__main__":
    t.main([test_unknown_key_names_line_and_nearest, test_unknown_rabit_key_names_line_and_nearest,
            test_learner_errors_point_at_the_line_of_their_key, test_bad_values_name_key_and_range,
            test_missing_files_name_the_path, test_corrupt_model_json,
            test_bad_data_line_names_file_and_line, test_bad_feature_map_names_file_and_line,
            test_model_dir_that_is_a_file,
            test_unwritable_output_is_a_runtime_failure])
