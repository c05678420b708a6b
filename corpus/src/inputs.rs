//! Users' own tensors (`--input PATH...`): `.npy` files, `.safetensors` files (every tensor in
//! them), raw little-endian files named `<name>.<dtype>` or `<name>.<dtype>.bin`, and folders of
//! them (recursive), opened as a [`Corpus`] without a manifest: each tensor's zero counts and
//! sparsity are computed as it is opened, its sha256 recorded so a later read sees the same
//! bytes.
//!
//! Element types: f32, bf16, f16, e4m3 and e5m2. NumPy saves `ml_dtypes`' bf16 and fp8 arrays
//! as anonymous records (`<V2`, `|V1`), so their type comes from the file name
//! (`act.bf16.npy`, `act.float8_e4m3fn.npy`, ...) or the caller's `dtype`. A file (or a
//! safetensors tensor) that cannot be opened is an [`InputError`] naming it; the others are
//! still opened.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::{BitStats, Corpus, Dtype, Entry, Provenance};

/// Where an input tensor's bytes are: a file and the offset of its first byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Loc {
    pub(crate) path: PathBuf,
    pub(crate) offset: u64,
}

/// A file or tensor that could not be opened, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file (a safetensors tensor: `file:tensor`).
    pub what: String,
    /// Why.
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.what, self.message)
    }
}

/// The dtype a name (a file name's part, `--dtype`) means: cdma's names and NumPy's /
/// ml_dtypes' / safetensors' (`bfloat16`, `float8_e4m3fn`, `F8_E5M2`, ...).
pub fn dtype_alias(name: &str) -> Option<Dtype> {
    let n = name.to_ascii_lowercase();
    Some(match n.as_str() {
        "f32" | "float32" | "fp32" => Dtype::F32,
        "bf16" | "bfloat16" => Dtype::Bf16,
        "f16" | "float16" | "fp16" | "half" => Dtype::F16,
        "e4m3" | "e4m3fn" | "float8_e4m3fn" | "float8_e4m3" | "f8_e4m3" | "fp8_e4m3" => Dtype::E4m3,
        "e5m2" | "float8_e5m2" | "f8_e5m2" | "fp8_e5m2" => Dtype::E5m2,
        "i8" | "int8" => Dtype::I8,
        "u8" | "uint8" => Dtype::U8,
        _ => return None,
    })
}

/// The dtype a file name names: its last dot-separated part before the extension
/// (`conv1.bf16.npy`, `x.e4m3.bin`, `x.f16`).
fn dtype_in_name(path: &Path) -> Option<Dtype> {
    let name = path.file_name()?.to_str()?;
    let mut parts: Vec<&str> = name.split('.').collect();
    if parts.len() < 2 {
        return None;
    }
    parts.remove(0);
    parts.into_iter().rev().find_map(dtype_alias)
}

/// Opens `paths` (files and folders) as a corpus; `dtype` types the files whose own type does
/// not say (records, `.bin`). Returns the corpus of every tensor that opened and an error for
/// every one that did not.
pub fn open_inputs(paths: &[PathBuf], dtype: Option<Dtype>) -> (Corpus, Vec<InputError>) {
    let mut corpus = Corpus {
        dir: PathBuf::new(),
        entries: Vec::new(),
        locs: BTreeMap::new(),
    };
    let mut errors = Vec::new();
    for root in paths {
        let files = if root.is_dir() {
            let mut v = Vec::new();
            walk(root, &mut v, &mut errors);
            v.into_iter()
                .filter(|f| kind_of(f).is_some())
                .map(|f| {
                    let rel = f.strip_prefix(root).unwrap_or(&f).to_path_buf();
                    (f, rel)
                })
                .collect()
        } else {
            let rel = PathBuf::from(root.file_name().unwrap_or(root.as_os_str()));
            vec![(root.clone(), rel)]
        };
        for (file, rel) in files {
            let name = rel.to_string_lossy().replace('\\', "/");
            // The file's bytes, read once: its tensors are slices of them.
            let kind = kind_of(&file).ok_or_else(|| {
                format!(
                    "not a tensor file (.npy, .safetensors, or <name>.<dtype>[.bin] with {})",
                    dtype_names()
                )
            });
            let opened = kind
                .and_then(|k| Ok((k, read_all(&file)?)))
                .and_then(|(kind, bytes)| {
                    let tensors = match kind {
                        Kind::Npy => open_npy(&file, &bytes, dtype).map(|t| vec![Ok(t)]),
                        Kind::Safetensors => open_safetensors(&file, &bytes),
                        Kind::Raw => open_raw(&file, &bytes, dtype).map(|t| vec![Ok(t)]),
                    };
                    tensors.map(|t| (bytes, t))
                });
            let (bytes, tensors) = match opened {
                Ok(t) => t,
                Err(message) => {
                    errors.push(InputError {
                        what: file.display().to_string(),
                        message,
                    });
                    continue;
                }
            };
            for t in tensors {
                match t {
                    Ok(t) => {
                        let data = &bytes[t.offset as usize..][..t.len];
                        add(&mut corpus, (&file, &name), t, data, &mut errors)
                    }
                    Err(e) => errors.push(e),
                }
            }
        }
    }
    (corpus, errors)
}

