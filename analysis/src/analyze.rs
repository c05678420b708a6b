//! Per-tensor codec comparison over a corpus and its groupings (per layer kind, dtype,
//! training step, layer), with text, markdown and JSON renderings.

use crate::codecs::{self, Codec, Sizes};
use crate::table::Table;
use cdma_corpus::{Corpus, Dtype, Entry};
use cdma_model::ElemWidth;
use serde_json::{json, Value};

/// One corpus tensor and its compressed sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorRow {
    /// File stem, e.g. `vgg16.chelsea.conv1_1.relu.f32`.
    pub name: String,
    /// Network (`vgg16`, `fmnist`).
    pub net: String,
    /// Layer name (`conv3_2`).
    pub layer: String,
    /// Layer kind (`relu`, `maxpool`, `fc`).
    pub kind: String,
    /// Element type.
    pub dtype: Dtype,
    /// Training step (training tensors only).
    pub step: Option<u32>,
    /// Image (inference tensors only).
    pub image: Option<String>,
    /// Elements.
    pub elements: u64,
    /// All-zero elements (what ZVC and RL drop).
    pub zeros: u64,
    /// Uncompressed bytes.
    pub raw_bytes: u64,
    /// Compressed bytes per codec.
    pub sizes: Sizes,
    /// Bytes of the chunked frame `cdma compress` writes.
    pub chunked: u64,
    /// Shape of the whole layer the tensor was cut from.
    pub layer_shape: Vec<usize>,
}

impl TensorRow {
    /// Fraction of all-zero elements.
    pub fn sparsity(&self) -> f64 {
        self.zeros as f64 / self.elements.max(1) as f64
    }
    /// Uncompressed / compressed bytes for `codec`.
    pub fn ratio(&self, codec: Codec) -> f64 {
        self.raw_bytes as f64 / self.sizes[codec.index()].max(1) as f64
    }
    /// Uncompressed / chunked frame bytes.
    pub fn chunked_ratio(&self) -> f64 {
        self.raw_bytes as f64 / self.chunked.max(1) as f64
    }
}

/// The element width the codecs use for a corpus dtype.
pub fn elem_of(dtype: Dtype) -> ElemWidth {
    match dtype.elem_bits() {
        32 => ElemWidth::W32,
        16 => ElemWidth::W16,
        _ => ElemWidth::W8,
    }
}

/// What [`measure_bytes`] finds in a tensor's bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Measures {
    /// Compressed bytes per codec.
    pub sizes: Sizes,
    /// Bytes of the chunked frame `cdma compress` writes.
    pub chunked: u64,
    /// All-zero elements.
    pub zeros: u64,
}

/// Measures `data`, elements of `ty`: every codec's size (each decoded back and compared),
/// the chunked frame's and the count of all-zero elements. The tensors of a corpus
/// ([`measure`]) and of the Python package's `analyze` are measured by this.
pub fn measure_bytes(data: &[u8], ty: cdma_model::ElemType) -> Result<Measures, String> {
    let elem = ty.width();
    Ok(Measures {
        sizes: codecs::sizes(data, ty)?,
        chunked: codecs::chunked_size(data, elem)?,
        zeros: data
            .chunks_exact(elem.bytes())
            .filter(|x| x.iter().all(|&b| b == 0))
            .count() as u64,
    })
}

/// Measures one tensor's bytes (zeros recounted from the data, not taken from the manifest).
pub fn measure(e: &Entry, data: &[u8]) -> Result<TensorRow, String> {
    let elem = elem_of(e.dtype);
    let m = measure_bytes(data, e.dtype.elem_type()).map_err(|m| format!("{}: {m}", e.name()))?;
    Ok(TensorRow {
        name: e.name(),
        net: e.net.clone(),
        layer: e.layer.clone(),
        kind: e.kind.clone(),
        dtype: e.dtype,
        step: e.step,
        image: e.image.clone(),
        elements: (data.len() / elem.bytes()) as u64,
        zeros: m.zeros,
        raw_bytes: data.len() as u64,
        sizes: m.sizes,
        chunked: m.chunked,
        layer_shape: e.layer_shape.clone(),
    })
}

/// Measures every tensor of `corpus` whose name contains `filter` (all if `None`), in manifest
/// order; each file is sha256-checked on read.
pub fn measure_corpus(corpus: &Corpus, filter: Option<&str>) -> Result<Vec<TensorRow>, String> {
    corpus
        .entries()
        .iter()
        .filter(|e| filter.is_none_or(|f| e.name().contains(f)))
        .map(|e| {
            let data = corpus.read(e).map_err(|err| err.to_string())?;
            measure(e, &data)
        })
        .collect()
}

