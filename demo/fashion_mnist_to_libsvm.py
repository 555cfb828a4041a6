#!/usr/bin/python3
# Copied from the project's shared/bench/data/ so the demo runs from a clone alone; keep in sync.
"""Convert Debian's dataset-fashion-mnist (IDX .gz files) to LibSVM text.

usage: fashion_mnist_to_libsvm.py OUTDIR [SRCDIR]
writes OUTDIR/fashion.train.libsvm (60000 rows) and OUTDIR/fashion.test.libsvm
(10000 rows): "label idx:value ..." with only non-zero pixels, raw 0-255 integer
values, 0-based feature indices 0..783 (xgboost's default for LibSVM input).
"""
import gzip
import os
import sys

import numpy as np


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = int.from_bytes(data[0:4], "big")  # 0x0801 labels, 0x0803 images
    assert magic >> 8 == 0x08, "not an unsigned-byte IDX file: %s" % path
    ndim = magic & 0xFF
    dims = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim)]
    arr = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    return arr.reshape(dims)


def write_libsvm(path, images, labels):
    x = images.reshape(len(images), -1)
    with open(path, "w") as f:
        for lab, row in zip(labels, x):
            nz = np.flatnonzero(row)
            f.write(str(int(lab)))
            f.write("".join(" %d:%d" % (j, row[j]) for j in nz))
            f.write("\n")


def main():
    out = sys.argv[1]
    src = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/datasets/fashion-mnist"
    os.makedirs(out, exist_ok=True)
    for split, prefix in (("train", "train"), ("test", "t10k")):
        images = read_idx(os.path.join(src, prefix + "-images-idx3-ubyte.gz"))
        labels = read_idx(os.path.join(src, prefix + "-labels-idx1-ubyte.gz"))
        assert len(images) == len(labels)
        path = os.path.join(out, "fashion.%s.libsvm" % split)
        write_libsvm(path, images, labels)
        print("%s: %d rows, %d features" % (path, len(labels), images[0].size))


if __name__ == "__main__":
    main()