/// One tensor found in a file: its name inside the file (safetensors), type, shape, and where
/// its data is (`len` bytes from `offset`, inside the file's bytes).
struct Found {
    tensor: Option<String>,
    dtype: Dtype,
    shape: Vec<usize>,
    offset: u64,
    len: usize,
}

enum Kind {
    Npy,
    Safetensors,
    Raw,
}

fn kind_of(path: &Path) -> Option<Kind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "npy" => Some(Kind::Npy),
        "safetensors" => Some(Kind::Safetensors),
        "bin" => Some(Kind::Raw),
        e if dtype_alias(e).is_some() => Some(Kind::Raw),
        _ => None,
    }
}

/// The element types cdma compresses, by name (`f32, bf16, f16, e4m3, e5m2`), for messages.
pub fn dtype_names() -> String {
    Dtype::ALL.map(Dtype::name).join(", ")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut Vec<InputError>) {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            errors.push(InputError {
                what: dir.display().to_string(),
                message: e.to_string(),
            });
            return;
        }
    };
    let mut paths: Vec<PathBuf> = rd.filter_map(|d| d.ok().map(|d| d.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, out, errors);
        } else {
            out.push(p);
        }
    }
}

/// Adds tensor `t` of `file` (named `name` under its input root), its bytes `data`.
fn add(
    corpus: &mut Corpus,
    (file, name): (&Path, &str),
    t: Found,
    data: &[u8],
    errors: &mut Vec<InputError>,
) {
    let key = match &t.tensor {
        Some(tensor) => format!("{}/{tensor}", strip_ext(name)),
        None => strip_ext(name).to_string(),
    };
    if corpus.locs.contains_key(&key) {
        errors.push(InputError {
            what: file.display().to_string(),
            message: format!("a tensor named {key:?} is already open (from another file)"),
        });
        return;
    }
    let stats = BitStats::of(t.dtype, data);
    let stem = strip_ext(name)
        .rsplit('/')
        .next()
        .unwrap_or(name)
        .to_string();
    let layer = t.tensor.clone().unwrap_or_else(|| stem.clone());
    let mut extra = BTreeMap::new();
    extra.insert("input".to_string(), file.display().to_string().into());
    let channels = [0, t.shape.get(1).copied().unwrap_or(1)];
    corpus.entries.push(Entry {
        file: key.clone(),
        dtype: t.dtype,
        layout: String::new(),
        layer_shape: t.shape.clone(),
        shape: t.shape,
        elements: stats.elements,
        pos_zero: stats.pos_zero,
        neg_zero: stats.neg_zero,
        non_finite: stats.non_finite,
        sparsity: stats.sparsity(),
        sha256: hex::encode(Sha256::digest(data)),
        net: if t.tensor.is_some() {
            stem
        } else {
            // A folder's tensors: the folder they are in.
            name.rsplit_once('/')
                .map(|(dir, _)| dir.to_string())
                .unwrap_or_else(|| "input".to_string())
        },
        kind: kind_guess(&layer).to_string(),
        layer,
        phase: "input".to_string(),
        step: None,
        image: None,
        layer_sparsity: stats.sparsity(),
        channels,
        provenance: Provenance {
            packages: BTreeMap::new(),
            image: None,
            seed: None,
            extra,
        },
        source: None,
        fp8_scale: None,
    });
    corpus.locs.insert(
        key,
        Loc {
            path: file.to_path_buf(),
            offset: t.offset,
        },
    );
}

