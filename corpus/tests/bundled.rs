//! Tests against the bundled corpus in data/activations and against damaged copies of it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use cdma_corpus::{BitStats, Corpus, CorpusError, Dtype, TensorData};

/// Upper bound on the corpus size that the repository promises (issue: ≤ 40 MiB in all).
const MAX_TOTAL_BYTES: u64 = 40 << 20;

fn corpus() -> Corpus {
    Corpus::open_default().unwrap_or_else(|e| panic!("bundled corpus: {e}"))
}

/// A fresh empty directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("cdma-corpus-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies the manifest and the files of `entries` into `dir`, with a manifest listing only them.
fn copy_subset(c: &Corpus, names: &[&str], dir: &Path) {
    let text = std::fs::read_to_string(c.dir().join("manifest.json")).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tensors = m["tensors"].as_array_mut().unwrap();
    tensors.retain(|t| {
        let stem = t["file"].as_str().unwrap().trim_end_matches(".bin");
        names.contains(&stem)
    });
    assert_eq!(tensors.len(), names.len());
    for n in names {
        let f = format!("{n}.bin");
        std::fs::copy(c.dir().join(&f), dir.join(&f)).unwrap();
    }
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string(&m).unwrap(),
    )
    .unwrap();
}

#[test]
fn every_sha256_verifies_and_counts_match_the_data() {
    let c = corpus();
    let mut total = 0u64;
    for e in c.entries() {
        let bytes = c.read(e).unwrap_or_else(|err| panic!("{err}"));
        total += bytes.len() as u64;
        let s = BitStats::of(e.dtype, &bytes);
        let name = e.name();
        assert_eq!(s.elements, e.elements, "{name}: elements");
        assert_eq!(s.pos_zero, e.pos_zero, "{name}: +0 count");
        assert_eq!(s.neg_zero, e.neg_zero, "{name}: -0 count");
        assert_eq!(s.non_finite, e.non_finite, "{name}: non-finite count");
        // float_roundtrip parsing + the same correctly rounded division: exactly equal.
        assert_eq!(s.sparsity(), e.sparsity, "{name}: sparsity");
    }
    assert!(total <= MAX_TOTAL_BYTES, "corpus is {total} bytes");
}

#[test]
fn no_stray_or_missing_files() {
    let c = corpus();
    let listed: BTreeSet<String> = c.entries().iter().map(|e| e.file.clone()).collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(c.dir())
        .unwrap()
        .map(|d| d.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".bin"))
        .collect();
    assert_eq!(listed, on_disk);
}

#[test]
fn coverage_meets_the_issue() {
    let c = corpus();
    let entries = c.entries();
    assert!(entries.len() >= 150, "{} tensors", entries.len());

    // VGG16: ≥ 15 layers on ≥ 2 photos, each in every dtype (f32, bf16, f16, e4m3, e5m2).
    let mut vgg: BTreeMap<(&str, &str), BTreeSet<Dtype>> = BTreeMap::new();
    // Fashion-MNIST: ≥ 7 checkpoints, each layer in every dtype.
    let mut fm: BTreeMap<(u32, &str), BTreeSet<Dtype>> = BTreeMap::new();
    for e in entries {
        match (e.net.as_str(), e.phase.as_str()) {
            ("vgg16", "inference") => {
                let image = e
                    .image
                    .as_deref()
                    .expect("inference entries name their image");
                assert_eq!(e.step, None);
                vgg.entry((image, &e.layer)).or_default().insert(e.dtype);
            }
            ("fmnist", "training") => {
                let step = e.step.expect("training entries have a step");
                assert!(e.provenance.seed.is_some(), "{}: no seed", e.file);
                fm.entry((step, &e.layer)).or_default().insert(e.dtype);
            }
            other => panic!("{}: unexpected net/phase {other:?}", e.file),
        }
        assert!(
            ["relu", "maxpool", "fc"].contains(&e.kind.as_str()),
            "{}: kind {}",
            e.file,
            e.kind
        );
        assert!(
            e.provenance.packages.contains_key("jax"),
            "{}: provenance",
            e.file
        );
    }
    let all: BTreeSet<Dtype> = Dtype::FLOATS.into_iter().collect();
    assert!(vgg.values().chain(fm.values()).all(|d| *d == all));
    let images: BTreeSet<&str> = vgg.keys().map(|k| k.0).collect();
    assert!(images.len() >= 2, "{images:?}");
    for img in &images {
        let layers = vgg.keys().filter(|k| k.0 == *img).count();
        assert!(layers >= 15, "{img}: {layers} layers");
    }
    let steps: BTreeSet<u32> = fm.keys().map(|k| k.0).collect();
    assert!(steps.len() >= 7, "{steps:?}");
}

