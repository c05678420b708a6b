//! Loader for the bundled activation corpus in `data/activations`.
//!
//! The corpus is a set of raw little-endian tensors (`<name>.<dtype>.bin`) described by
//! `manifest.json`, both written by `scripts/activations/generate` (see docs/CORPUS.md). This crate
//! parses the manifest, checks every file's length and sha256 before handing its bytes out, and
//! offers typed views (f32 values, raw 16-bit words) plus the bit-pattern counts the manifest
//! records, so tests can re-derive them from the data.
//!
//! ```
//! use cdma_corpus::{BitStats, Corpus, Dtype};
//! let corpus = Corpus::open(&Corpus::default_dir())?;
//! let e = corpus.find("vgg16.chelsea.conv2_2.relu.bf16")?;
//! assert_eq!(e.dtype, Dtype::Bf16);
//! let bytes = corpus.read(e)?; // length and sha256 checked
//! assert_eq!(BitStats::of(e.dtype, &bytes).pos_zero, e.pos_zero);
//! # Ok::<(), cdma_corpus::CorpusError>(())
//! ```
//!
//! Synthetic edge-case tensors are not here on purpose: they are generated at test time by
//! `cdma_model::synthetic` and never mixed into the real corpus or figures computed from it.

#![deny(missing_docs)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

pub mod fp8;
pub mod inputs;

pub use inputs::{dtype_alias, dtype_names, open_inputs, InputError};

/// Element type of a corpus tensor. Bit patterns are stored raw; see [`Dtype::elem_bits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    /// IEEE 754 binary32.
    F32,
    /// bfloat16: the upper 16 bits of a binary32, stored as raw 16-bit words.
    Bf16,
    /// IEEE 754 binary16.
    F16,
    /// FP8 E4M3 (OCP/NVIDIA "fn" variant: no infinity, only `S.1111.111` is NaN, max 448).
    E4m3,
    /// FP8 E5M2 (IEEE-like: exponent `11111` is infinity or NaN, max 57344).
    E5m2,
    /// Signed 8-bit integers (quantized activations); frames carry them as untyped bytes.
    I8,
    /// Unsigned 8-bit integers (quantized activations); frames carry them as untyped bytes.
    U8,
}

impl Dtype {
    /// All dtypes: the float types, then the integers.
    pub const ALL: [Dtype; 7] = [
        Dtype::F32,
        Dtype::Bf16,
        Dtype::F16,
        Dtype::E4m3,
        Dtype::E5m2,
        Dtype::I8,
        Dtype::U8,
    ];

    /// The float types, in manifest order: the dtypes of the bundled corpus (each of its
    /// tensors is in all of them), and of the analysis's per-dtype tables and plots.
    pub const FLOATS: [Dtype; 5] = [
        Dtype::F32,
        Dtype::Bf16,
        Dtype::F16,
        Dtype::E4m3,
        Dtype::E5m2,
    ];

    /// The frame element type of this dtype (docs/FORMAT.md): the float types' own, untyped
    /// bytes for the integers (ZVC-X then codes their positions and repeats only).
    pub fn elem_type(self) -> cdma_model::ElemType {
        use cdma_model::{ElemType, ElemWidth};
        match self {
            Dtype::F32 => ElemType::F32,
            Dtype::Bf16 => ElemType::Bf16,
            Dtype::F16 => ElemType::F16,
            Dtype::E4m3 => ElemType::E4m3,
            Dtype::E5m2 => ElemType::E5m2,
            Dtype::I8 | Dtype::U8 => ElemType::Raw(ElemWidth::W8),
        }
    }

    /// Whether elements are floats (a sign, an exponent and a mantissa).
    pub fn is_float(self) -> bool {
        !matches!(self, Dtype::I8 | Dtype::U8)
    }

    /// Element width in bits (the `E` of the ZVC format).
    pub fn elem_bits(self) -> u32 {
        match self {
            Dtype::F32 => 32,
            Dtype::Bf16 | Dtype::F16 => 16,
            Dtype::E4m3 | Dtype::E5m2 | Dtype::I8 | Dtype::U8 => 8,
        }
    }

