//! `--input PATH... [--dtype TYPE]`: users' own tensors, for every command that reads the
//! corpus (`analyze`, `bench`, `regress`). See `cdma_corpus::inputs` for the file formats.

use std::path::{Path, PathBuf};

use cdma_corpus::{dtype_alias, dtype_names, open_inputs, Corpus, Dtype};

fn parse_dtype(s: &str) -> Result<Dtype, String> {
    dtype_alias(s).ok_or_else(|| format!("unknown element type `{s}` (one of {})", dtype_names()))
}

/// Users' own tensors instead of the corpus.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Inputs {
    /// Your own tensors instead of the corpus, no manifest needed: .npy files, .safetensors
    /// files (every tensor in them), raw little-endian <name>.<type>[.bin] files, or folders of
    /// them (recursive). A file that cannot be read is reported and the others go on.
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub input: Vec<PathBuf>,
    /// Element type of the inputs whose file does not say it (NumPy's <V2 / |V1 records, in
    /// which it saves ml_dtypes' bfloat16 and float8 arrays; .bin files): f32, bf16, f16,
    /// e4m3, e5m2, i8, u8 (NumPy / ml_dtypes names work too).
    #[arg(long, value_name = "TYPE", value_parser = parse_dtype)]
    pub dtype: Option<Dtype>,
}

impl Inputs {
    /// Whether tensors were given with `--input`.
    pub fn given(&self) -> bool {
        !self.input.is_empty()
    }

    /// The tensors to work on: the inputs if given (each one that fails is reported on
    /// stderr), else the corpus in `dir` (default: the bundled one).
    pub fn open(&self, dir: Option<&Path>) -> Result<Corpus, String> {
        if !self.given() {
            if self.dtype.is_some() {
                return Err("--dtype types the files of --input: give --input".into());
            }
            let dir = dir.map_or_else(Corpus::default_dir, Path::to_path_buf);
            return Corpus::open(&dir).map_err(|e| e.to_string());
        }
        if let Some(dir) = dir {
            return Err(format!(
                "--corpus {} and --input: give one or the other",
                dir.display()
            ));
        }
        let (corpus, errors) = open_inputs(&self.input, self.dtype);
        for e in &errors {
            eprintln!("cdma: skipped {e}");
        }
        if corpus.entries().is_empty() {
            return Err(format!(
                "no tensor could be read from {}",
                self.input
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        eprintln!(
            "cdma: {} tensors from --input{}",
            corpus.entries().len(),
            if errors.is_empty() {
                String::new()
            } else {
                format!(" ({} skipped)", errors.len())
            }
        );
        Ok(corpus)
    }

    /// What the tensors are, for a run's header line.
    pub fn describe(&self, dir: Option<&Path>) -> String {
        if self.given() {
            let paths: Vec<String> = self.input.iter().map(|p| p.display().to_string()).collect();
            paths.join(" ")
        } else {
            dir.map_or_else(Corpus::default_dir, Path::to_path_buf)
                .display()
                .to_string()
        }
    }
}

/// The one tensor of a file given to `compress` or `sim`: a `.npy` or single-tensor
/// `.safetensors` file gives its data and type (a `.npy` of NumPy's anonymous records typed by
/// its name); any other file is raw little-endian data, untyped.
pub fn read_tensor(path: &Path) -> Result<(Vec<u8>, Option<Dtype>), String> {
    let container = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("npy" | "safetensors")
    );
    if !container {
        let data =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        return Ok((data, None));
    }
    let (corpus, errors) = open_inputs(&[path.to_path_buf()], None);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    match corpus.entries() {
        [e] => Ok((corpus.read(e).map_err(|e| e.to_string())?, Some(e.dtype))),
        many => Err(format!(
            "{}: {} tensors ({}); give a file of one tensor",
            path.display(),
            many.len(),
            many.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
        )),
    }
}
