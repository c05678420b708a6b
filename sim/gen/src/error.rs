//! How the build script reports a problem: one clear line on stderr, then exit.

use std::fs;
use std::path::Path;

/// Print a build error and stop. Cargo shows the build script's stderr, so this is what the
/// user reads; a panic backtrace would only bury the message.
pub fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("error: cdma-sim build: {msg}");
    std::process::exit(1);
}

/// Write a file or stop with a clear message.
pub fn write(path: &Path, text: &str) {
    if let Err(e) = fs::write(path, text) {
        fail(format!("cannot write {}: {e}", path.display()));
    }
}
