"""Per-layer compression of a real network's activations, captured from JAX.

A small VGG-style CNN (the corpus generator's Fashion-MNIST net, scripts/activations/
generate.py: four 3x3 convs with ReLU, two max-pools, two dense layers) is trained with SGD on
Fashion-MNIST; at a few training steps every ReLU and pool output of a batch of test images is
captured and measured by `cdma.analyze` (ZVC, ZVC-X, zlib, zstd and the chunked frame), in
float32 and rounded to bfloat16 as mixed-precision training would offload it. Every captured
tensor is also compressed and decompressed by both frame codecs and compared bit for bit.

Usage: python fashion_mnist.py FASHION_MNIST_DIR [--steps 0,100,300]
(FASHION_MNIST_DIR holds the four idx .gz files; scripts/activations/fashion-mnist fetches them.)
"""

import argparse
import gzip
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

import cdma  # noqa: E402

CONVS = [("conv1_1", 1, 32), ("conv1_2", 32, 32), ("conv2_1", 32, 64), ("conv2_2", 64, 64)]
BATCH = 64
LR, MOMENTUM = 0.01, 0.9


def read_idx(path):
    """An idx file (the MNIST format: big-endian dims, then uint8 data) as an array."""
    data = gzip.decompress(open(path, "rb").read())
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def init(key):
    params = {}
    for name, cin, cout in CONVS:
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (3, 3, cin, cout), jnp.float32) * np.sqrt(2.0 / (9 * cin))
        params[name] = (w, jnp.zeros((cout,), jnp.float32))
    for name, fin, fout in [("fc1", 64 * 7 * 7, 256), ("fc2", 256, 10)]:
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (fin, fout), jnp.float32) * np.sqrt(2.0 / fin)
        params[name] = (w, jnp.zeros((fout,), jnp.float32))
    return params


def forward(params, x):
    """Logits of images x (N, 28, 28) and every activation the backward pass would need,
    as (name, array) in layer order: what vDNN offloads."""
    acts = []
    h = x[:, :, :, None]
    for name, _, _ in CONVS:
        w, b = params[name]
        h = lax.conv_general_dilated(h, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        h = jnp.maximum(h + b, 0.0)
        acts.append((f"{name}.relu", h))
        if name.endswith("_2"):
            h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
            acts.append((f"pool{name[4]}", h))
    h = h.reshape(h.shape[0], -1)
    w, b = params["fc1"]
    h = jnp.maximum(h @ w + b, 0.0)
    acts.append(("fc1.relu", h))
    w, b = params["fc2"]
    return h @ w + b, acts


def loss(params, x, y):
    logits, _ = forward(params, x)
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))


@jax.jit
def step(params, vel, x, y):
    g = jax.grad(loss)(params, x, y)
    vel = jax.tree_util.tree_map(lambda v, gi: MOMENTUM * v + gi, vel, g)
    return jax.tree_util.tree_map(lambda p, v: p - LR * v, params, vel), vel


@jax.jit
def activations(params, x):
    # A jitted function returns arrays only: main takes the names from an eager call.
    return [a for _, a in forward(params, x)[1]]


def check_round_trip(name, a):
    """Both frame codecs give every bit of `a` back, with its dtype."""
    for codec in cdma.CODECS:
        back = cdma.decompress(cdma.compress(a, codec))
        if back.dtype != a.dtype or back.tobytes() != a.tobytes():
            sys.exit(f"{name} ({a.dtype}, {codec}): decompress(compress(a)) differs from a")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="folder of the Fashion-MNIST idx .gz files")
    ap.add_argument("--steps", default="0,100,300", help="training steps to capture at")
    args = ap.parse_args()
    steps = sorted({int(s) for s in args.steps.split(",")})

    images = read_idx(os.path.join(args.data, "train-images-idx3-ubyte.gz")).astype(np.float32) / 255
    labels = read_idx(os.path.join(args.data, "train-labels-idx1-ubyte.gz")).astype(np.int32)
    probe = read_idx(os.path.join(args.data, "t10k-images-idx3-ubyte.gz"))[:8].astype(np.float32) / 255

    params = init(jax.random.PRNGKey(2018))
    layers = [name for name, _ in forward(params, jnp.asarray(probe[:1]))[1]]
    vel = jax.tree_util.tree_map(jnp.zeros_like, params)
    order = np.random.default_rng(2018).permutation(len(images))
    done = 0
    for target in steps:
        for i in range(done, target):
            idx = order[(i * BATCH) % len(order) :][:BATCH]
            params, vel = step(params, vel, jnp.asarray(images[idx]), jnp.asarray(labels[idx]))
        done = target
        captured = {n: np.asarray(a) for n, a in zip(layers, activations(params, jnp.asarray(probe)))}
        tensors = {}
        for name, a in captured.items():
            tensors[f"{name}.f32"] = a
            tensors[f"{name}.bf16"] = a.astype(ml_dtypes.bfloat16)
        for name, a in tensors.items():
            check_round_trip(name, a)
        rows = cdma.analyze(tensors)
        assert [r["name"] for r in rows] == list(tensors), "a row per captured tensor"
        for r in rows:
            assert r["elements"] == tensors[r["name"]].size, r["name"]
        total = sum(r["bytes"] for r in rows)
        zvc = sum(r["zvc_bytes"] for r in rows)
        zvcx = sum(r["zvcx_bytes"] for r in rows)
        print(f"\nstep {target}: {len(rows)} activations of 8 test images, {total} bytes; "
              f"ZVC {total / zvc:.2f}x, ZVC-X {total / zvcx:.2f}x over all")
        print(rows)
    print(f"\nall {len(steps) * len(tensors)} captured tensors round-trip bit for bit through zvc and zvcx")


if __name__ == "__main__":
    main()