#[test]
fn samples_track_their_layer_sparsity() {
    for e in corpus().entries() {
        let gap = (e.sparsity - e.layer_sparsity).abs();
        assert!(
            gap <= 0.03,
            "{}: sample {} vs layer {}",
            e.file,
            e.sparsity,
            e.layer_sparsity
        );
        assert!(e.elements <= 131_072, "{}: {} elements", e.file, e.elements);
    }
}

#[test]
fn dtypes_of_a_layer_hold_the_same_elements() {
    // The three dtypes of one capture are cut identically, and bf16/f16 stay close to f32.
    let c = corpus();
    let e32 = c.find("vgg16.coffee.conv3_1.relu.f32").unwrap();
    let ebf = c.find("vgg16.coffee.conv3_1.relu.bf16").unwrap();
    let e16 = c.find("vgg16.coffee.conv3_1.relu.f16").unwrap();
    assert_eq!((&e32.shape, e32.channels), (&ebf.shape, ebf.channels));
    assert_eq!((&e32.shape, e32.channels), (&e16.shape, e16.channels));
    let v32 = c.read_f32(e32).unwrap();
    let (TensorData::Bf16(vbf), TensorData::F16(v16)) =
        (c.tensor(ebf).unwrap().data, c.tensor(e16).unwrap().data)
    else {
        panic!("typed data of the wrong dtype")
    };
    let scale = v32.iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(scale > 0.0);
    for (i, &a) in v32.iter().enumerate() {
        let b = cdma_corpus::bf16_to_f32(vbf[i]);
        let h = cdma_corpus::f16_to_f32(v16[i]);
        // Native low-precision inference drifts from fp32, but only by a few % of the range.
        assert!((a - b).abs() <= 0.05 * scale, "bf16 [{i}] {a} vs {b}");
        assert!((a - h).abs() <= 0.05 * scale, "f16 [{i}] {a} vs {h}");
    }
    // Wrong-dtype typed reads are refused with a clear error.
    let err = c.read_f32(ebf).unwrap_err();
    assert!(matches!(err, CorpusError::Dtype { .. }), "{err}");
    assert!(err.to_string().contains("bf16"), "{err}");
}

