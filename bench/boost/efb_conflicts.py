#!/usr/bin/python3
"""How much would exclusive feature bundling (LightGBM's EFB) merge on a LibSVM file?

usage: /usr/bin/python3 bench/boost/efb_conflicts.py TRAIN [RATE ...]

Greedy bundling as LightGBM's FindGroups does it: features by stored entries, most first;
each goes into the first bundle whose rows it shares with at most RATE * rows rows (summed
over the bundle's conflicts), else opens a new one. RATE 0 (LightGBM's default
max_conflict_rate) is exact: no row has two of a bundle's features, so a bundle's histogram
is its features' histograms side by side and trees do not change. Prints, per rate, the
bundles, how many hold more than one feature, and the stored entries per row a bundled
histogram build would walk (one per bundle present in a row) next to the sparse layout's.
"""
import sys

import numpy as np


def load_pattern(path):
    """Row-major presence pattern: (rows, features) booleans, absent = missing."""
    indices, row_ptr = [], [0]
    with open(path) as f:
        for line in f:
            cols = [int(t.split(":", 1)[0]) for t in line.split()[1:]]
            indices.extend(cols)
            row_ptr.append(len(indices))
    rows, features = len(row_ptr) - 1, max(indices) + 1
    present = np.zeros((rows, features), dtype=bool)
    lengths = np.diff(row_ptr)
    present[np.repeat(np.arange(rows), lengths), np.array(indices)] = True
    return present


POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def bundle(present, rate):
    rows = present.shape[0]
    budget = int(rate * rows)
    counts = present.sum(axis=0)
    packed = np.packbits(present, axis=0).T  # features x (rows / 8) bytes
    masks = np.zeros((0, packed.shape[1]), dtype=np.uint8)
    used, members = [], []
    for f in np.argsort(-counts, kind="stable"):
        if counts[f] == 0:
            continue
        # Conflicts with every bundle at once: rows present in both.
        conflicts = POPCOUNT[masks & packed[f]].sum(axis=1)
        fits = np.nonzero(np.array(used, dtype=np.int64) + conflicts <= budget)[0]
        if fits.size:
            b = int(fits[0])
            masks[b] |= packed[f]
            used[b] += int(conflicts[b])
            members[b].append(int(f))
        else:
            masks = np.vstack([masks, packed[f]])
            used.append(0)
            members.append([int(f)])
    return members, masks


def main():
    path = sys.argv[1]
    rates = [float(r) for r in sys.argv[2:]] or [0.0, 1e-4, 1e-3]
    present = load_pattern(path)
    rows, features = present.shape
    entries = int(present.sum())
    print(f"{path}: {rows} rows, {features} features, {entries / rows:.1f} entries per row")
    density = present.mean(axis=0)
    print("feature density quantiles (0, 10, 50, 90, 100 %):",
          " ".join(f"{q:.4f}" for q in np.quantile(density, [0, 0.1, 0.5, 0.9, 1])))
    for rate in rates:
        members, masks = bundle(present, rate)
        multi = sum(1 for m in members if len(m) > 1)
        walked = int(POPCOUNT[masks].sum()) / rows
        print(f"rate {rate:g}: {len(members)} bundles, {multi} with more than one feature, "
              f"{walked:.1f} bundle entries per row (sparse layout: {entries / rows:.1f})")


if __name__ == "__main__":
    main()
