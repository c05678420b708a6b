//! The report cache of `cdma synth`: a job whose inputs did not change since its report was
//! written is not run again (a full run is hours of Yosys; most changes touch a few blocks).
//!
//! A job's inputs are hashed into a key ([`key`]) stored in its report; the next run computes
//! the key again and reuses the report in the reports directory when the keys are equal
//! ([`lookup`]). The key covers everything a result depends on that can change between runs:
//! the block's Verilog (its modules, not the whole top's), the scripts the job generates (Yosys run script, place-and-route wrapper,
//! nextpnr's command line with its device), every file of synth/ those scripts use (found by
//! name, transitively), the tool versions, the job kind and the figures the crate computes.
//! What it does not cover: a tool rebuilt without a new version string, and a change of how
//! figures are read from the tool outputs; [`FORMAT`] is bumped for the latter.

use crate::flow::{self, Report, SYNTH_FILES};
use sha2::{Digest, Sha256};
use std::path::Path;

/// Version of the way figures are computed from the tools' outputs: bumping it invalidates
/// every cached report (when a parser or a figure's formula changes without a script or
/// tool change).
pub const FORMAT: u32 = 1;

/// What one job's result depends on.
#[derive(Clone, Debug)]
pub struct Inputs<'a> {
    /// Job kind: target or place-and-route key (`generic`, `pnr-ecp5`, …).
    pub kind: &'a str,
    /// Block (Verilog module) synthesised.
    pub block: &'a str,
    /// The Verilog the job depends on: the block's module and those below it (Yosys reads
    /// the whole top's file but keeps only these).
    pub verilog: &'a str,
    /// Texts the job generates, by name: the Yosys run script, the wrapper, nextpnr's command
    /// line. The files of synth/ they name are hashed too.
    pub generated: Vec<(String, String)>,
    /// Tool version lines (Yosys, nextpnr).
    pub tools: Vec<String>,
}

/// The files among `files` (name and text; synth/'s are [`SYNTH_FILES`]) that `texts` use,
/// directly or through each other: a file is used when its name appears outside a `#`
/// comment of a text already used (`script check.ys`, `-script abc_lut.abc`, `read_liberty
/// -lib cells.lib`). Comments do not count: abc_lut.abc's header names the scripts that use
/// it, which it does not depend on.
pub fn used_files<'f>(texts: &[&'f str], files: &[(&'f str, &'f str)]) -> Vec<(&'f str, &'f str)> {
    let mut used: Vec<(&str, &str)> = vec![];
    let mut frontier: Vec<&str> = texts.to_vec();
    while let Some(text) = frontier.pop() {
        let code: String = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        for &(name, body) in files {
            if code.contains(name) && !used.iter().any(|(n, _)| *n == name) {
                used.push((name, body));
                frontier.push(body);
            }
        }
    }
    used.sort();
    used
}

/// The SHA-256 key (hex) of a job's inputs, with synth/'s files as compiled in.
pub fn key(i: &Inputs) -> String {
    key_with(i, &SYNTH_FILES)
}

