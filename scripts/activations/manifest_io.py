"""Writing data/activations/manifest.json and manifest.tsv (standard library only).

Shared by generate.py (which writes the f32/bf16/f16 tensors) and fp8.py (which adds the fp8
versions to an existing corpus), so both give byte-identical manifests for the same entries.
"""

import json
import os

# manifest.tsv columns; fields an entry lacks (source, fp8_scale outside fp8 entries) are empty.
TSV_COLUMNS = ["file", "dtype", "shape", "layout", "elements", "pos_zero", "neg_zero", "non_finite", "sparsity",
               "layer_sparsity", "sha256", "net", "layer", "kind", "phase", "step", "image", "channels",
               "source", "fp8_scale"]


def write_manifest(out_dir, manifest):
    """Writes `manifest` (the whole JSON object) as manifest.json and its tensors as manifest.tsv."""
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    with open(os.path.join(out_dir, "manifest.tsv"), "w") as f:
        f.write("\t".join(TSV_COLUMNS) + "\n")
        for e in manifest["tensors"]:
            row = []
            for c in TSV_COLUMNS:
                v = e.get(c)
                row.append("" if v is None else "x".join(map(str, v)) if isinstance(v, list) else str(v))
            f.write("\t".join(row) + "\n")
