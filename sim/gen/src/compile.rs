//! Compiling C++ (and C) into the cached static libraries the crate links: one unit per call.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{fail, write};
use crate::verilator::Verilator;

/// C++ flags and defines of every compiled unit (besides -O2 and include paths). Part of every
/// cache key. The defines are the ones Verilator's own makefile passes for a VCD-traced model.
pub const CXX_FLAGS: &[&str] = &["-std=gnu++17"];
/// See [`CXX_FLAGS`].
pub const CXX_DEFINES: &[(&str, &str)] = &[
    ("VM_COVERAGE", "0"),
    ("VM_SC", "0"),
    ("VM_TRACE", "1"),
    ("VM_TRACE_FST", "0"),
    ("VM_TRACE_VCD", "1"),
];

/// Compile the C++ `files` into `OUT_DIR/units/<lib>/lib<lib>.a` unless the stamp there
/// already holds `key`. Returns whether it compiled.
pub fn compile_unit(
    verilator: &Verilator,
    out_dir: &Path,
    lib: &str,
    key: &str,
    includes: &[&Path],
    files: &[PathBuf],
) -> bool {
    compile_cached(out_dir, lib, key, files, |build| {
        build
            .cpp(true)
            .include(verilator.root.join("include"))
            .include(verilator.root.join("include/vltstd"));
        for flag in CXX_FLAGS {
            build.flag(flag);
        }
        for (name, value) in CXX_DEFINES {
            build.define(name, *value);
        }
        for inc in includes {
            build.include(inc);
        }
    })
}

/// Compile `files` with the language, includes and defines `configure` sets, at -O2 without
/// debug info, into `OUT_DIR/units/<lib>/lib<lib>.a` unless the stamp there already holds
/// `key`. Returns whether it compiled.
pub fn compile_cached(
    out_dir: &Path,
    lib: &str,
    key: &str,
    files: &[PathBuf],
    configure: impl FnOnce(&mut cc::Build),
) -> bool {
    let dir = out_dir.join("units").join(lib);
    let stamp = dir.join("stamp");
    let archive = dir.join(format!("lib{lib}.a"));
    if archive.is_file() && fs::read_to_string(&stamp).is_ok_and(|s| s == key) {
        return false;
    }
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)
        .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", dir.display())));
    let mut build = cc::Build::new();
    build
        // The point of the whole crate: fast models even in `cargo test` (debug) builds.
        .opt_level(2)
        // Debug info for ~100k lines of generated C++ costs build time and nobody steps into it.
        .debug(false)
        // Verilator's generated code (and GTKWave's FST writer) is not warning-clean under
        // -Wall -Wextra; Verilator's own makefile turns them off as well.
        .warnings(false)
        .out_dir(&dir)
        // main() emits the link lines, in the order GNU ld needs.
        .cargo_metadata(false);
    configure(&mut build);
    build.files(files);
    if let Err(e) = build.try_compile(lib) {
        fail(format!("compiling {lib} failed: {e}"));
    }
    write(&stamp, key);
    true
}
