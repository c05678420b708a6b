"""Users' tensors as NumPy, ml_dtypes and the safetensors package write them, through the
built `cdma`: `cdma analyze --input FOLDER` must list every tensor with the element count,
the count of all-zero elements and the byte size NumPy gives, and `cdma compress` /
`cdma decompress` of each .npy file must give its bytes back.

Usage: python check.py CDMA_BINARY
"""
import json
import pathlib
import subprocess
import sys
import tempfile

import ml_dtypes
import numpy as np
from safetensors.numpy import save_file

CDMA = sys.argv[1]
NAMES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(ml_dtypes.float8_e4m3fn): "e4m3",
    np.dtype(ml_dtypes.float8_e5m2): "e5m2",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint8): "u8",
}
rng = np.random.default_rng(7)


def relu(shape, dtype):
    """ReLU-like activations: about 60 % zeros, the rest positive."""
    x = rng.standard_normal(shape).astype(np.float32)
    x[x < 0.25] = 0
    if np.dtype(dtype).kind in "iu":
        # Quantized: a scale that keeps the values inside the integer range.
        return np.clip(np.round(x * 40), 0, 127).astype(dtype)
    return x.astype(dtype)


def zeros(a):
    """Elements whose bit pattern is all zero (what ZVC drops)."""
    words = np.frombuffer(a.tobytes(), dtype={4: "<u4", 2: "<u2", 1: "u1"}[a.itemsize])
    return int((words == 0).sum())


def run(*args):
    return subprocess.run([CDMA, *map(str, args)], capture_output=True, text=True, check=True)


with tempfile.TemporaryDirectory() as tmp:
    d = pathlib.Path(tmp)
    (d / "sub").mkdir()
    (d / "q").mkdir()
    # NumPy saves ml_dtypes' types as anonymous records (<V2, |V1): the file name types them.
    npys = {
        "conv1": relu((2, 8, 6, 6), np.float32),
        "sub/conv2.bf16": relu((2, 16, 4, 4), ml_dtypes.bfloat16),
        "fc1.float8_e4m3fn": relu((4, 64), ml_dtypes.float8_e4m3fn),
        "fc2.float8_e5m2": relu((4, 48), ml_dtypes.float8_e5m2),
        "pool1": relu((2, 8, 3, 3), np.float16),
        "q/conv3": relu((2, 8, 4, 4), np.int8),
        "q/fc3": relu((4, 32), np.uint8),
    }
    for name, a in npys.items():
        np.save(d / f"{name}.npy", a)
    st = {
        "layer1.relu": relu((2, 8, 5, 5), ml_dtypes.bfloat16),
        "layer2.pool": relu((2, 8, 3, 3), np.float32),
        "fc": relu((3, 40), ml_dtypes.float8_e4m3fn),
        "head": relu((3, 40), ml_dtypes.float8_e5m2),
        "qconv": relu((2, 4, 5, 5), np.int8),
        "qfc": relu((3, 40), np.uint8),
    }
    save_file(st, d / "net.safetensors")
    expected = dict(npys) | {f"net/{k}": v for k, v in st.items()}

    got = {t["name"]: t for t in json.loads(run("analyze", "--json", "--input", d).stdout)["tensors"]}
    assert set(got) == set(expected), f"tensors: {sorted(got)} != {sorted(expected)}"
    for name, a in expected.items():
        t = got[name]
        want = (NAMES[a.dtype], a.size, zeros(a), a.nbytes)
        have = (t["dtype"], t["elements"], t["zeros"], t["raw_bytes"])
        assert have == want, f"{name}: cdma {have}, NumPy {want}"
        assert 0 < t["zeros"] < t["elements"], f"{name}: a sparse tensor"

    for name, a in npys.items():
        npy = d / f"{name}.npy"
        frame, back = d / f"{name}.cdma", d / f"{name}.out"
        run("compress", "--codec", "zvcx", npy, frame)
        run("decompress", frame, back)
        assert back.read_bytes() == a.tobytes(), f"{name}: round trip"

    print(
        f"pyinputs: {len(expected)} tensors written by numpy {np.__version__}, "
        f"ml_dtypes {ml_dtypes.__version__} and safetensors: counts as NumPy's, "
        f"{len(npys)} .npy files round-trip through compress/decompress (ZVC-X)"
    )
