//! End-to-end tests of the analysis over corpora: the bundled one (ZVC sizes equal the frames
//! `cdma compress` writes) and a tiny synthetic one whose every figure is computed by hand.

use cdma_analysis::analyze::{measure, measure_corpus, Analysis};
use cdma_analysis::codecs::Codec;
use cdma_analysis::offload::{layer_shapes, model_nets, parse_compute, Compute};
use cdma_analysis::plot;
use cdma_corpus::{Corpus, Dtype};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cdma-analysis-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `cdma compress` writes `cdma_model::compress(data, elem)`; analyze must report that size
/// as its chunked size, and the unchunked ZVC size as header + one ZVC stream.
#[test]
fn chunked_size_equals_compressed_frame_on_corpus_files() {
    let corpus = Corpus::open_default().unwrap();
    let names = [
        "vgg16.chelsea.conv2_2.relu.f32",
        "fmnist.step1200.pool2.maxpool.bf16",
        "vgg16.rocket.pool5.maxpool.f16",
        "fmnist.step0000.fc2.fc.f32",
    ];
    for name in names {
        let e = corpus.find(name).unwrap();
        let data = corpus.read(e).unwrap();
        let row = measure(e, &data).unwrap();
        let elem = cdma_model::ElemWidth::from_bits(e.dtype.elem_bits()).unwrap();
        let frame = cdma_model::compress(&data, elem).unwrap();
        assert_eq!(row.chunked, frame.len() as u64, "{name}");
        let stream = cdma_model::zvc::encoded_len(&data, elem).unwrap();
        assert_eq!(row.sizes[Codec::Zvc.index()], 32 + stream as u64, "{name}");
        // Chunking costs at most the index, and raw fallback can only help.
        let n = data.len().div_ceil(4096) as u64;
        assert!(
            row.chunked <= row.sizes[Codec::Zvc.index()] + 4 * n,
            "{name}"
        );
        assert_eq!(row.zeros as usize, e.pos_zero, "{name}: zeros recounted");
        assert_eq!(row.raw_bytes as usize, data.len());
    }
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A toy training net: layers c1 (relu, cut 1 of 4 channels of 8×8) and p1 (maxpool, 1 of 4
/// channels of 4×4) at steps 0 and 10 in f32, and c1 at step 0 in bf16.
fn toy_corpus(tag: &str) -> (PathBuf, Corpus) {
    let dir = tmp(tag);
    // ZVC sizes by hand (32-byte header + per block 4 + 4·non-zeros, or 2· for bf16), and the
    // chunked frame (one chunk each: header + 4-byte index entry + ZVC, or raw if ZVC is not
    // smaller than the tensor):
    // c1@0 f32: 64 elements, every other non-zero → 32 + 2·(4 + 16·4) = 168, chunked 172
    // c1@10 f32: one non-zero                    → 32 + 4 + 4 + 4     = 44,  chunked 48
    // p1@0 f32: 16 non-zero                      → 32 + 4 + 16·4      = 100, chunked raw
    //                                                                  32 + 4 + 64 = 100
    // p1@10 f32: 8 of 16 non-zero                → 32 + 4 + 8·4       = 68,  chunked 72
    // c1@0 bf16: 64, every other non-zero        → 32 + 2·(4 + 16·2)  = 104, chunked 108
    let c1_0 = f32s(
        &(0..64)
            .map(|i| if i % 2 == 1 { i as f32 } else { 0.0 })
            .collect::<Vec<_>>(),
    );
    let c1_10 = f32s(
        &(0..64)
            .map(|i| if i == 40 { 2.5 } else { 0.0 })
            .collect::<Vec<_>>(),
    );
    let p1_0 = f32s(&(0..16).map(|i| i as f32 + 1.0).collect::<Vec<_>>());
    let p1_10 = f32s(
        &(0..16)
            .map(|i| if i < 8 { 3.0 } else { 0.0 })
            .collect::<Vec<_>>(),
    );
    let c1_0_bf16: Vec<u8> = (0..64u16)
        .flat_map(|i| if i % 2 == 1 { 0x3F80u16 + i } else { 0 }.to_le_bytes())
        .collect();
    // (step, layer, dtype, data): c1 is relu over 8×8, p1 maxpool over 4×4, 1 of 4 channels.
    let files = [
        (0, "c1", "f32", &c1_0),
        (0, "c1", "bf16", &c1_0_bf16),
        (0, "p1", "f32", &p1_0),
        (10, "c1", "f32", &c1_10),
        (10, "p1", "f32", &p1_10),
    ];
    let mut tensors = Vec::new();
    for (step, layer, dtype, data) in files {
        let (kind, side) = if layer == "c1" {
            ("relu", 8)
        } else {
            ("maxpool", 4)
        };
        let file = format!("toy.step{step:04}.{layer}.{kind}.{dtype}.bin");
        let (shape, layer_shape) = ([1, 1, side, side], [1, 4, side, side]);
        std::fs::write(dir.join(&file), data).unwrap();
        let eb = if dtype == "f32" { 4 } else { 2 };
        let elements = data.len() / eb;
        let zeros = data
            .chunks(eb)
            .filter(|c| c.iter().all(|&b| b == 0))
            .count();
        tensors.push(json!({
            "file": file, "dtype": dtype, "shape": shape, "layout": "NCHW",
            "elements": elements, "pos_zero": zeros, "neg_zero": 0, "non_finite": 0,
            "sparsity": zeros as f64 / elements as f64,
            "sha256": hex::encode(Sha256::digest(data)),
            "net": "toy", "layer": layer, "kind": kind, "phase": "training",
            "step": step, "image": null, "layer_shape": layer_shape,
            "layer_sparsity": 0.5, "channels": [0, 1],
            "provenance": {"packages": {}},
        }));
    }
    let manifest = json!({
        "format": "cdma-activations", "version": 1, "generator": "test",
        "sparsity": "test", "max_sparsity_gap": 0.03, "tensors": tensors,
    });
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
    let corpus = Corpus::open(&dir).unwrap();
    (dir, corpus)
}

#[test]
fn grouping_on_a_synthetic_manifest() {
    let (dir, corpus) = toy_corpus("group");
    let rows = measure_corpus(&corpus, None).unwrap();
    let zvc: Vec<u64> = rows.iter().map(|r| r.sizes[Codec::Zvc.index()]).collect();
    assert_eq!(zvc, vec![168, 104, 100, 44, 68]);
    let chunked: Vec<u64> = rows.iter().map(|r| r.chunked).collect();
    assert_eq!(chunked, vec![172, 108, 100, 48, 72]);
    let a = Analysis::new(rows);

    // Per dtype: f32 first (4 tensors), then bf16.
    let d: Vec<_> = a
        .by_dtype
        .iter()
        .map(|g| (g.dtype, g.tensors, g.raw_bytes, g.sizes[0], g.zeros))
        .collect();
    assert_eq!(
        d,
        vec![
            (
                Some(Dtype::F32),
                4,
                640,
                168 + 100 + 44 + 68,
                32 + 63 + 8 // c1@0, c1@10, p1@10 (p1@0 has none)
            ),
            (Some(Dtype::Bf16), 1, 128, 104, 32),
        ]
    );
    assert_eq!(
        (a.total.tensors, a.total.raw_bytes, a.total.sizes[0]),
        (5, 768, 484)
    );
    assert_eq!(a.total.chunked, 172 + 108 + 100 + 48 + 72);

    // Per step (f32): step 0 = c1 + p1 = 320 bytes → 268; step 10 → 112.
    let s: Vec<_> = a
        .by_step
        .iter()
        .filter(|g| g.dtype == Some(Dtype::F32))
        .map(|g| (g.step, g.raw_bytes, g.sizes[0], g.zeros))
        .collect();
    assert_eq!(s, vec![(Some(0), 320, 268, 32), (Some(10), 320, 112, 71)]);
    assert!((a.by_step[0].ratio(Codec::Zvc) - 320.0 / 268.0).abs() < 1e-12);
    assert!((a.by_step[0].chunked_ratio() - 320.0 / 272.0).abs() < 1e-12);

    // Per kind and per layer (over steps), f32: relu = c1@0 + c1@10.
    let relu = a
        .by_kind
        .iter()
        .find(|g| g.kind.as_deref() == Some("relu") && g.dtype == Some(Dtype::F32))
        .unwrap();
    assert_eq!((relu.tensors, relu.raw_bytes, relu.sizes[0]), (2, 512, 212));
    let layers: Vec<_> = a
        .by_layer
        .iter()
        .map(|g| (g.layer.clone().unwrap(), g.dtype.unwrap(), g.sizes[0]))
        .collect();
    assert_eq!(
        layers,
        vec![
            ("c1".to_string(), Dtype::F32, 212),
            ("p1".to_string(), Dtype::F32, 168),
            ("c1".to_string(), Dtype::Bf16, 104),
        ]
    );

    // The text/markdown/JSON renderings carry the figures, the chunked ones included.
    let json = cdma_analysis::analyze::to_json(&a);
    assert_eq!(json["total"]["sizes"]["zvc"], 484);
    assert_eq!(json["total"]["chunked"]["bytes"], 500);
    assert_eq!(json["tensors"][3]["sizes"]["zvc"], 44);
    assert_eq!(json["tensors"][3]["chunked"]["bytes"], 48);
    assert_eq!(json["tensors"][3]["chunked"]["ratio"], 256.0 / 48.0);
    let text: String = cdma_analysis::analyze::tables(&a, true)
        .iter()
        .map(|(_, t)| t.text())
        .collect();
    assert!(text.contains("toy.step0010.c1.relu.f32"));
    assert!(text.contains(&format!("{:.3}", 320.0 / 268.0)));
    assert!(text.contains(&format!("{:.3}", 320.0 / 272.0)));
    assert!(!text.contains("n/a"));
    let _ = std::fs::remove_dir_all(dir);
}

/// The offload model on the toy net at 10⁵ B/s with compute from a file, by hand:
/// (input): no transfer; c1's own compute (1 ms fwd, 2 ms bwd) counts everywhere: 3 ms.
/// c1 (f32) = 4·8·8·4 = 1024 B, ratio 512/212 → raw 10.24 ms, compressed 4.24 ms; it overlaps
/// p1's compute (3 ms fwd, 6 ms bwd): vDNN 20.48 ms, cDMA 4.24 + 6 = 10.24 ms.
/// p1 = 4·4·4·4 = 256 B, ratio 128/168 (ZVC expands it) → raw 2.56 ms, compressed 3.36 ms,
/// last layer, nothing to hide behind: vDNN 5.12 ms, cDMA 6.72 ms.
/// Totals: compute 12 ms, vDNN 28.6 ms, cDMA 19.96 ms, speedup 28.6 / 19.96. bf16 has no p1
/// tensor: no bf16 report.
#[test]
fn offload_model_on_the_synthetic_manifest() {
    let (dir, corpus) = toy_corpus("offload");
    let a = Analysis::new(measure_corpus(&corpus, None).unwrap());
    let shapes = layer_shapes(&a.tensors).unwrap();
    let compute = Compute::File(parse_compute("toy c1 1 2\ntoy p1 3 6\n").unwrap());
    let r = model_nets(&a.by_layer, &shapes, Codec::Zvc, &compute, 1e5).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].dtype, Dtype::F32);
    let t = &r[0].totals;
    let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
    assert!(close(t.vdnn_s, 28.6e-3), "{t:?}");
    assert!(close(t.cdma_s, 19.96e-3), "{t:?}");
    assert!(close(t.compute_s, 12e-3), "{t:?}");
    assert!(close(t.speedup(), 28.6 / 19.96));
    assert_eq!(r[0].layers[0].layer, "(input)");
    assert!(close(r[0].layers[1].bytes, 1024.0));
    // FLOP-derived compute needs a known network.
    assert!(model_nets(&a.by_layer, &shapes, Codec::Zvc, &Compute::Flops(1e12), 1e5).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn svg_plots_are_written_with_their_series() {
    let (dir, corpus) = toy_corpus("svg");
    let a = Analysis::new(measure_corpus(&corpus, None).unwrap());
    let out = dir.join("svg");
    let files = plot::write_all(&a, &out).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // bf16 has a single step: no training plot for it.
    assert_eq!(
        names,
        vec![
            "ratio_per_layer.toy.f32.svg",
            "training.toy.f32.svg",
            "ratio_per_layer.toy.bf16.svg"
        ]
    );
    let bars = std::fs::read_to_string(&files[0]).unwrap();
    for s in [
        "<svg",
        "ZVC",
        "RL",
        "zlib-6",
        "lz4",
        "zstd-3",
        "c1",
        "p1",
        "ratio = uncompressed",
    ] {
        assert!(bars.contains(s), "bar chart lacks {s:?}");
    }
    let steps = std::fs::read_to_string(&files[1]).unwrap();
    for s in [
        "sparsity",
        "ZVC ratio",
        "training step",
        "c1",
        "p1",
        "zstd-3",
        "\n10\n",
    ] {
        assert!(steps.contains(s), "training plot lacks {s:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