#[test]
fn fp8_tensors_are_the_recipe_cast_of_their_f32_source() {
    // Re-derives every e4m3/e5m2 file from its f32 source with an implementation independent of
    // the generator's (ml_dtypes): scale = max / amax in f32, saturating RNE cast of x * scale.
    let c = corpus();
    let mut n = [0usize; 2];
    for e in c.entries().iter().filter(|e| e.dtype.is_fp8()) {
        let src = c.source_of(e).expect("fp8 entries name a listed source");
        assert_eq!(src.dtype, Dtype::F32, "{}", e.file);
        let (want, scale) = cdma_corpus::fp8::quantize(e.dtype, &c.read_f32(src).unwrap())
            .expect("finite f32 sources");
        assert_eq!(Some(f64::from(scale)), e.fp8_scale, "{}: fp8_scale", e.file);
        let got = c.read_u8(e).unwrap();
        let bad = got.iter().zip(&want).position(|(g, w)| g != w);
        assert!(bad.is_none(), "{}: element {bad:?} differs", e.file);
        // Dequantized, the tensor stays within half an fp8 step of the source (relative 2^-4
        // for e4m3, 2^-3 for e5m2) wherever the value is a normal number.
        let tol = if e.dtype == Dtype::E4m3 {
            1.0 / 16.0
        } else {
            1.0 / 8.0
        };
        for (x, &b) in c.read_f32(src).unwrap().iter().zip(&got) {
            let y = e.dtype.to_f64(u32::from(b)) / f64::from(scale);
            let x = f64::from(*x);
            assert!((x - y).abs() <= tol * x.abs() || (x * f64::from(scale)).abs() < 1.0 / 64.0);
        }
        // The largest magnitude maps to the largest finite value (the point of amax scaling).
        let max = cdma_corpus::fp8::max_finite(e.dtype).unwrap();
        let top = got
            .iter()
            .map(|&b| e.dtype.to_f64(u32::from(b) & 0x7F))
            .fold(0.0, f64::max);
        assert!(
            top == f64::from(max) || e.pos_zero == e.elements,
            "{}: {top}",
            e.file
        );
        n[usize::from(e.dtype == Dtype::E5m2)] += 1;
    }
    let f32s = c.entries().iter().filter(|e| e.dtype == Dtype::F32).count();
    assert_eq!(
        n,
        [f32s, f32s],
        "one e4m3 and one e5m2 tensor per f32 tensor"
    );
}

#[test]
fn corrupted_file_gives_a_sha256_error() {
    let c = corpus();
    let name = "fmnist.step0100.fc1.relu.f16";
    let dir = TempDir::new("corrupt");
    copy_subset(&c, &[name], &dir.0);
    let copy = Corpus::open(&dir.0).unwrap();
    let e = copy.find(name).unwrap().clone();
    copy.read(&e).expect("the intact copy verifies");

    let path = dir.0.join(&e.file);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let err = copy.read(&e).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, CorpusError::Sha256 { .. }), "{msg}");
    assert!(msg.contains(&e.file), "{msg}");
    assert!(msg.contains("sha256 mismatch"), "{msg}");
    assert!(msg.contains(&e.sha256), "{msg}");

    // A truncated file is caught by its length before hashing.
    std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
    let err = copy.read(&e).unwrap_err();
    assert!(matches!(err, CorpusError::Length { .. }), "{err}");
    assert!(err.to_string().contains("length mismatch"), "{err}");
}

#[test]
fn missing_file_gives_a_clear_error() {
    let c = corpus();
    let name = "vgg16.rocket.pool5.maxpool.bf16";
    let dir = TempDir::new("missing");
    copy_subset(&c, &[name], &dir.0);
    std::fs::remove_file(dir.0.join(format!("{name}.bin"))).unwrap();
    let copy = Corpus::open(&dir.0).unwrap();
    let err = copy.read(copy.find(name).unwrap()).unwrap_err();
    assert!(matches!(err, CorpusError::Missing { .. }), "{err}");
    assert!(err.to_string().contains("is missing"), "{err}");
    assert!(err.to_string().contains(name), "{err}");

    let empty = TempDir::new("nomanifest");
    let err = Corpus::open(&empty.0).unwrap_err();
    assert!(err.to_string().contains("manifest.json"), "{err}");
}

