#!/usr/bin/python3
"""PyTorch peer for bench/mlp/mlp_bench.sh: MLP 784-256-128-10 on Fashion-MNIST, batch 64 per
worker, SGD lr 0.05 momentum 0.9 with linear per-epoch decay (the reference configuration of
../shared/bench/README.md), inputs scaled to [0, 1]. --world 1: one process; --world N: DDP over
gloo, each worker taking perm[rank::N] of one shared permutation per epoch. Epoch time is
training only. Prints one JSON line per epoch and a summary line (rank 0)."""
import argparse
import gzip
import json
import os
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn

DATA = "/usr/share/datasets/fashion-mnist"


def load(split):
    with gzip.open(f"{DATA}/{split}-images-idx3-ubyte.gz") as f:
        x = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)
    with gzip.open(f"{DATA}/{split}-labels-idx1-ubyte.gz") as f:
        y = np.frombuffer(f.read(), np.uint8, offset=8)
    return torch.from_numpy(x.astype(np.float32) / 255.0), torch.from_numpy(y.astype(np.int64))


def worker(rank, a):
    torch.set_num_threads(a.threads)
    if a.world > 1:
        os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(a.port), GLOO_SOCKET_IFNAME="lo")
        dist.init_process_group("gloo", rank=rank, world_size=a.world)
    xtr, ytr = load("train")
    xte, yte = load("t10k")
    torch.manual_seed(a.seed)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                          nn.Linear(128, 10))
    net = nn.parallel.DistributedDataParallel(model) if a.world > 1 else model
    opt = torch.optim.SGD(net.parameters(), lr=a.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss()
    times = []
    for epoch in range(a.epochs):
        for g in opt.param_groups:
            g["lr"] = a.lr * (a.epochs - epoch) / a.epochs
        perm = torch.randperm(len(xtr), generator=torch.Generator().manual_seed(a.seed + epoch))
        shard = perm[rank::a.world]
        if a.world > 1:
            dist.barrier()
        t0 = time.perf_counter()
        for i in range(0, len(shard), 64):
            idx = shard[i:i + 64]
            opt.zero_grad()
            lossf(net(xtr[idx]), ytr[idx]).backward()
            opt.step()
        if a.world > 1:
            dist.barrier()
        times.append(time.perf_counter() - t0)
        with torch.no_grad():
            acc = (model(xte).argmax(1) == yte).float().mean().item()
        if rank == 0:
            print(json.dumps(dict(epoch=epoch + 1, time_s=round(times[-1], 3), test_acc=round(acc, 4))),
                  flush=True)
    if rank == 0:
        print(json.dumps(dict(world=a.world, median_epoch_s=sorted(times)[len(times) // 2],
                              final_test_acc=round(acc, 4))), flush=True)
    if a.world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--world", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--port", type=int, default=29531)
    a = ap.parse_args()
    if a.world == 1:
        worker(0, a)
    else:
        mp.spawn(worker, args=(a,), nprocs=a.world)
