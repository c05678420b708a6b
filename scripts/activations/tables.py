#!/usr/bin/env python3
"""Markdown tables of the corpus for docs/CORPUS.md, computed from the manifest only.

    python3 scripts/activations/tables.py data/activations/manifest.json            # print
    python3 scripts/activations/tables.py data/activations/manifest.json --update docs/CORPUS.md

--update replaces the text between the `<!-- tables:begin -->` and `<!-- tables:end -->` markers.
Standard library only, so it runs without the generator's virtualenv.
"""

import json
import os
import sys
from collections import defaultdict

BEGIN, END = "<!-- tables:begin -->", "<!-- tables:end -->"
DTYPES = ["f32", "bf16", "f16"]  # computed by generate.py
FP8 = ["e4m3", "e5m2"]  # cast from the f32 tensors by fp8.py
BYTES = {"f32": 4, "bf16": 2, "f16": 2, "e4m3": 1, "e5m2": 1}


def pct(x):
    return f"{100 * x:.1f}"


def tables(manifest_path):
    with open(manifest_path) as f:
        m = json.load(f)
    t = m["tensors"]
    out = []

    # Summary --------------------------------------------------------------------------------
    total = sum(e["elements"] * BYTES[e["dtype"]] for e in t)
    out.append(f"**{len(t)} tensors, {total} bytes ({total / 2**20:.1f} MiB) of tensor data.**\n")
    out.append("| net | phase | dtype | tensors | elements | +0 | −0 | non-finite | sparsity |")
    out.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
    groups = defaultdict(list)
    for e in t:
        groups[(e["net"], e["phase"], e["dtype"])].append(e)
    for net, phase in [("vgg16", "inference"), ("fmnist", "training")]:
        for d in DTYPES + FP8:
            g = groups[(net, phase, d)]
            if not g:
                continue
            n = sum(e["elements"] for e in g)
            z = sum(e["pos_zero"] for e in g)
            out.append(
                f"| {net} | {phase} | {d} | {len(g)} | {n} | {z} | {sum(e['neg_zero'] for e in g)} "
                f"| {sum(e['non_finite'] for e in g)} | {pct(z / n)} % |"
            )
    out.append("")

    # VGG16 per-layer sparsity ------------------------------------------------------------------
    vgg = [e for e in t if e["net"] == "vgg16"]
    images = list(dict.fromkeys(e["image"] for e in vgg))
    layers = list(dict.fromkeys((e["layer"], e["kind"]) for e in vgg))
    by = {(e["image"], e["layer"], e["dtype"]): e for e in vgg}
    out.append("### VGG16 per-layer sparsity (%)\n")
    out.append(
        "Whole-layer sparsity in fp32, and in brackets the sparsity of the bundled cut (its channel "
        "window). The bf16 and f16 columns are the whole-layer sparsities averaged over the images.\n"
    )
    head = "| layer | kind | layer shape | cut shape (channels) | " + " | ".join(f"{i} f32" for i in images)
    out.append(head + " | mean f32 | mean bf16 | mean f16 |")
    out.append("|---|---|---|---|" + "---:|" * (len(images) + 3))
    for layer, kind in layers:
        e0 = by[(images[0], layer, "f32")]
        cells = [
            f"{pct(by[(i, layer, 'f32')]['layer_sparsity'])} ({pct(by[(i, layer, 'f32')]['sparsity'])})"
            for i in images
        ]
        means = [
            pct(sum(by[(i, layer, d)]["layer_sparsity"] for i in images) / len(images)) for d in DTYPES
        ]
        shape = "×".join(map(str, e0["layer_shape"]))
        cut = "×".join(map(str, e0["shape"]))
        out.append(f"| {layer} | {kind} | {shape} | {cut} ({e0['channels'][0]}–{e0['channels'][1]}) | "
                   + " | ".join(cells) + " | " + " | ".join(means) + " |")
    out.append("")
    out.append("(The channel window may differ per image; the cut shape shown is the first image's.)\n")

    # Fashion-MNIST training trend ---------------------------------------------------------------
    fm = [e for e in t if e["net"] == "fmnist"]
    steps = sorted(set(e["step"] for e in fm))
    fl = list(dict.fromkeys((e["layer"], e["kind"]) for e in fm))
    fby = {(e["step"], e["layer"], e["dtype"]): e for e in fm}
    out.append("### Fashion-MNIST CNN: sparsity (%) vs training step\n")
    out.append(
        "Whole-layer fp32 sparsity of the probe batch at each checkpoint, and the test accuracy of "
        "the checkpoint on the 10 000-image test set. fc2 holds the logits (dense by nature).\n"
    )
    out.append("| step | test acc. | " + " | ".join(f"{l} ({k})" for l, k in fl) + " |")
    out.append("|---:|---:|" + "---:|" * len(fl))
    for s in steps:
        acc = fby[(s, fl[0][0], "f32")]["provenance"]["test_accuracy"]
        cells = [pct(fby[(s, l, "f32")]["layer_sparsity"]) for l, _ in fl]
        out.append(f"| {s} | {100 * acc:.1f} % | " + " | ".join(cells) + " |")
    out.append("")
    worst = max(
        (abs(fby[(s, l, d)]["layer_sparsity"] - fby[(s, l, "f32")]["layer_sparsity"]), s, l, d)
        for s in steps
        for l, _ in fl
        for d in ("bf16", "f16")
    )
    if worst[0] == 0:
        out.append(
            "Rounding the fp32 training activations to bf16 or f16 changes no layer's sparsity: none "
            "of their non-zeros is small enough to round to +0.\n"
        )
    else:
        out.append(
            f"Rounding to bf16/f16 changes a layer's sparsity by at most {pct(worst[0])} points "
            f"(step {worst[1]}, {worst[2]}, {worst[3]}): non-zeros below half the smallest "
            "subnormal round to +0.\n"
        )

    # FP8 casts ----------------------------------------------------------------------------------
    by_file = {e["file"]: e for e in t}
    fp8 = [e for e in t if e["dtype"] in FP8]
    if fp8:
        out.append("### FP8 casts of the f32 tensors\n")
        out.append(
            "Per-tensor scale = fp8 max / amax of the f32 tensor (`fp8_scale`, range over the tensors). "
            "Underflow: positive f32 elements that the cast flushed to +0 (they add to the sparsity); "
            "negative ones would become −0.\n"
        )
        out.append("| dtype | fp8 max | tensors | scale min | scale max | underflow to +0 | −0 | non-finite | sparsity f32 → fp8 |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for d, mx in zip(FP8, ("448", "57344")):
            g = [e for e in fp8 if e["dtype"] == d]
            if not g:
                continue
            src = [by_file[e["source"]] for e in g]
            under = sum(e["pos_zero"] - s["pos_zero"] for e, s in zip(g, src))
            n = sum(e["elements"] for e in g)
            sp_src = sum(s["pos_zero"] for s in src) / n
            sp = sum(e["pos_zero"] for e in g) / n
            scales = [e["fp8_scale"] for e in g]
            out.append(
                f"| {d} | {mx} | {len(g)} | {min(scales):.4g} | {max(scales):.4g} | {under} "
                f"| {sum(e['neg_zero'] for e in g)} | {sum(e['non_finite'] for e in g)} "
                f"| {100 * sp_src:.3f} % → {100 * sp:.3f} % |"
            )
        out.append("")

    # Cut fidelity ------------------------------------------------------------------------------
    gap = max(abs(e["sparsity"] - e["layer_sparsity"]) for e in t)
    biggest = max(e["elements"] for e in t)
    out.append(
        f"Largest |cut − layer| sparsity gap over all tensors: {gap:.4f} (limit "
        f"{m['max_sparsity_gap']}); largest tensor: {biggest} elements."
    )
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "--update"):
        sys.exit("usage: tables.py MANIFEST [--update DOC]")
    text = tables(args[0])
    if len(args) == 1:
        sys.stdout.write(text)
        return
    with open(args[2]) as f:
        doc = f.read()
    if doc.count(BEGIN) != 1 or doc.count(END) != 1 or doc.index(BEGIN) > doc.index(END):
        sys.exit(f"tables.py: {args[2]} needs exactly one {BEGIN} ... {END} pair")
    head, rest = doc.split(BEGIN)
    _, tail = rest.split(END)
    with open(args[2], "w") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)


if __name__ == "__main__":
    main()