/// Which fields a grouping keys on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupBy {
    /// Network.
    pub net: bool,
    /// Layer name.
    pub layer: bool,
    /// Layer kind.
    pub kind: bool,
    /// Element type.
    pub dtype: bool,
    /// Training step.
    pub step: bool,
}

/// Totals of the tensors that share a key. Unkeyed fields are `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    /// Network, if keyed.
    pub net: Option<String>,
    /// Layer, if keyed.
    pub layer: Option<String>,
    /// Kind, if keyed.
    pub kind: Option<String>,
    /// Dtype, if keyed.
    pub dtype: Option<Dtype>,
    /// Step, if keyed (tensors without a step are left out of step groupings).
    pub step: Option<u32>,
    /// Tensors in the group.
    pub tensors: usize,
    /// Elements.
    pub elements: u64,
    /// All-zero elements.
    pub zeros: u64,
    /// Uncompressed bytes.
    pub raw_bytes: u64,
    /// Compressed bytes per codec.
    pub sizes: Sizes,
    /// Bytes of the chunked frames.
    pub chunked: u64,
}

impl Group {
    /// Fraction of all-zero elements over the group.
    pub fn sparsity(&self) -> f64 {
        self.zeros as f64 / self.elements.max(1) as f64
    }
    /// Aggregate ratio: total uncompressed / total compressed bytes (so large tensors weigh
    /// more, as they do on the link).
    pub fn ratio(&self, codec: Codec) -> f64 {
        self.raw_bytes as f64 / self.sizes[codec.index()].max(1) as f64
    }
    /// Aggregate ratio of the chunked frames.
    pub fn chunked_ratio(&self) -> f64 {
        self.raw_bytes as f64 / self.chunked.max(1) as f64
    }
    /// The key as text, e.g. `vgg16 relu f32`.
    pub fn label(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.net.clone());
        parts.extend(self.layer.clone());
        parts.extend(self.kind.clone());
        parts.extend(self.dtype.map(|d| d.name().to_string()));
        parts.extend(self.step.map(|s| format!("step {s}")));
        if parts.is_empty() {
            "all".into()
        } else {
            parts.join(" ")
        }
    }
}

/// Groups `rows` by `by`. Groups come in first-seen order (the manifest lists layers in network
/// order and steps ascending), then stably sorted by dtype when dtype is keyed. With `by.step`,
/// rows without a step are skipped.
pub fn group(rows: &[TensorRow], by: GroupBy) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for r in rows {
        if by.step && r.step.is_none() {
            continue;
        }
        let key = Group {
            net: by.net.then(|| r.net.clone()),
            layer: by.layer.then(|| r.layer.clone()),
            kind: by.kind.then(|| r.kind.clone()),
            dtype: by.dtype.then_some(r.dtype),
            step: if by.step { r.step } else { None },
            ..Group::default()
        };
        let i = match groups.iter().position(|g| {
            (&g.net, &g.layer, &g.kind, g.dtype, g.step)
                == (&key.net, &key.layer, &key.kind, key.dtype, key.step)
        }) {
            Some(i) => i,
            None => {
                groups.push(key);
                groups.len() - 1
            }
        };
        let g = &mut groups[i];
        g.tensors += 1;
        g.elements += r.elements;
        g.zeros += r.zeros;
        g.raw_bytes += r.raw_bytes;
        for (t, s) in g.sizes.iter_mut().zip(r.sizes) {
            *t += s;
        }
        g.chunked += r.chunked;
    }
    if by.dtype {
        groups.sort_by_key(|g| g.dtype);
    }
    groups
}

/// The analysis of a corpus: every tensor and the standard groupings.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every tensor, manifest order.
    pub tensors: Vec<TensorRow>,
    /// Per dtype.
    pub by_dtype: Vec<Group>,
    /// Per network, layer kind and dtype.
    pub by_kind: Vec<Group>,
    /// Per network, layer and dtype (over images / steps).
    pub by_layer: Vec<Group>,
    /// Per training step and dtype (training tensors only).
    pub by_step: Vec<Group>,
    /// Per training step, layer and dtype (training tensors only).
    pub by_step_layer: Vec<Group>,
    /// Everything.
    pub total: Group,
}

impl Analysis {
    /// Builds the groupings of `tensors`.
    pub fn new(tensors: Vec<TensorRow>) -> Analysis {
        let g = |net, layer, kind, dtype, step| GroupBy {
            net,
            layer,
            kind,
            dtype,
            step,
        };
        let total = group(&tensors, GroupBy::default())
            .pop()
            .unwrap_or_else(|| Group { ..Group::default() });
        Analysis {
            by_dtype: group(&tensors, g(false, false, false, true, false)),
            by_kind: group(&tensors, g(true, false, true, true, false)),
            by_layer: group(&tensors, g(true, true, true, true, false)),
            by_step: group(&tensors, g(true, false, false, true, true)),
            by_step_layer: group(&tensors, g(true, true, true, true, true)),
            total,
            tensors,
        }
    }
}