/// A name without its file extensions (`a/conv1.bf16.npy` → `a/conv1.bf16`, `x.f32.bin` →
/// `x.f32`).
fn strip_ext(name: &str) -> &str {
    for ext in [".npy", ".safetensors", ".bin"] {
        if let Some(s) = name.strip_suffix(ext) {
            return s;
        }
    }
    name
}

/// The layer kind a tensor's name suggests (`relu`, `maxpool`, `fc`), else `other`.
fn kind_guess(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    if n.contains("pool") {
        "maxpool"
    } else if n.contains("fc") || n.contains("linear") || n.contains("dense") {
        "fc"
    } else if n.contains("relu") || n.contains("act") || n.contains("conv") {
        "relu"
    } else {
        "other"
    }
}

fn read_all(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| e.to_string())
}

/// The bytes of an .npy header (up to its closing newline) as `npyz` can read them: ml_dtypes
/// saves its float8_e5m2 arrays as `<f1`, a float type string NumPy itself never writes (and
/// `npyz` refuses); it becomes the 1-byte record `|V1` that its float8_e4m3fn arrays use.
fn npy_header(bytes: &[u8]) -> Vec<u8> {
    // Magic (6 bytes), version (2), the header's length (2 bytes in version 1, else 4).
    let le = |r: std::ops::Range<usize>| {
        bytes.get(r).map_or(0, |b| {
            b.iter().rev().fold(0usize, |a, &x| a << 8 | usize::from(x))
        })
    };
    let end = match bytes.get(6) {
        Some(1) => 10 + le(8..10),
        _ => 12 + le(8..12),
    }
    .min(bytes.len());
    let mut head = bytes[..end].to_vec();
    for f1 in [b"'<f1'", b"'|f1'", b"'>f1'"] {
        if let Some(i) = head.windows(5).position(|w| w == f1) {
            head[i..i + 5].copy_from_slice(b"'|V1'");
        }
    }
    head
}

fn open_npy(path: &Path, bytes: &[u8], dtype: Option<Dtype>) -> Result<Found, String> {
    let mut head = std::io::Cursor::new(npy_header(bytes));
    let header = npyz::NpyHeader::from_reader(&mut head).map_err(|e| format!("not a .npy: {e}"))?;
    let offset = head.position();
    let npyz::DType::Plain(ts) = header.dtype() else {
        return Err(format!(
            "structured dtype {}: not a tensor of numbers",
            header.dtype().descr()
        ));
    };
    let descr = ts.to_string();
    let size = ts.size_field();
    let named = dtype.or_else(|| dtype_in_name(path));
    let ty = match (ts.type_char(), size) {
        (npyz::TypeChar::Float, 4) => Dtype::F32,
        (npyz::TypeChar::Float, 2) => Dtype::F16,
        (npyz::TypeChar::Int, 1) => Dtype::I8,
        // ml_dtypes' types as records, or their raw words as unsigned integers (bytes are u8
        // unless the name or --dtype says which 8-bit float they hold).
        (npyz::TypeChar::RawData | npyz::TypeChar::Uint, 1 | 2) => {
            let want = |d: Dtype| d.elem_bytes() as u64 == size;
            match named.filter(|&d| want(d)) {
                Some(d) => d,
                None if ts.type_char() == npyz::TypeChar::Uint && size == 1 => Dtype::U8,
                None => {
                    let options: Vec<&str> = Dtype::ALL
                        .into_iter()
                        .filter(|&d| want(d))
                        .map(Dtype::name)
                        .collect();
                    return Err(format!(
                        "{descr} does not say which {}-bit type it holds (NumPy saves ml_dtypes' \
                         types this way): name the file <name>.<type>.npy or pass --dtype, one \
                         of {}",
                        8 * size,
                        options.join(", ")
                    ));
                }
            }
        }
        _ => {
            return Err(format!(
                "dtype {descr} is not one cdma compresses ({})",
                dtype_names()
            ))
        }
    };
    if let Some(d) = dtype.filter(|&d| d != ty) {
        return Err(format!("holds {descr} ({ty}), not {d} (--dtype)"));
    }
    if ts.endianness() == npyz::Endianness::Big && size > 1 {
        return Err(format!("{descr} is big-endian: save a little-endian copy"));
    }
    if header.order() == npyz::Order::Fortran && header.shape().len() > 1 {
        return Err("Fortran-ordered: save a C-ordered copy (numpy.ascontiguousarray)".into());
    }
    let shape: Vec<usize> = header.shape().iter().map(|&d| d as usize).collect();
    // (A hostile shape must not overflow into a small length.)
    let len = shape
        .iter()
        .try_fold(ty.elem_bytes(), |a, &d| a.checked_mul(d));
    if len
        .and_then(|l| l.checked_add(offset as usize))
        .is_none_or(|end| bytes.len() < end)
    {
        return Err(format!("data shorter than its shape {shape:?} says"));
    }
    let len = len.unwrap_or(0);
    Ok(Found {
        tensor: None,
        dtype: ty,
        shape,
        offset,
        len,
    })
}

