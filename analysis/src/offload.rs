//! The offload-time model of docs/MODEL.md: how long a training iteration spends when every
//! captured activation is offloaded to host memory in the forward pass and prefetched back in
//! the backward pass, uncompressed (vDNN) or ZVC-compressed (cDMA).
//!
//! Per activation `i` (in network order): transfer time `t_i = bytes_i / ratio_i / link`, both
//! ways. The transfer overlaps the compute of the layer that consumes the activation (layer
//! `i + 1`): forward `Σ max(F_{i+1}, t_i)`, backward `Σ max(B_{i+1}, t_i)`; the last activation
//! has no consumer in the list and overlaps nothing. Speedup = vDNN time / cDMA time.

use crate::analyze::{Group, TensorRow};
use crate::codecs::Codec;
use crate::table::Table;
use cdma_corpus::Dtype;
use std::collections::BTreeMap;
use std::path::Path;

/// Default link bandwidth: PCIe 3.0 x16, 16 GB/s (10⁹ bytes/s), as in the paper.
pub const DEFAULT_LINK_GBPS: f64 = 16.0;
/// Default sustained compute throughput for the FLOP-derived compute times (10¹² FLOP/s).
pub const DEFAULT_TFLOPS: f64 = 7.0;
/// Backward compute time as a multiple of forward (data gradient + weight gradient, each
/// about one forward pass).
pub const BACKWARD_FACTOR: f64 = 2.0;

/// Name of the pseudo-activation that carries the first layer's compute (the network input,
/// not offloaded).
pub const INPUT: &str = "(input)";

/// One activation in the model: its size, its compression ratio, and the compute its
/// transfers can hide behind.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelLayer {
    /// Layer name (the layer whose output this activation is).
    pub layer: String,
    /// Uncompressed activation bytes (the whole layer, all channels).
    pub bytes: f64,
    /// Compression ratio applied to it (uncompressed / compressed).
    pub ratio: f64,
    /// Forward compute time that overlaps its offload (the consumer layer's), seconds.
    pub forward_s: f64,
    /// Backward compute time that overlaps its prefetch (the consumer layer's), seconds.
    pub backward_s: f64,
}

/// Times of one iteration for one network, seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Pure compute, forward + backward (no offload at all: the oracle).
    pub compute_s: f64,
    /// Transfer time of all offloads, uncompressed (prefetch takes the same).
    pub offload_raw_s: f64,
    /// Transfer time of all offloads, compressed.
    pub offload_comp_s: f64,
    /// Forward + backward with uncompressed offload/prefetch (vDNN).
    pub vdnn_s: f64,
    /// Forward + backward with compressed offload/prefetch (cDMA).
    pub cdma_s: f64,
}

impl Totals {
    /// vDNN time / cDMA time.
    pub fn speedup(&self) -> f64 {
        self.vdnn_s / self.cdma_s
    }
}

/// Evaluates the model over `layers` at `link` bytes/s.
pub fn simulate(layers: &[ModelLayer], link: f64) -> Totals {
    let mut t = Totals::default();
    for l in layers {
        let raw = l.bytes / link;
        let comp = l.bytes / l.ratio / link;
        t.compute_s += l.forward_s + l.backward_s;
        t.offload_raw_s += raw;
        t.offload_comp_s += comp;
        // Offload in the forward pass, prefetch in the backward pass: each hides behind the
        // consumer's compute or exposes the rest.
        t.vdnn_s += l.forward_s.max(raw) + l.backward_s.max(raw);
        t.cdma_s += l.forward_s.max(comp) + l.backward_s.max(comp);
    }
    t
}

/// A layer as the manifest describes it (first tensor seen of that layer).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerShape {
    /// Layer name.
    pub layer: String,
    /// `relu`, `maxpool` or `fc`.
    pub kind: String,
    /// Whole-layer shape (NCHW or NC).
    pub shape: Vec<usize>,
}

/// The layers of each network in first-seen (network) order, with their whole-layer shapes,
/// from analysed tensors. Fails if one layer is given two different shapes or kinds.
pub fn layer_shapes(rows: &[TensorRow]) -> Result<BTreeMap<String, Vec<LayerShape>>, String> {
    let mut m: BTreeMap<String, Vec<LayerShape>> = BTreeMap::new();
    for r in rows {
        let v = m.entry(r.net.clone()).or_default();
        match v.iter().find(|l| l.layer == r.layer) {
            Some(l) if l.shape != r.layer_shape || l.kind != r.kind => {
                return Err(format!(
                    "{} {}: layer described as {} {:?} and as {} {:?}",
                    r.net, r.layer, l.kind, l.shape, r.kind, r.layer_shape
                ))
            }
            Some(_) => {}
            None => v.push(LayerShape {
                layer: r.layer.clone(),
                kind: r.kind.clone(),
                shape: r.layer_shape.clone(),
            }),
        }
    }
    Ok(m)
}