fn ratio_cells(sizes: &Sizes, chunked: u64, raw: u64) -> Vec<String> {
    let mut v: Vec<String> = Codec::ALL
        .iter()
        .map(|c| format!("{:.3}", raw as f64 / sizes[c.index()].max(1) as f64))
        .collect();
    v.push(format!("{:.3}", raw as f64 / chunked.max(1) as f64));
    v
}

fn group_header(first: &[&str]) -> Vec<String> {
    let mut h: Vec<String> = first.iter().map(|s| s.to_string()).collect();
    h.extend(["tensors", "MiB", "sparsity"].iter().map(|s| s.to_string()));
    h.extend(Codec::ALL.iter().map(|c| c.name().to_string()));
    h.push("chunked".into());
    h
}

fn group_row(first: Vec<String>, g: &Group) -> Vec<String> {
    let mut r = first;
    r.push(g.tensors.to_string());
    r.push(format!("{:.2}", g.raw_bytes as f64 / (1u64 << 20) as f64));
    r.push(format!("{:.1} %", 100.0 * g.sparsity()));
    r.extend(ratio_cells(&g.sizes, g.chunked, g.raw_bytes));
    r
}

fn opt(s: &Option<String>) -> String {
    s.clone().unwrap_or_default()
}

fn dt(d: Option<Dtype>) -> String {
    d.map(|d| d.name().to_string()).unwrap_or_default()
}

/// The grouped tables (dtype, net × kind × dtype, step, layer), one [`Table`] per grouping,
/// with a title each.
pub fn tables(a: &Analysis, with_tensors: bool) -> Vec<(String, Table)> {
    let mut out = Vec::new();
    let mut t = Table::new(group_header(&["dtype"]));
    for g in &a.by_dtype {
        t.row(group_row(vec![dt(g.dtype)], g));
    }
    t.rule();
    t.row(group_row(vec!["all".into()], &a.total));
    out.push(("Per dtype".to_string(), t));

    let mut t = Table::new(group_header(&["net", "kind", "dtype"]));
    for g in &a.by_kind {
        t.row(group_row(vec![opt(&g.net), opt(&g.kind), dt(g.dtype)], g));
    }
    out.push(("Per network, layer kind and dtype".to_string(), t));

    let mut t = Table::new(group_header(&["net", "step", "dtype"]));
    for g in &a.by_step {
        let step = g.step.map(|s| s.to_string()).unwrap_or_default();
        t.row(group_row(vec![opt(&g.net), step, dt(g.dtype)], g));
    }
    out.push(("Per training step (whole network)".to_string(), t));

    let mut t = Table::new(group_header(&["net", "layer", "kind", "dtype"]));
    for g in &a.by_layer {
        t.row(group_row(
            vec![opt(&g.net), opt(&g.layer), opt(&g.kind), dt(g.dtype)],
            g,
        ));
    }
    out.push((
        "Per layer (over the images / training steps)".to_string(),
        t,
    ));

    if with_tensors {
        let mut h = vec!["tensor".to_string(), "KiB".into(), "sparsity".into()];
        h.extend(Codec::ALL.iter().map(|c| c.name().to_string()));
        h.push("chunked".into());
        let mut t = Table::new(h);
        for r in &a.tensors {
            let mut row = vec![
                r.name.clone(),
                format!("{:.1}", r.raw_bytes as f64 / 1024.0),
                format!("{:.1} %", 100.0 * r.sparsity()),
            ];
            row.extend(ratio_cells(&r.sizes, r.chunked, r.raw_bytes));
            t.row(row);
        }
        out.push(("Per tensor".to_string(), t));
    }
    out
}

/// Explains the columns (printed under the tables).
pub const LEGEND: &str = "Ratio = uncompressed bytes / compressed bytes, summed over the group. \
ZVC: one ZVC stream over the whole tensor + 32-byte header (the paper's unchunked scheme). \
RL: run-length of zeros (docs/FORMAT.md) + 32-byte header. zlib-6: flate2 zlib stream. \
lz4: lz4_flex block + 4-byte size. zstd-3: one zstd frame. \
chunked: the frame `cdma compress` writes and the DMA engine produces (docs/FORMAT.md: 4 KiB \
chunks, each ZVC or raw, header + chunk index). Sparsity: all-zero elements.";

