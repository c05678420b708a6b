//! Failure cases saved as files, replayed by the regression tests (fuzz/tests/campaign.rs): a
//! case is `<class>-<mutation>-s<seed>-c<index>.frame` (the damaged frame, shrunk) beside
//! `….data` (the data of its seed frame). A saved case passes when the decoder now refuses
//! the frame or returns that data, without a panic.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::campaign::Outcome;
use crate::{classify, Class, Decoder};

/// A case read back from disk.
#[derive(Clone, Debug)]
pub struct SavedCase {
    /// File stem.
    pub name: String,
    /// The damaged frame.
    pub frame: Vec<u8>,
    /// The data of its seed frame.
    pub data: Vec<u8>,
}

impl SavedCase {
    /// What the decoder does with it now; [`Class::Detected`] and [`Class::Benign`] pass.
    pub fn replay(&self, decoder: &dyn Decoder) -> Class {
        classify(decoder, &self.frame, &self.data)
    }
}

/// Writes `o` into `dir` (created if missing); returns the frame file's path.
pub fn save(dir: &Path, seed: u64, o: &Outcome) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let stem = format!(
        "{}-{}-s{seed}-c{}",
        o.class.name(),
        o.mutation.name(),
        o.index
    );
    let frame = dir.join(format!("{stem}.frame"));
    fs::write(&frame, &o.frame)?;
    fs::write(dir.join(format!("{stem}.data")), &o.data)?;
    Ok(frame)
}

/// Every case in `dir` (none if it does not exist), in name order.
pub fn load(dir: &Path) -> io::Result<Vec<SavedCase>> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut names: Vec<PathBuf> = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<_>>()?;
    names.retain(|p| p.extension().is_some_and(|x| x == "frame"));
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let data = fs::read(p.with_extension("data")).map_err(|e| {
                io::Error::new(e.kind(), format!("{}: its .data file: {e}", p.display()))
            })?;
            Ok(SavedCase {
                name: p
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                frame: fs::read(&p)?,
                data,
            })
        })
        .collect()
}

/// Whether a replay's class passes.
pub fn passes(class: Class) -> bool {
    matches!(class, Class::Detected | Class::Benign)
}