    /// Element width in bytes.
    pub fn elem_bytes(self) -> usize {
        self.elem_bits() as usize / 8
    }

    /// Name used in file names and in the manifest: `f32`, `bf16`, `f16`, `e4m3`, `e5m2`,
    /// `i8`, `u8`.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::Bf16 => "bf16",
            Dtype::F16 => "f16",
            Dtype::E4m3 => "e4m3",
            Dtype::E5m2 => "e5m2",
            Dtype::I8 => "i8",
            Dtype::U8 => "u8",
        }
    }

    /// Parses a name as written by [`Dtype::name`].
    pub fn from_name(name: &str) -> Option<Dtype> {
        Dtype::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Mask of the exponent field (0 for the integers). For every float type but e4m3 an
    /// element is non-finite iff all of these bits are set; see [`Dtype::is_non_finite`].
    pub fn exponent_mask(self) -> u32 {
        match self {
            Dtype::F32 => 0x7F80_0000,
            Dtype::Bf16 => 0x7F80,
            Dtype::F16 => 0x7C00,
            Dtype::E4m3 => 0x78,
            Dtype::E5m2 => 0x7C,
            Dtype::I8 | Dtype::U8 => 0,
        }
    }

    /// Whether the element `bits` is an infinity or a NaN: an all-ones exponent, except in e4m3,
    /// whose only non-finite patterns are the NaNs `S.1111.111` (exponent 1111 is otherwise a
    /// normal binade, 256..=448). Integers are always finite.
    pub fn is_non_finite(self, bits: u32) -> bool {
        if !self.is_float() {
            return false;
        }
        let m = match self {
            Dtype::E4m3 => 0x7F,
            d => d.exponent_mask(),
        };
        bits & m == m
    }

    /// Whether this is one of the 8-bit float types (e4m3, e5m2), whose corpus entries are
    /// scaled casts of an f32 entry (see [`Entry::fp8_scale`]).
    pub fn is_fp8(self) -> bool {
        matches!(self, Dtype::E4m3 | Dtype::E5m2)
    }

    /// Bit pattern of `-0.0` (only the sign bit set); `None` for the integers, which have no
    /// negative zero.
    pub fn neg_zero_bits(self) -> Option<u32> {
        self.is_float().then(|| 1 << (self.elem_bits() - 1))
    }

    /// Value of one element given its bit pattern (low `elem_bits` bits of `bits`), widened to f64
    /// exactly (every f32, bf16, f16, e4m3, e5m2, i8 and u8 value is representable in f64).
    pub fn to_f64(self, bits: u32) -> f64 {
        match self {
            Dtype::F32 => f64::from(f32::from_bits(bits)),
            Dtype::Bf16 => f64::from(bf16_to_f32(bits as u16)),
            Dtype::F16 => f64::from(f16_to_f32(bits as u16)),
            Dtype::E4m3 => f64::from(fp8::e4m3_to_f32(bits as u8)),
            Dtype::E5m2 => f64::from(fp8::e5m2_to_f32(bits as u8)),
            Dtype::I8 => f64::from(bits as u8 as i8),
            Dtype::U8 => f64::from(bits as u8),
        }
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Converts a bfloat16 bit pattern to f32 (exact: bf16 is the top half of a binary32).
pub fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// Converts an IEEE binary16 bit pattern to f32 (exact, NaN payloads and signs kept).
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits >> 15) << 31;
    let exp = u32::from((bits >> 10) & 0x1F);
    let man = u32::from(bits & 0x3FF);
    let out = match exp {
        0 if man == 0 => sign,
        // Subnormal: value = man * 2^-24, exact in f32; keep the sign explicitly.
        0 => sign | (man as f32 * 2f32.powi(-24)).to_bits(),
        0x1F => sign | 0x7F80_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(out)
}

/// Provenance of one tensor, as recorded by the generator.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Provenance {
    /// Python package name → version used by the generator (plus `python`).
    pub packages: BTreeMap<String, String>,
    /// Source image (e.g. `skimage.data.chelsea`) for inference tensors.
    #[serde(default)]
    pub image: Option<String>,
    /// Training seed for training tensors.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Everything else the generator recorded (weights, preprocessing, test accuracy, ...).
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// One tensor of the corpus, as described by the manifest.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// File name inside the corpus directory, `<name>.<dtype>.bin`.
    pub file: String,
    /// Element type.
    pub dtype: Dtype,
    /// Shape in `layout` order (N, C, H, W or N, C).
    pub shape: Vec<usize>,
    /// `NCHW` or `NC`.
    pub layout: String,
    /// Number of elements (product of `shape`).
    pub elements: usize,
    /// Elements whose bit pattern is all zero (what ZVC drops).
    pub pos_zero: usize,
    /// Elements whose bit pattern is `-0.0` (non-zero for ZVC).
    pub neg_zero: usize,
    /// Elements that are inf or NaN ([`Dtype::is_non_finite`]).
    pub non_finite: usize,
    /// `pos_zero / elements`.
    pub sparsity: f64,
    /// sha256 of the file, lowercase hex.
    pub sha256: String,
    /// Network: `vgg16` or `fmnist`.
    pub net: String,
    /// Layer name, e.g. `conv3_2`, `pool4`, `fc1`.
    pub layer: String,
    /// `relu`, `maxpool` or `fc`.
    pub kind: String,
    /// `inference` or `training`.
    pub phase: String,
    /// Training step of the checkpoint (training tensors only).
    pub step: Option<u32>,
    /// Short image name (inference tensors only).
    pub image: Option<String>,
    /// Shape of the whole layer the tensor was cut from.
    pub layer_shape: Vec<usize>,
    /// Sparsity of the whole layer (same definition as `sparsity`). For e4m3/e5m2 entries it is
    /// the f32 source's: the whole layer is not in the corpus, so it was never cast to fp8.
    pub layer_sparsity: f64,
    /// Channels `[start, end)` of the layer kept in this tensor.
    pub channels: [usize; 2],
    /// Packages, image, seed and other generator details (for e4m3/e5m2 entries the source's,
    /// plus `fp8`: the conversion recipe and the numpy/ml_dtypes versions).
    pub provenance: Provenance,
    /// e4m3/e5m2 entries only: the `file` of the f32 entry this tensor was cast from.
    #[serde(default)]
    pub source: Option<String>,
    /// e4m3/e5m2 entries only: the per-tensor scale (an f32 value) applied before the cast, so
    /// that `source ≈ value / fp8_scale`; see [`fp8::quantize`].
    #[serde(default)]
    pub fp8_scale: Option<f64>,
}