fn group_json(g: &Group) -> Value {
    let ratios: serde_json::Map<String, Value> = Codec::ALL
        .iter()
        .map(|c| (c.key().to_string(), json!(g.ratio(*c))))
        .collect();
    let sizes: serde_json::Map<String, Value> = Codec::ALL
        .iter()
        .map(|c| (c.key().to_string(), json!(g.sizes[c.index()])))
        .collect();
    json!({
        "net": g.net, "layer": g.layer, "kind": g.kind,
        "dtype": g.dtype.map(|d| d.name()), "step": g.step,
        "tensors": g.tensors, "elements": g.elements, "zeros": g.zeros,
        "sparsity": g.sparsity(), "raw_bytes": g.raw_bytes,
        "sizes": sizes, "ratios": ratios,
        "chunked": {"bytes": g.chunked, "ratio": g.chunked_ratio()},
    })
}

/// The whole analysis as JSON.
pub fn to_json(a: &Analysis) -> Value {
    let tensors: Vec<Value> = a
        .tensors
        .iter()
        .map(|r| {
            let sizes: serde_json::Map<String, Value> = Codec::ALL
                .iter()
                .map(|c| (c.key().to_string(), json!(r.sizes[c.index()])))
                .collect();
            let ratios: serde_json::Map<String, Value> = Codec::ALL
                .iter()
                .map(|c| (c.key().to_string(), json!(r.ratio(*c))))
                .collect();
            json!({
                "name": r.name, "net": r.net, "layer": r.layer, "kind": r.kind,
                "dtype": r.dtype.name(), "step": r.step, "image": r.image,
                "elements": r.elements, "zeros": r.zeros, "sparsity": r.sparsity(),
                "raw_bytes": r.raw_bytes, "layer_shape": r.layer_shape,
                "sizes": sizes, "ratios": ratios,
                "chunked": {"bytes": r.chunked, "ratio": r.chunked_ratio()},
            })
        })
        .collect();
    let groups = |v: &[Group]| Value::Array(v.iter().map(group_json).collect());
    json!({
        "format": "cdma-analyze", "version": 2,
        "codecs": Codec::ALL.iter().map(|c| json!({"key": c.key(), "name": c.name()})).collect::<Vec<_>>(),
        "chunked": "the chunked frame `cdma compress` writes (docs/FORMAT.md), bytes and ratio",
        "ratio": "uncompressed bytes / compressed bytes, summed over the group",
        "total": group_json(&a.total),
        "by_dtype": groups(&a.by_dtype),
        "by_kind": groups(&a.by_kind),
        "by_step": groups(&a.by_step),
        "by_layer": groups(&a.by_layer),
        "by_step_layer": groups(&a.by_step_layer),
        "tensors": tensors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        net: &str,
        layer: &str,
        dtype: Dtype,
        step: Option<u32>,
        zeros: u64,
        z: u64,
    ) -> TensorRow {
        TensorRow {
            name: format!("{net}.{layer}"),
            net: net.into(),
            layer: layer.into(),
            kind: "relu".into(),
            dtype,
            step,
            image: None,
            elements: 100,
            zeros,
            raw_bytes: 400,
            sizes: [z, 200, 300, 350, 250, z],
            chunked: z + 4,
            layer_shape: vec![1, 1, 10, 10],
        }
    }

    #[test]
    fn groups_sum_and_order() {
        let rows = vec![
            row("n", "a", Dtype::Bf16, Some(5), 10, 100),
            row("n", "a", Dtype::F32, Some(5), 20, 200),
            row("n", "b", Dtype::F32, Some(1), 30, 400),
            row("m", "a", Dtype::F32, None, 40, 100),
        ];
        let by_dtype = group(
            &rows,
            GroupBy {
                dtype: true,
                ..GroupBy::default()
            },
        );
        // f32 sorts before bf16 (Dtype order), sums over three rows.
        assert_eq!(by_dtype.len(), 2);
        assert_eq!(by_dtype[0].dtype, Some(Dtype::F32));
        assert_eq!(by_dtype[0].tensors, 3);
        assert_eq!(by_dtype[0].zeros, 90);
        assert_eq!(by_dtype[0].sizes[0], 700);
        assert_eq!(by_dtype[0].chunked, 712);
        assert!((by_dtype[0].chunked_ratio() - 1200.0 / 712.0).abs() < 1e-12);
        assert!((by_dtype[0].ratio(Codec::Zvc) - 1200.0 / 700.0).abs() < 1e-12);
        assert!((by_dtype[0].sparsity() - 0.3).abs() < 1e-12);
        let by_step = group(
            &rows,
            GroupBy {
                step: true,
                ..GroupBy::default()
            },
        );
        // The row without a step is left out; first-seen order: 5 then 1.
        assert_eq!(
            by_step
                .iter()
                .map(|g| (g.step, g.tensors))
                .collect::<Vec<_>>(),
            vec![(Some(5), 2), (Some(1), 1)]
        );
        assert_eq!(by_step[0].label(), "step 5");
    }
}
