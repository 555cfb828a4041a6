#!/usr/bin/python3
"""Loads a LibSVM URI with XGBoost 1.7 and writes its CSR as raw little-endian arrays, the
peer the data-layer test compares treering's loader with.

usage: xgboost_csr_dump.py URI OUTPREFIX
writes OUTPREFIX.indptr (u64), .indices (u32), .data (f32), .label (f32), .weight (f32, empty
when the file has no weights) and prints "rows cols nnz".
"""
import sys

import numpy as np
import xgboost


def main():
    uri, prefix = sys.argv[1], sys.argv[2]
    d = xgboost.DMatrix(uri, nthread=2)
    csr = d.get_data()
    csr.sort_indices()
    csr.indptr.astype("<u8").tofile(prefix + ".indptr")
    csr.indices.astype("<u4").tofile(prefix + ".indices")
    csr.data.astype("<f4").tofile(prefix + ".data")
    d.get_label().astype("<f4").tofile(prefix + ".label")
    d.get_weight().astype("<f4").tofile(prefix + ".weight")
    print(csr.shape[0], csr.shape[1], csr.nnz)


if __name__ == "__main__":
    main()