/// The key of a job's inputs when synth/'s files are `files` (tests edit one).
pub fn key_with(i: &Inputs, files: &[(&str, &str)]) -> String {
    let mut h = Sha256::new();
    // Every field is length-prefixed, so two different inputs never hash the same bytes.
    let mut put = |label: &str, text: &str| {
        for part in [label, text] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
    };
    put("format", &FORMAT.to_string());
    put("kind", i.kind);
    put("block", i.block);
    put("verilog", i.verilog);
    // The figures of the kind: a figure added to the crate is computed, not read from an old
    // report that lacks it.
    let figures: Vec<&str> = flow::metrics(i.kind).iter().map(|m| m.key).collect();
    put("figures", &figures.join(","));
    for (name, text) in &i.generated {
        put(name, text);
    }
    let texts: Vec<&str> = i.generated.iter().map(|(_, t)| t.as_str()).collect();
    for (name, text) in used_files(&texts, files) {
        put(name, text);
    }
    for t in &i.tools {
        put("tool", t);
    }
    h.finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// The report at `path` if it was made from the inputs of `key` (same block and kind too):
/// the job need not run. A missing, unreadable or older report is no hit.
pub fn lookup(path: &Path, key: &str, block: &str, kind: &str) -> Option<Report> {
    let r = crate::reports::load_report(path).ok()?;
    (r.key.as_deref() == Some(key) && r.block == block && r.target == kind).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Inputs<'static> {
        Inputs {
            kind: "generic",
            block: "blk",
            verilog: "module blk(input a, output b); assign b = a; endmodule\n",
            generated: vec![(
                "run.ys".into(),
                "read_liberty -lib cells.lib\nread_verilog design.v\nscript check.ys\n\
                 script generic.ys\n"
                    .into(),
            )],
            tools: vec!["Yosys 0.23 (git sha1 7ce5011c24b)".into()],
        }
    }

    #[test]
    fn the_key_is_stable_and_changes_with_every_input() {
        let base = inputs();
        let k = key(&base);
        assert_eq!(k.len(), 64, "hex SHA-256");
        assert_eq!(key(&inputs()), k, "same inputs, same key");

        let mut v = inputs();
        v.verilog = "module blk(input a, output b); assign b = ~a; endmodule\n";
        assert_ne!(key(&v), k, "Verilog");
        let mut v = inputs();
        v.generated[0].1 = v.generated[0].1.replace("generic.ys", "ice40.ys");
        assert_ne!(key(&v), k, "run script");
        let mut v = inputs();
        v.tools[0] = "Yosys 0.24".into();
        assert_ne!(key(&v), k, "tool version");
        let mut v = inputs();
        v.kind = "ice40";
        assert_ne!(key(&v), k, "job kind");
        let mut v = inputs();
        v.block = "blk2";
        assert_ne!(key(&v), k, "block");
        let mut v = inputs();
        v.generated.push(("nextpnr".into(), "--25k".into()));
        let k25 = key(&v);
        v.generated[1].1 = "--45k".into();
        assert_ne!(key(&v), k25, "device");
        // Moving text between fields is a different input, not the same bytes.
        let mut a = inputs();
        a.tools = vec!["ab".into(), "c".into()];
        let mut b = inputs();
        b.tools = vec!["a".into(), "bc".into()];
        assert_ne!(key(&a), key(&b));
    }

    #[test]
    fn scripts_are_followed_to_the_files_they_use() {
        let names = |t: &'static str| -> Vec<&str> {
            used_files(&[t], &SYNTH_FILES).iter().map(|f| f.0).collect()
        };
        // generic.ys runs abc_lib.abc and maps to cells.lib.
        assert_eq!(
            names("script check.ys\nscript generic.ys\n"),
            ["abc_lib.abc", "cells.lib", "check.ys", "generic.ys"]
        );
        assert_eq!(
            names("script check.ys\nscript ice40.ys\n"),
            ["abc_lut.abc", "check.ys", "ice40.ys"]
        );
        assert!(names("nothing").is_empty());
        assert!(names("# script ice40.ys\n").is_empty(), "a comment");
    }

    /// A file of synth/ edited after a report was written: the key of a job that uses it
    /// changes, that of a job that does not stays.
    #[test]
    fn a_used_file_of_synth_is_part_of_the_key() {
        let generic = inputs();
        let mut ice40 = inputs();
        ice40.generated[0].1 = "script check.ys\nscript ice40.ys\n".into();
        let edited: Vec<(&str, &str)> = SYNTH_FILES
            .iter()
            .map(|&(n, t)| (n, if n == "abc_lib.abc" { "strash\n" } else { t }))
            .collect();
        assert_ne!(
            key_with(&generic, &edited),
            key(&generic),
            "generic.ys uses it"
        );
        assert_eq!(key_with(&ice40, &edited), key(&ice40), "ice40.ys does not");
    }

    #[test]
    fn lookup_needs_the_same_key_block_and_kind() {
        let dir = std::env::temp_dir().join(format!("cdma-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("blk.generic.json");
        let rep = Report {
            block: "blk".into(),
            top: "blk".into(),
            elem_bits: 8,
            target: "generic".into(),
            tool: "Yosys".into(),
            seconds: 1.0,
            metrics: Default::default(),
            cells: Default::default(),
            generic_cells: Default::default(),
            note: None,
            key: Some("k1".into()),
        };
        std::fs::write(&path, serde_json::to_string(&rep).unwrap()).unwrap();
        assert!(lookup(&path, "k1", "blk", "generic").is_some());
        assert!(lookup(&path, "k2", "blk", "generic").is_none());
        assert!(lookup(&path, "k1", "blk", "ice40").is_none());
        assert!(lookup(&dir.join("none.json"), "k1", "blk", "generic").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