fn open_safetensors(path: &Path, bytes: &[u8]) -> Result<Vec<Result<Found, InputError>>, String> {
    let st = safetensors::SafeTensors::deserialize(bytes)
        .map_err(|e| format!("not a .safetensors: {e:?}"))?;
    let mut tensors = st.tensors();
    tensors.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(tensors
        .into_iter()
        .map(|(name, view)| {
            use safetensors::Dtype as S;
            let ty = match view.dtype() {
                S::F32 => Dtype::F32,
                S::BF16 => Dtype::Bf16,
                S::F16 => Dtype::F16,
                S::F8_E4M3 => Dtype::E4m3,
                S::F8_E5M2 => Dtype::E5m2,
                S::I8 => Dtype::I8,
                S::U8 => Dtype::U8,
                other => {
                    return Err(InputError {
                        what: format!("{}:{name}", path.display()),
                        message: format!(
                            "dtype {other:?} is not one cdma compresses ({})",
                            dtype_names()
                        ),
                    })
                }
            };
            let data = view.data();
            Ok(Found {
                tensor: Some(name),
                dtype: ty,
                shape: view.shape().to_vec(),
                offset: (data.as_ptr() as usize - bytes.as_ptr() as usize) as u64,
                len: data.len(),
            })
        })
        .collect())
}

fn open_raw(path: &Path, bytes: &[u8], dtype: Option<Dtype>) -> Result<Found, String> {
    let named = dtype_in_name(path);
    let ty = match (named, dtype) {
        (Some(n), Some(d)) if n != d => return Err(format!("its name says {n}, --dtype says {d}")),
        (Some(d), _) | (None, Some(d)) => d,
        (None, None) => {
            return Err(format!(
                "a raw file needs its type: name it <name>.<type>.bin or pass --dtype, one of {}",
                dtype_names()
            ))
        }
    };
    if !bytes.len().is_multiple_of(ty.elem_bytes()) {
        return Err(format!(
            "{} bytes: not a whole number of {ty} elements",
            bytes.len()
        ));
    }
    Ok(Found {
        tensor: None,
        dtype: ty,
        shape: vec![bytes.len() / ty.elem_bytes()],
        offset: 0,
        len: bytes.len(),
    })
}

/// Reads `len` bytes at `loc`.
pub(crate) fn read_at(loc: &Loc, len: usize) -> std::io::Result<Vec<u8>> {
    let mut f = File::open(&loc.path)?;
    f.seek(SeekFrom::Start(loc.offset))?;
    let mut v = vec![0; len];
    f.read_exact(&mut v)?;
    Ok(v)
}