/// Input channels of the corpus networks (not in the manifest): VGG16 takes RGB, the
/// Fashion-MNIST CNN greyscale.
pub fn input_channels(net: &str) -> Option<usize> {
    match net {
        "vgg16" => Some(3),
        "fmnist" => Some(1),
        _ => None,
    }
}

/// Forward FLOPs of each layer, from the shapes: a conv (NCHW, `relu`) is a 3×3 "same"
/// convolution from the previous layer's channels (`2·N·C·H·W·C_in·9`), a `maxpool` a 2×2
/// window (4 operations per output), an NC layer fully connected from the whole previous
/// activation (`2·N·out·in`). The corpus networks are built exactly so (scripts/activations).
pub fn layer_flops(net: &str, layers: &[LayerShape]) -> Result<Vec<f64>, String> {
    let cin0 = input_channels(net).ok_or_else(|| {
        format!("no FLOP model for network {net:?}: give per-layer compute times (--compute FILE)")
    })?;
    let mut out = Vec::with_capacity(layers.len());
    for (i, l) in layers.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &layers[p].shape);
        let n = *l.shape.first().ok_or("empty layer shape")? as f64;
        let per_sample: f64 = l.shape[1..].iter().map(|&d| d as f64).product();
        let f = match (l.shape.len(), l.kind.as_str()) {
            (4, "maxpool") => 4.0 * n * per_sample,
            (4, _) => {
                let cin = prev.map_or(cin0, |p| p[1]) as f64;
                2.0 * n * per_sample * cin * 9.0
            }
            (2, _) => {
                let fan_in: f64 = match prev {
                    Some(p) => p[1..].iter().map(|&d| d as f64).product(),
                    None => return Err(format!("{net}: fully connected first layer {}", l.layer)),
                };
                2.0 * n * per_sample * fan_in
            }
            _ => {
                return Err(format!(
                    "{net} {}: unsupported shape {:?}",
                    l.layer, l.shape
                ))
            }
        };
        out.push(f);
    }
    Ok(out)
}

/// (forward, backward) compute seconds per (net, layer).
pub type ComputeTimes = BTreeMap<(String, String), (f64, f64)>;

/// Per-layer compute times read from a file: lines `net layer forward_ms backward_ms`
/// (whitespace-separated; `#` starts a comment). Keyed by (net, layer); seconds.
pub fn read_compute_file(path: &Path) -> Result<ComputeTimes, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_compute(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the compute-time format of [`read_compute_file`].
pub fn parse_compute(text: &str) -> Result<ComputeTimes, String> {
    let mut m = BTreeMap::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let ms = |s: &str| -> Result<f64, String> {
            s.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("line {}: {s:?} is not a time in ms", no + 1))
        };
        if f.len() != 4 {
            return Err(format!(
                "line {}: expected `net layer forward_ms backward_ms`, got {} fields",
                no + 1,
                f.len()
            ));
        }
        let key = (f[0].to_string(), f[1].to_string());
        if m.insert(key, (ms(f[2])? / 1e3, ms(f[3])? / 1e3)).is_some() {
            return Err(format!("line {}: {} {} given twice", no + 1, f[0], f[1]));
        }
    }
    Ok(m)
}

/// Where compute times come from.
#[derive(Clone, Debug)]
pub enum Compute {
    /// From FLOPs at this many FLOP/s (forward), backward = [`BACKWARD_FACTOR`] × forward.
    Flops(f64),
    /// From a file (see [`read_compute_file`]), seconds per (net, layer).
    File(ComputeTimes),
}

/// The model's result for one network and dtype.
#[derive(Clone, Debug, PartialEq)]
pub struct NetReport {
    /// Network.
    pub net: String,
    /// Element type (sizes are in it).
    pub dtype: Dtype,
    /// Codec whose ratios compress the offload.
    pub codec: Codec,
    /// Batch size of the layer shapes.
    pub batch: usize,
    /// The activations, network order.
    pub layers: Vec<ModelLayer>,
    /// The times.
    pub totals: Totals,
}

