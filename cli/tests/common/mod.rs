//! Shared by the CLI tests: running the built `cdma` binary as the user runs it.

#![allow(dead_code)] // each test file uses the helpers it needs

use std::process::{Command, Output};

/// Runs `cdma args…` and returns what it did.
pub fn cdma(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cdma"))
        .args(args)
        .output()
        .expect("run cdma")
}

/// Runs `cdma args…`, which must succeed, and returns its standard output.
pub fn cdma_ok(args: &[&str]) -> String {
    let out = cdma(args);
    assert!(
        out.status.success(),
        "cdma {args:?} failed:\n{}",
        text(&out)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Both output streams, for failure messages.
pub fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// An .npy file (format 1.0, C order) of `descr` and `shape` holding `data`.
pub fn npy(path: &std::path::Path, descr: &str, shape: &[usize], data: &[u8]) {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let mut h = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({},), }}",
        dims.join(", ")
    );
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut f = b"\x93NUMPY\x01\x00".to_vec();
    f.extend_from_slice(&(h.len() as u16).to_le_bytes());
    f.extend_from_slice(h.as_bytes());
    f.extend_from_slice(data);
    std::fs::write(path, f).unwrap();
}
