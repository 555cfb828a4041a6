#!/usr/bin/python3
"""PyTorch 1.13 as the peer of booster=mlp's arithmetic: from the same initial weights (a
treering model saved after 0 epochs), two optimizer steps on the same minibatches with the same
loss must give the same weights in treering's model file as in torch (SGD with momentum and
Adam, relu and tanh, softmax cross-entropy and logistic loss, L2 on weights only, global
standardisation folded into layer 0). Skips (77) when python3-torch is not installed."""
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli"))
import cli_testlib as t  # noqa: E402


def read_model(path):
    data = open(path, "rb").read()
    assert data[:8] == b"TRRMLP01"
    (hlen,) = struct.unpack("<Q", data[8:16])
    header = json.loads(data[16:16 + hlen])
    pos, sections = 16 + hlen, {}
    for s in header["sections"]:
        n = s["floats"]
        sections[s["name"]] = list(struct.unpack("<%df" % n, data[pos:pos + 4 * n]))
        pos += 4 * n
    return header, sections


def to_layers(header, params):
    """Flat params (output layer first; W in x out row-major, then b) -> [(W, b)] in layer order."""
    import torch
    widths = header["widths"]
    layers, pos = [None] * (len(widths) - 1), 0
    for l in reversed(range(len(widths) - 1)):
        n_in, n_out = widths[l], widths[l + 1]
        w = torch.tensor(params[pos:pos + n_in * n_out]).reshape(n_in, n_out)
        pos += n_in * n_out
        b = torch.tensor(params[pos:pos + n_out])
        pos += n_out
        layers[l] = (w, b)
    return layers


def write_data(path, rows, features, classes, seed):
    rng = random.Random(seed)
    dense = []
    with open(path, "w") as f:
        for _ in range(rows):
            x = [rng.uniform(0, 3) + j % 2 if rng.random() < 0.7 else 0.0 for j in range(features)]
            y = rng.randrange(classes)
            dense.append((x, y))
            f.write("%d %s\n" % (y, " ".join("%d:%r" % (j, v) for j, v in enumerate(x) if v != 0.0)))
    return dense


def torch_steps(header, init, rows, keys):
    import torch
    scale = torch.tensor(init["inv_std"])
    center = torch.tensor(init["center"])
    x = torch.tensor([r[0] for r in rows]) * scale - center  # (x - mean) / std
    y = torch.tensor([r[1] for r in rows])
    params = []
    for w, b in to_layers(header, init["params"]):
        params += [w.clone().requires_grad_(), b.clone().requires_grad_()]
    weights, biases = params[0::2], params[1::2]
    groups = [{"params": weights, "weight_decay": keys["lambda"]}, {"params": biases, "weight_decay": 0.0}]
    if keys["optimizer"] == "sgd":
        opt = torch.optim.SGD(groups, lr=keys["lr"], momentum=0.9)
    else:
        opt = torch.optim.Adam(groups, lr=keys["lr"])
    act = torch.relu if keys["activation"] == "relu" else torch.tanh
    for step in range(2):
        xb, yb = x[step * 16:(step + 1) * 16], y[step * 16:(step + 1) * 16]
        h = xb
        for l in range(len(weights)):
            h = h @ weights[l] + biases[l]
            if l + 1 < len(weights):
                h = act(h)
        if keys["objective"] == "binary:logistic":
            loss = torch.nn.functional.binary_cross_entropy_with_logits(h[:, 0], yb.float())
        else:
            loss = torch.nn.functional.cross_entropy(h, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    flat = []
    for l in reversed(range(len(weights))):
        flat += weights[l].detach().reshape(-1).tolist() + biases[l].detach().tolist()
    return flat


def check(objective, optimizer, activation, lr):
    with t.TempDir() as d:
        classes = 2 if objective == "binary:logistic" else 3
        train = os.path.join(d, "train.libsvm")
        rows = write_data(train, 32, 10, classes, 5)
        common = ["booster=mlp", "data=" + train, "objective=" + objective, "hidden_layers=8,6",
                  "activation=" + activation, "optimizer=" + optimizer, "learning_rate=%r" % lr,
                  "lambda=0.01", "batch_size=16", "shuffle=0", "lr_schedule=constant",
                  "warmup_epochs=0", "lr_scaling=0", "nthread=1", "seed=3"]
        if classes > 2:
            common.append("num_class=%d" % classes)
        init_path, after_path = os.path.join(d, "init.mlp"), os.path.join(d, "after.mlp")
        t.run([t.treering_bin(), "/dev/null", "epochs=0", "model_out=" + init_path] + common, cwd=d)
        t.run([t.treering_bin(), "/dev/null", "epochs=1", "model_out=" + after_path] + common, cwd=d)
        header, init = read_model(init_path)
        _, after = read_model(after_path)
        keys = {"objective": objective, "optimizer": optimizer, "activation": activation,
                "lr": lr, "lambda": 0.01}
        expected = torch_steps(header, init, rows, keys)
        moved = max(abs(a - b) for a, b in zip(after["params"], init["params"]))
        diff = max(abs(a - b) for a, b in zip(after["params"], expected))
        assert moved > 1e-3, "the steps did not move the weights"
        assert diff < 2e-5, "%s/%s/%s: max |treering - torch| = %g" % (objective, optimizer, activation, diff)


def test_sgd_momentum_softmax_relu():
    check("multi:softmax", "sgd", "relu", 0.1)


def test_adam_softprob_tanh():
    check("multi:softprob", "adam", "tanh", 0.01)


def test_sgd_logistic_tanh():
    check("binary:logistic", "sgd", "tanh", 0.2)


if __name__ == "__main__":
    try:
        import torch  # noqa: F401
    except ImportError:
        print("SKIP: python3-torch not installed")
        sys.exit(t.SKIP)
    t.main([test_sgd_momentum_softmax_relu, test_adam_softprob_tanh, test_sgd_logistic_tanh])