/// Builds the model for every (net, dtype) of `by_layer` (groups keyed by net, layer, kind,
/// dtype, in network order) with `codec`'s ratios, whole-layer sizes from `shapes`
/// (net → layers in order), and evaluates it at `link` bytes/s.
pub fn model_nets(
    by_layer: &[Group],
    shapes: &BTreeMap<String, Vec<LayerShape>>,
    codec: Codec,
    compute: &Compute,
    link: f64,
) -> Result<Vec<NetReport>, String> {
    let mut out = Vec::new();
    for (net, layers) in shapes {
        // Per-layer forward/backward of the producing layer.
        let own: Vec<(f64, f64)> = match compute {
            Compute::Flops(rate) => layer_flops(net, layers)?
                .into_iter()
                .map(|f| (f / rate, BACKWARD_FACTOR * f / rate))
                .collect(),
            Compute::File(m) => layers
                .iter()
                .map(|l| {
                    m.get(&(net.clone(), l.layer.clone()))
                        .copied()
                        .ok_or_else(|| format!("compute file has no line for {net} {}", l.layer))
                })
                .collect::<Result<_, _>>()?,
        };
        for dtype in Dtype::ALL {
            let mut ml = Vec::new();
            for (i, l) in layers.iter().enumerate() {
                let Some(g) = by_layer.iter().find(|g| {
                    g.net.as_deref() == Some(net)
                        && g.layer.as_deref() == Some(&l.layer)
                        && g.dtype == Some(dtype)
                }) else {
                    ml.clear();
                    break;
                };
                let elems: f64 = l.shape.iter().map(|&d| d as f64).product();
                let (f, b) = own.get(i + 1).copied().unwrap_or((0.0, 0.0));
                ml.push(ModelLayer {
                    layer: l.layer.clone(),
                    bytes: elems * dtype.elem_bytes() as f64,
                    ratio: g.ratio(codec),
                    forward_s: f,
                    backward_s: b,
                });
            }
            if ml.is_empty() {
                continue; // this dtype is not in the corpus for every layer of the net
            }
            // The first layer reads the network input, which is not offloaded: its compute
            // counts in every total but hides no transfer.
            let (f0, b0) = own.first().copied().unwrap_or((0.0, 0.0));
            ml.insert(
                0,
                ModelLayer {
                    layer: INPUT.into(),
                    bytes: 0.0,
                    ratio: 1.0,
                    forward_s: f0,
                    backward_s: b0,
                },
            );
            out.push(NetReport {
                net: net.clone(),
                dtype,
                codec,
                batch: layers[0].shape[0],
                totals: simulate(&ml, link),
                layers: ml,
            });
        }
    }
    Ok(out)
}

/// Milliseconds, three decimals.
fn ms(s: f64) -> String {
    format!("{:.3}", s * 1e3)
}

/// Microseconds, two decimals (per-layer times span from nanoseconds to milliseconds).
fn us(s: f64) -> String {
    format!("{:.2}", s * 1e6)
}

/// Summary table: one row per (net, dtype) of `reports` (all for the same codec).
pub fn summary_table(reports: &[NetReport]) -> Table {
    let mut t = Table::new(
        [
            "net",
            "dtype",
            "batch",
            "act. MiB",
            "ratio",
            "compute ms",
            "offload ms vDNN",
            "offload ms cDMA",
            "iter ms vDNN",
            "iter ms cDMA",
            "speedup",
        ]
        .map(String::from)
        .to_vec(),
    );
    for r in reports {
        let bytes: f64 = r.layers.iter().map(|l| l.bytes).sum();
        let comp: f64 = r.layers.iter().map(|l| l.bytes / l.ratio).sum();
        t.row(vec![
            r.net.clone(),
            r.dtype.name().into(),
            r.batch.to_string(),
            format!("{:.2}", bytes / (1u64 << 20) as f64),
            format!("{:.3}", bytes / comp),
            ms(r.totals.compute_s),
            ms(r.totals.offload_raw_s),
            ms(r.totals.offload_comp_s),
            ms(r.totals.vdnn_s),
            ms(r.totals.cdma_s),
            format!("{:.3}x", r.totals.speedup()),
        ]);
    }
    t
}

/// Speedup over vDNN per codec (rows net × dtype), from reports computed for every codec.
pub fn codec_table(all: &[NetReport]) -> Table {
    let mut h = vec!["net".to_string(), "dtype".into()];
    h.extend(Codec::ALL.iter().map(|c| c.name().to_string()));
    let mut t = Table::new(h);
    let mut keys: Vec<(String, Dtype)> = Vec::new();
    for r in all {
        if !keys.contains(&(r.net.clone(), r.dtype)) {
            keys.push((r.net.clone(), r.dtype));
        }
    }
    for (net, dtype) in keys {
        let mut row = vec![net.clone(), dtype.name().to_string()];
        for c in Codec::ALL {
            row.push(
                all.iter()
                    .find(|r| r.net == net && r.dtype == dtype && r.codec == c)
                    .map_or("n/a".into(), |r| format!("{:.3}x", r.totals.speedup())),
            );
        }
        t.row(row);
    }
    t
}

