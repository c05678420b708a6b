#!/usr/bin/env python3
"""FP8 (e4m3, e5m2) versions of the f32 tensors of an activation corpus, added to its manifest.

    python3 fp8.py DIR        (DIR = data/activations; run through ./fp8 DIR or ./generate)

For every f32 entry `<stem>.f32.bin` of DIR/manifest.json this writes `<stem>.e4m3.bin` and
`<stem>.e5m2.bin` (one raw byte per element) the way FP8 training recipes cast a tensor
(per-tensor "current" scaling from the absolute maximum, all arithmetic in fp32):

    amax  = max |x| over the tensor                      (an fp32 value)
    scale = fl32(FP8_MAX / amax), or 1 if amax is 0      (FP8_MAX: e4m3 448, e5m2 57344)
    x8    = RNE cast to fp8 of clamp(fl32(x * scale), -FP8_MAX, FP8_MAX)   (saturating)

so x ~ x8 / scale. e4m3 is OCP/NVIDIA E4M3 ("fn": no infinity, S.1111.111 is NaN, max 448),
e5m2 is IEEE-like (exponent 11111 is inf/NaN, max 57344); the casts are ml_dtypes'
float8_e4m3fn and float8_e5m2. The entries carry the same fields as the others, plus `source`
(the f32 entry's file) and `fp8_scale` (the scale, an fp32 value, exact in JSON).

Idempotent and deterministic: fp8 entries and files already in DIR are replaced, the rest of the
manifest is kept as is; two runs give byte-identical files and manifest.
"""

import hashlib
import importlib.metadata
import json
import os
import sys

import ml_dtypes
import numpy as np

import manifest_io  # next to this file; std-lib only

# name: (ml_dtypes type, largest finite value, mask such that (b & m) == m iff non-finite)
FP8 = {
    "e4m3": (ml_dtypes.float8_e4m3fn, 448.0, 0x7F),  # only S.1111.111 (NaN); no infinity
    "e5m2": (ml_dtypes.float8_e5m2, 57344.0, 0x7C),  # exponent 11111: inf or NaN
}
FP8_ORDER = ["e4m3", "e5m2"]
NEG_ZERO = 0x80

RECIPE = (
    "per-tensor current scaling: amax = max|x| of the f32 source tensor, scale = fl32(FP8_MAX / amax) "
    "(1 if amax is 0), x8 = RNE cast of clamp(fl32(x * scale), -FP8_MAX, FP8_MAX); x ~ x8 / scale"
)


def fail(msg):
    print(f"fp8: error: {msg}", file=sys.stderr)
    sys.exit(1)


def convert(x32, d):
    """(raw fp8 bytes as uint8, scale as np.float32) of an f32 array."""
    t, fp8_max, _ = FP8[d]
    if not np.all(np.isfinite(x32)):
        fail("the source tensor has a non-finite element; amax scaling is undefined")
    amax = np.max(np.abs(x32)) if x32.size else np.float32(0)
    scale = np.float32(1) if amax == 0 else np.float32(fp8_max) / np.float32(amax)
    if not (np.isfinite(scale) and scale > 0):
        fail(f"scale {scale} from amax {amax} is not a positive finite fp32 number")
    y = np.clip(x32 * scale, np.float32(-fp8_max), np.float32(fp8_max))
    assert y.dtype == np.float32
    q = y.astype(t).view(np.uint8)
    if amax != 0 and float(np.max(np.abs(q.view(t).astype(np.float32)))) != fp8_max:
        fail(f"{d}: the largest element did not map to {fp8_max}")
    return np.ascontiguousarray(q), np.float32(scale)


def stats(b, d):
    """Counts on the raw bit patterns, as generate.py counts them for the other dtypes."""
    mask = FP8[d][2]
    return {
        "elements": int(b.size),
        "pos_zero": int(np.count_nonzero(b == 0)),
        "neg_zero": int(np.count_nonzero(b == NEG_ZERO)),
        "non_finite": int(np.count_nonzero((b & mask) == mask)),
    }


def stem_of(e):
    suffix = f".{e['dtype']}.bin"
    if not e["file"].endswith(suffix):
        fail(f"{e['file']}: file name does not end with {suffix}")
    return e["file"][: -len(suffix)]


def fp8_entries(out_dir, src, versions):
    """Writes the fp8 files of one f32 entry and returns their manifest entries."""
    path = os.path.join(out_dir, src["file"])
    raw = open(path, "rb").read()
    if hashlib.sha256(raw).hexdigest() != src["sha256"]:
        fail(f"{path}: sha256 differs from the manifest")
    x32 = np.frombuffer(raw, dtype="<f4").astype(np.float32)
    if x32.size != src["elements"]:
        fail(f"{path}: {x32.size} elements, manifest says {src['elements']}")
    out = []
    for d in FP8_ORDER:
        q, scale = convert(x32, d)
        name = f"{stem_of(src)}.{d}.bin"
        data = q.tobytes()
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        st = stats(q, d)
        prov = dict(src["provenance"])
        prov["fp8"] = {"recipe": RECIPE, "fp8_max": FP8[d][1], "packages": versions}
        out.append(
            {
                "file": name,
                "dtype": d,
                "shape": src["shape"],
                "layout": src["layout"],
                **st,
                "sparsity": st["pos_zero"] / st["elements"],
                "sha256": hashlib.sha256(data).hexdigest(),
                "net": src["net"],
                "layer": src["layer"],
                "kind": src["kind"],
                "phase": src["phase"],
                "step": src["step"],
                "image": src["image"],
                "provenance": prov,
                "layer_shape": src["layer_shape"],
                # The whole layer is not in the corpus, so it cannot be cast: this is the source's.
                "layer_sparsity": src["layer_sparsity"],
                "channels": src["channels"],
                "source": src["file"],
                "fp8_scale": float(scale),  # an fp32 value; JSON keeps it exactly
            }
        )
    return out


def main():
    if len(sys.argv) != 2:
        fail("usage: fp8.py DIR   (DIR holds manifest.json, e.g. data/activations)")
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    versions = {p: importlib.metadata.version(p) for p in ("numpy", "ml_dtypes")}
    # Drop what a previous run added, so the result depends on the f32 entries only.
    base = [e for e in manifest["tensors"] if e["dtype"] not in FP8]
    for n in os.listdir(out_dir):
        if any(n.endswith(f".{d}.bin") for d in FP8):
            os.remove(os.path.join(out_dir, n))
    by_stem = {stem_of(e): e for e in base if e["dtype"] == "f32"}
    tensors = []
    for i, e in enumerate(base):
        tensors.append(e)
        stem = stem_of(e)
        last_of_capture = i + 1 == len(base) or stem_of(base[i + 1]) != stem
        if last_of_capture and stem in by_stem:
            tensors.extend(fp8_entries(out_dir, by_stem[stem], versions))
    manifest["tensors"] = tensors
    manifest_io.write_manifest(out_dir, manifest)
    added = [e for e in tensors if e["dtype"] in FP8]
    size = sum(e["elements"] for e in added)
    print(f"fp8: {len(added)} tensors ({len(by_stem)} f32 sources), {size} bytes in {out_dir}")


if __name__ == "__main__":
    main()