/// Writes `text` as the manifest of a fresh directory and returns the open error's message.
fn open_error(tag: &str, text: &str) -> String {
    let dir = TempDir::new(tag);
    std::fs::write(dir.0.join("manifest.json"), text).unwrap();
    let err = Corpus::open(&dir.0).unwrap_err();
    assert!(matches!(err, CorpusError::Manifest { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("malformed manifest"), "{msg}");
    msg
}

#[test]
fn malformed_manifests_give_clear_errors() {
    open_error("notjson", "{ this is not json");
    open_error("noformat", r#"{"tensors": []}"#);

    // Start from a real entry and break one thing at a time.
    let c = corpus();
    let text = std::fs::read_to_string(c.dir().join("manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let one = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut m = m.clone();
        let t = m["tensors"][0].clone();
        m["tensors"] = serde_json::Value::Array(vec![t]);
        f(&mut m);
        serde_json::to_string(&m).unwrap()
    };
    let ok = one(&|_| {});
    let dir = TempDir::new("ok");
    std::fs::write(dir.0.join("manifest.json"), &ok).unwrap();
    Corpus::open(&dir.0).expect("an unmodified entry parses");

    let msg = open_error("dtype", &one(&|m| m["tensors"][0]["dtype"] = "f64".into()));
    assert!(msg.contains("f64"), "{msg}");
    let msg = open_error(
        "elements",
        &one(&|m| m["tensors"][0]["elements"] = 7.into()),
    );
    assert!(msg.contains("elements 7"), "{msg}");
    let msg = open_error(
        "escape",
        &one(&|m| m["tensors"][0]["file"] = "../x.f32.bin".into()),
    );
    assert!(msg.contains("plain name"), "{msg}");
    let msg = open_error("sha", &one(&|m| m["tensors"][0]["sha256"] = "abc".into()));
    assert!(msg.contains("sha256"), "{msg}");
    let msg = open_error("version", &one(&|m| m["version"] = 2.into()));
    assert!(msg.contains("version 2"), "{msg}");
    let msg = open_error(
        "missingfield",
        &one(&|m| {
            m["tensors"][0].as_object_mut().unwrap().remove("layer");
        }),
    );
    assert!(msg.contains("layer"), "{msg}");
    // The fp8 fields: only on fp8 entries, both present, a valid scale, a listed f32 source.
    let msg = open_error(
        "f32source",
        &one(&|m| m["tensors"][0]["fp8_scale"] = 2.0.into()),
    );
    assert!(msg.contains("only for e4m3 and e5m2"), "{msg}");
    let fp8 = m["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["dtype"] == "e5m2")
        .expect("an e5m2 entry")
        .clone();
    let with_fp8 = |f: &dyn Fn(&mut serde_json::Value)| {
        let src = fp8["source"].as_str().unwrap();
        let mut m = m.clone();
        let src = m["tensors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["file"] == src)
            .unwrap()
            .clone();
        m["tensors"] = serde_json::Value::Array(vec![src, fp8.clone()]);
        f(&mut m);
        serde_json::to_string(&m).unwrap()
    };
    let dir = TempDir::new("fp8ok");
    std::fs::write(dir.0.join("manifest.json"), with_fp8(&|_| {})).unwrap();
    Corpus::open(&dir.0).expect("an fp8 entry and its source parse");
    let msg = open_error(
        "noscale",
        &with_fp8(&|m| {
            m["tensors"][1].as_object_mut().unwrap().remove("fp8_scale");
        }),
    );
    assert!(msg.contains("needs source and fp8_scale"), "{msg}");
    let msg = open_error(
        "badscale",
        &with_fp8(&|m| m["tensors"][1]["fp8_scale"] = 0.1.into()),
    );
    assert!(msg.contains("not a positive finite f32"), "{msg}");
    let msg = open_error(
        "nosource",
        &with_fp8(&|m| {
            m["tensors"].as_array_mut().unwrap().remove(0);
        }),
    );
    assert!(msg.contains("is not listed"), "{msg}");
    let msg = open_error(
        "othercut",
        &with_fp8(&|m| m["tensors"][0]["channels"][0] = 99999.into()),
    );
    assert!(msg.contains("channels"), "{msg}");
    let msg = open_error(
        "otherlayer",
        &with_fp8(&|m| m["tensors"][0]["layer"] = "conv9_9".into()),
    );
    assert!(msg.contains("same capture and cut"), "{msg}");
    let msg = open_error(
        "twice",
        &one(&|m| {
            let t = m["tensors"][0].clone();
            m["tensors"].as_array_mut().unwrap().push(t);
        }),
    );
    assert!(msg.contains("twice"), "{msg}");
}