impl Entry {
    /// File stem, e.g. `vgg16.chelsea.conv1_1.relu.f32`.
    pub fn name(&self) -> String {
        self.file
            .strip_suffix(".bin")
            .unwrap_or(&self.file)
            .to_string()
    }

    /// Length of the file in bytes.
    pub fn byte_len(&self) -> usize {
        self.elements * self.dtype.elem_bytes()
    }

    /// Checks the entry's internal consistency (shape vs counts, file name, hash syntax).
    fn validate(&self) -> Result<(), String> {
        let name = &self.file;
        let expected_suffix = format!(".{}.bin", self.dtype.name());
        if !name.ends_with(&expected_suffix) {
            return Err(format!("{name}: file name must end with {expected_suffix}"));
        }
        // File names are joined to the corpus directory: refuse anything that could escape it.
        if name.contains('/') || name.contains('\\') || name.starts_with('.') {
            return Err(format!(
                "{name}: file name must be a plain name inside the corpus directory"
            ));
        }
        let rank = match self.layout.as_str() {
            "NCHW" => 4,
            "NC" => 2,
            other => return Err(format!("{name}: unknown layout {other:?} (NCHW or NC)")),
        };
        if self.shape.len() != rank || self.layer_shape.len() != rank {
            return Err(format!(
                "{name}: shape {:?} / layer_shape {:?} do not have rank {rank} of layout {}",
                self.shape, self.layer_shape, self.layout
            ));
        }
        let product = self
            .shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or_else(|| format!("{name}: shape {:?} overflows", self.shape))?;
        if product != self.elements {
            return Err(format!(
                "{name}: elements {} but shape {:?} has {product}",
                self.elements, self.shape
            ));
        }
        if self.pos_zero + self.neg_zero > self.elements || self.non_finite > self.elements {
            return Err(format!(
                "{name}: zero/non-finite counts exceed the element count"
            ));
        }
        let [start, end] = self.channels;
        let cut_ok = start < end
            && end <= self.layer_shape[1]
            && self.shape[1] == end - start
            && self.shape[0] == self.layer_shape[0]
            && self.shape[2..] == self.layer_shape[2..];
        if !cut_ok {
            return Err(format!(
                "{name}: channels {:?} do not cut shape {:?} from layer_shape {:?}",
                self.channels, self.shape, self.layer_shape
            ));
        }
        self.validate_fp8()?;
        if self.sha256.len() != 64
            || !self
                .sha256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return Err(format!(
                "{name}: sha256 {:?} is not 64 lowercase hex digits",
                self.sha256
            ));
        }
        Ok(())
    }
}

