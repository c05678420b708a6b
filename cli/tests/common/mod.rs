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

// The users' tensor files the corpus tests write (.npy, .safetensors).
#[path = "../../../corpus/tests/common/files.rs"]
mod files;
#[allow(unused_imports)] // each test file uses the helpers it needs
pub use files::{npy, safetensors_file};