/// Per-layer table of one report.
pub fn layer_table(r: &NetReport, link: f64) -> Table {
    let mut t = Table::new(
        [
            "layer",
            "MiB",
            "ratio",
            "overlapped fwd µs",
            "overlapped bwd µs",
            "xfer µs vDNN",
            "xfer µs cDMA",
        ]
        .map(String::from)
        .to_vec(),
    );
    for l in &r.layers {
        t.row(vec![
            l.layer.clone(),
            format!("{:.3}", l.bytes / (1u64 << 20) as f64),
            format!("{:.3}", l.ratio),
            us(l.forward_s),
            us(l.backward_s),
            us(l.bytes / link),
            us(l.bytes / l.ratio / link),
        ]);
    }
    t
}

/// Reports as JSON.
pub fn to_json(reports: &[NetReport], link: f64, compute: &Compute) -> serde_json::Value {
    use serde_json::json;
    let src = match compute {
        Compute::Flops(rate) => {
            json!({"from": "flops", "flops_per_s": rate, "backward_factor": BACKWARD_FACTOR})
        }
        Compute::File(_) => json!({"from": "file"}),
    };
    json!({
        "link_bytes_per_s": link,
        "compute": src,
        "reports": reports.iter().map(|r| json!({
            "net": r.net, "dtype": r.dtype.name(), "codec": r.codec.key(), "batch": r.batch,
            "compute_s": r.totals.compute_s,
            "offload_raw_s": r.totals.offload_raw_s, "offload_comp_s": r.totals.offload_comp_s,
            "prefetch_raw_s": r.totals.offload_raw_s, "prefetch_comp_s": r.totals.offload_comp_s,
            "vdnn_s": r.totals.vdnn_s, "cdma_s": r.totals.cdma_s,
            "speedup": r.totals.speedup(),
            "layers": r.layers.iter().map(|l| json!({
                "layer": l.layer, "bytes": l.bytes, "ratio": l.ratio,
                "overlapped_forward_s": l.forward_s, "overlapped_backward_s": l.backward_s,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two layers at 10 bytes/s, computed by hand:
    /// a: 100 B, ratio 2, F=4 s, B=8 s → raw 10 s, comp 5 s;
    ///    vDNN max(4,10)+max(8,10) = 20, cDMA max(4,5)+max(8,5) = 13.
    /// b: 40 B, ratio 4, F=0, B=0 (last) → raw 4 s, comp 1 s; vDNN 8, cDMA 2.
    #[test]
    fn two_layer_example() {
        let layers = vec![
            ModelLayer {
                layer: "a".into(),
                bytes: 100.0,
                ratio: 2.0,
                forward_s: 4.0,
                backward_s: 8.0,
            },
            ModelLayer {
                layer: "b".into(),
                bytes: 40.0,
                ratio: 4.0,
                forward_s: 0.0,
                backward_s: 0.0,
            },
        ];
        let t = simulate(&layers, 10.0);
        assert_eq!(
            t,
            Totals {
                compute_s: 12.0,
                offload_raw_s: 14.0,
                offload_comp_s: 6.0,
                vdnn_s: 28.0,
                cdma_s: 15.0,
            }
        );
        assert!((t.speedup() - 28.0 / 15.0).abs() < 1e-12);
    }

    #[test]
    fn flops_of_a_tiny_net() {
        let l = |layer: &str, kind: &str, shape: &[usize]| LayerShape {
            layer: layer.into(),
            kind: kind.into(),
            shape: shape.to_vec(),
        };
        let layers = [
            l("conv1", "relu", &[2, 4, 8, 8]),
            l("pool1", "maxpool", &[2, 4, 4, 4]),
            l("fc", "fc", &[2, 10]),
        ];
        let f = layer_flops("fmnist", &layers).unwrap();
        // conv: 2·2·(4·8·8)·1·9 = 9216; pool: 4·2·64 = 512; fc: 2·2·10·64 = 2560.
        assert_eq!(f, vec![9216.0, 512.0, 2560.0]);
        assert!(layer_flops("resnet", &layers).is_err());
    }

    #[test]
    fn compute_file_parses_and_rejects() {
        let m = parse_compute("# net layer fwd bwd\nvgg16 conv1_1 1.5 3 # ms\n\n").unwrap();
        assert_eq!(m[&("vgg16".into(), "conv1_1".into())], (0.0015, 0.003));
        assert!(parse_compute("vgg16 conv1_1 1.5").is_err());
        assert!(parse_compute("vgg16 conv1_1 x 1").is_err());
        assert!(parse_compute("a b -1 1").is_err());
        assert!(parse_compute("a b 1 1\na b 2 2").is_err());
    }
}