/// Bit-pattern counts of a tensor, as recorded in the manifest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitStats {
    /// Number of elements.
    pub elements: usize,
    /// Elements that are all-zero bits.
    pub pos_zero: usize,
    /// Elements that are exactly the sign bit (`-0.0`).
    pub neg_zero: usize,
    /// Elements that are inf or NaN ([`Dtype::is_non_finite`]).
    pub non_finite: usize,
}

impl BitStats {
    /// Counts the elements of little-endian `bytes` of type `dtype`. Trailing bytes that do not
    /// form a whole element are ignored (corpus files are length-checked before this is used).
    pub fn of(dtype: Dtype, bytes: &[u8]) -> BitStats {
        let mut s = BitStats::default();
        for w in words(dtype, bytes) {
            s.elements += 1;
            if w == 0 {
                s.pos_zero += 1;
            } else if Some(w) == dtype.neg_zero_bits() {
                s.neg_zero += 1;
            }
            if dtype.is_non_finite(w) {
                s.non_finite += 1;
            }
        }
        s
    }

    /// Fraction of all-zero elements (0 for an empty tensor).
    pub fn sparsity(&self) -> f64 {
        if self.elements == 0 {
            0.0
        } else {
            self.pos_zero as f64 / self.elements as f64
        }
    }
}

/// Iterates over the elements of little-endian `bytes` as raw bit patterns widened to u32.
fn words(dtype: Dtype, bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let n = dtype.elem_bytes();
    bytes.chunks_exact(n).map(move |c| match n {
        4 => u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
        2 => u32::from(u16::from_le_bytes([c[0], c[1]])),
        _ => u32::from(c[0]),
    })
}

/// A tensor's data, typed by its dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorData {
    /// f32 values (bit patterns preserved, including NaN payloads and -0.0).
    F32(Vec<f32>),
    /// bf16 raw words; see [`bf16_to_f32`].
    Bf16(Vec<u16>),
    /// f16 raw words; see [`f16_to_f32`].
    F16(Vec<u16>),
    /// e4m3 raw bytes; see [`fp8::e4m3_to_f32`].
    E4m3(Vec<u8>),
    /// e5m2 raw bytes; see [`fp8::e5m2_to_f32`].
    E5m2(Vec<u8>),
    /// Signed bytes.
    I8(Vec<i8>),
    /// Unsigned bytes.
    U8(Vec<u8>),
}

/// A verified tensor: its manifest entry and its data.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// The manifest entry.
    pub entry: Entry,
    /// The data, typed.
    pub data: TensorData,
}

