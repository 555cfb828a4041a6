#!/usr/bin/python3
"""The `treering` CLI on damaged UBJSON and legacy binary model files (truncated, corrupt,
wrong shape): task=pred and task=dump exit 2 with one stderr line naming the file, and write
no output file. The models are written by treering itself, so no peer is needed.
argv[1]: the build's bin directory."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import cli_testlib as t  # noqa: E402

# Offsets in the binary file of a binary:logistic model (legacy_binary_layout.h).
GBTREE_PARAM = 4 + 136 + 8 + len("binary:logistic") + 8 + len("gbtree")
TREE0_NODES = GBTREE_PARAM + 160 + 148


def write_data(path):
    with open(path, "w") as f:
        for i in range(200):
            a, b = (i * 37 % 101) / 50.0 - 1, (i * 53 % 97) / 48.0 - 1
            f.write("%d 0:%g 1:%g\n" % (int(a + 0.5 * b > 0), a, b))


def train(d, data, model):
    t.run([t.treering_bin(), "/dev/null", "data=" + data, "objective=binary:logistic",
           "num_round=3", "max_depth=3", "nthread=1", "model_out=" + model], cwd=d)
    with open(model, "rb") as f:
        return f.read()


def expect_one_line_exit_2(d, model, data, expected):
    for task in (["task=pred", "test:data=" + data, "name_pred=p.txt"],
                 ["task=dump", "name_dump=dump.txt"]):
        proc = t.run([t.treering_bin(), "/dev/null", "model_in=" + model] + task, cwd=d,
                     check=False)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2, (task, proc.returncode, proc.stderr)
        assert len(lines) == 1 and os.path.basename(model) in lines[0], proc.stderr
        assert expected in lines[0], (expected, lines[0])
        for out in ("p.txt", "dump.txt"):
            assert not os.path.exists(os.path.join(d, out)), out + " was written"


def damaged(d, name, data):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_damaged_binary_models():
    with t.TempDir() as d:
        data = os.path.join(d, "train.libsvm")
        write_data(data)
        good = train(d, data, os.path.join(d, "good.model"))
        assert good[:4] == b"binf", good[:16]
        expect_one_line_exit_2(d, damaged(d, "trunc.model", good[: len(good) // 2]), data,
                               "legacy binary model: at byte")
        huge = bytearray(good)
        struct.pack_into("<i", huge, GBTREE_PARAM, 10 ** 8)
        expect_one_line_exit_2(d, damaged(d, "shape.model", bytes(huge)), data,
                               "num_trees 100000000 does not fit")
        cycle = bytearray(good)
        struct.pack_into("<i", cycle, TREE0_NODES + 20 + 4, 0)  # node 1's left child: root
        expect_one_line_exit_2(d, damaged(d, "cycle.model", bytes(cycle)), data,
                               "/learner/gradient_booster/model/trees/0")


def test_damaged_ubjson_models():
    with t.TempDir() as d:
        data = os.path.join(d, "train.libsvm")
        write_data(data)
        good = train(d, data, os.path.join(d, "good.ubj"))
        assert good[:2] == b"{L", good[:16]
        expect_one_line_exit_2(d, damaged(d, "trunc.ubj", good[: len(good) // 2]), data,
                               "not valid UBJSON: at byte")
        at = good.index(b"left_children[$l") + len(b"left_children[$")
        typed = good[:at] + b"d" + good[at + 1:]  # int32 children read as float32
        expect_one_line_exit_2(d, damaged(d, "type.ubj", typed), data, "expected an integer")
        expect_one_line_exit_2(d, damaged(d, "junk.ubj", b"{L" + b"\xff" * 8), data,
                               "exceeds the")


if __name__ == "__main__":
    t.main([test_damaged_binary_models, test_damaged_ubjson_models])