/// Everything that can go wrong when opening or reading the corpus.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file listed in the manifest is not in the corpus directory.
    #[error("corpus file {path} is missing")]
    Missing {
        /// The file that should exist.
        path: PathBuf,
    },
    /// The manifest is not valid JSON, lacks fields, or is inconsistent.
    #[error("malformed manifest {path}: {message}")]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A file's length differs from what its entry says.
    #[error("{path}: length mismatch: expected {expected} bytes, got {got}")]
    Length {
        /// The file.
        path: PathBuf,
        /// Bytes implied by the manifest.
        expected: usize,
        /// Bytes found.
        got: usize,
    },
    /// A file's sha256 differs from the manifest's.
    #[error("{path}: sha256 mismatch: expected {expected}, got {got}")]
    Sha256 {
        /// The file.
        path: PathBuf,
        /// Hash in the manifest.
        expected: String,
        /// Hash of the bytes read.
        got: String,
    },
    /// A typed read asked for the wrong dtype.
    #[error("{file}: dtype is {actual}, not {requested}")]
    Dtype {
        /// The entry's file.
        file: String,
        /// The entry's dtype.
        actual: Dtype,
        /// The dtype the caller asked for.
        requested: Dtype,
    },
    /// No entry has the requested name.
    #[error("no corpus entry named {0:?}")]
    NoSuchEntry(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    format: String,
    version: u32,
    #[allow(dead_code)] // informative only
    generator: String,
    #[allow(dead_code)] // informative only
    sparsity: String,
    #[allow(dead_code)] // informative only
    max_sparsity_gap: f64,
    tensors: Vec<Entry>,
}

/// The corpus: its directory and the manifest's entries; or users' own tensors
/// ([`open_inputs`]), each entry's bytes at a place in a file of theirs (`locs`, by `file`).
#[derive(Clone, Debug)]
pub struct Corpus {
    dir: PathBuf,
    entries: Vec<Entry>,
    locs: BTreeMap<String, inputs::Loc>,
}

impl Corpus {
    /// The bundled corpus: `<workspace>/data/activations`.
    pub fn default_dir() -> PathBuf {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        crate_dir
            .parent()
            .unwrap_or(crate_dir)
            .join("data")
            .join("activations")
    }

    /// Opens the bundled corpus ([`Corpus::default_dir`]).
    pub fn open_default() -> Result<Corpus, CorpusError> {
        Corpus::open(&Corpus::default_dir())
    }

    /// Parses and validates `dir/manifest.json`. File contents are checked on [`Corpus::read`].
    pub fn open(dir: &Path) -> Result<Corpus, CorpusError> {
        let path = dir.join("manifest.json");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(CorpusError::Missing { path })
            }
            Err(source) => return Err(CorpusError::Io { path, source }),
        };
        let bad = |message: String| CorpusError::Manifest {
            path: path.clone(),
            message,
        };
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if manifest.format != "cdma-activations" || manifest.version != 1 {
            return Err(bad(format!(
                "format {:?} version {} (expected \"cdma-activations\" version 1)",
                manifest.format, manifest.version
            )));
        }
        let mut seen = BTreeSet::new();
        for e in &manifest.tensors {
            e.validate().map_err(&bad)?;
            if !seen.insert(e.file.as_str()) {
                return Err(bad(format!("{} is listed twice", e.file)));
            }
        }
        for e in &manifest.tensors {
            if let Some(source) = &e.source {
                let src = manifest.tensors.iter().find(|s| s.file == *source);
                let src =
                    src.ok_or_else(|| bad(format!("{}: source {source} is not listed", e.file)))?;
                e.check_source(src).map_err(&bad)?;
            }
        }
        Ok(Corpus {
            dir: dir.to_path_buf(),
            entries: manifest.tensors,
            locs: BTreeMap::new(),
        })
    }

    /// The corpus directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// All entries, in manifest order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry whose [`Entry::name`] is `name`.
    pub fn find(&self, name: &str) -> Result<&Entry, CorpusError> {
        self.entries
            .iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| CorpusError::NoSuchEntry(name.to_string()))
    }

    /// Path of an entry's file (a user's tensor: the file it is in).
    pub fn path(&self, e: &Entry) -> PathBuf {
        match self.locs.get(&e.file) {
            Some(loc) => loc.path.clone(),
            None => self.dir.join(&e.file),
        }
    }

    /// Reads an entry's raw bytes, checking their length and sha256 against the manifest (a
    /// user's tensor: against what it held when opened).
    pub fn read(&self, e: &Entry) -> Result<Vec<u8>, CorpusError> {
        let path = self.path(e);
        let read = match self.locs.get(&e.file) {
            Some(loc) => inputs::read_at(loc, e.byte_len()),
            None => std::fs::read(&path),
        };
        let bytes = match read {
            Ok(b) => b,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(CorpusError::Missing { path })
            }
            Err(source) => return Err(CorpusError::Io { path, source }),
        };
        if bytes.len() != e.byte_len() {
            return Err(CorpusError::Length {
                path,
                expected: e.byte_len(),
                got: bytes.len(),
            });
        }
        let got = hex::encode(Sha256::digest(&bytes));
        if got != e.sha256 {
            return Err(CorpusError::Sha256 {
                path,
                expected: e.sha256.clone(),
                got,
            });
        }
        Ok(bytes)
    }

    /// Reads an entry's elements as raw bit patterns widened to u32 (any dtype).
    pub fn read_words(&self, e: &Entry) -> Result<Vec<u32>, CorpusError> {
        Ok(words(e.dtype, &self.read(e)?).collect())
    }

    /// Reads an f32 entry's values.
    pub fn read_f32(&self, e: &Entry) -> Result<Vec<f32>, CorpusError> {
        self.expect_dtype(e, &[Dtype::F32], Dtype::F32)?;
        Ok(self
            .read_words(e)?
            .into_iter()
            .map(f32::from_bits)
            .collect())
    }

    /// Reads a bf16 or f16 entry's raw 16-bit words.
    pub fn read_u16(&self, e: &Entry) -> Result<Vec<u16>, CorpusError> {
        self.expect_dtype(e, &[Dtype::Bf16, Dtype::F16], Dtype::Bf16)?;
        Ok(self.read_words(e)?.into_iter().map(|w| w as u16).collect())
    }

    /// Reads an e4m3 or e5m2 entry's raw bytes.
    pub fn read_u8(&self, e: &Entry) -> Result<Vec<u8>, CorpusError> {
        self.expect_dtype(e, &[Dtype::E4m3, Dtype::E5m2], Dtype::E4m3)?;
        self.read(e)
    }

    /// The f32 entry an e4m3/e5m2 entry was cast from (`None` for other dtypes).
    pub fn source_of(&self, e: &Entry) -> Option<&Entry> {
        let source = e.source.as_ref()?;
        self.entries.iter().find(|s| s.file == *source)
    }

    /// Reads an entry as a typed tensor.
    pub fn tensor(&self, e: &Entry) -> Result<Tensor, CorpusError> {
        let data = match e.dtype {
            Dtype::F32 => TensorData::F32(self.read_f32(e)?),
            Dtype::Bf16 => TensorData::Bf16(self.read_u16(e)?),
            Dtype::F16 => TensorData::F16(self.read_u16(e)?),
            Dtype::E4m3 => TensorData::E4m3(self.read_u8(e)?),
            Dtype::E5m2 => TensorData::E5m2(self.read_u8(e)?),
            Dtype::I8 => TensorData::I8(self.read(e)?.into_iter().map(|b| b as i8).collect()),
            Dtype::U8 => TensorData::U8(self.read(e)?),
        };
        Ok(Tensor {
            entry: e.clone(),
            data,
        })
    }

    fn expect_dtype(
        &self,
        e: &Entry,
        allowed: &[Dtype],
        requested: Dtype,
    ) -> Result<(), CorpusError> {
        if allowed.contains(&e.dtype) {
            Ok(())
        } else {
            Err(CorpusError::Dtype {
                file: e.file.clone(),
                actual: e.dtype,
                requested,
            })
        }
    }
}

#[cfg(test)]
mod tests;
