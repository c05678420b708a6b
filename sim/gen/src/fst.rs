//! GTKWave's FST writer, compiled once into a C library for `cdma-sim`'s VCD-to-FST converter.
//!
//! A Verilated model traces in the one format it was verilated for, and verilating every top
//! twice (VCD and FST) would double the long C++ build. So the models trace VCD and `cdma-sim`
//! converts a trace to FST on close, through the FST writer Verilator itself ships
//! (`include/gtkwave/fstapi.c` with its `lz4.c` and `fastlz.c`; it needs zlib, `-lz`).

use std::path::PathBuf;

use crate::compile::compile_cached;
use crate::error::fail;
use crate::verilator::Verilator;

/// Name of the static library holding the FST writer.
pub const FST_LIB: &str = "cdma_fstapi";

/// The writer's C files, in Verilator's `include/gtkwave`.
pub const FST_SOURCES: &[&str] = &["fstapi.c", "lz4.c", "fastlz.c"];

/// Compile the FST writer into `<cache>/units/cdma_fstapi` unless it is cached under
/// `base_key` (which holds the Verilator version and root). Returns whether it compiled.
pub fn compile_fstapi(verilator: &Verilator, cache: &std::path::Path, base_key: &str) -> bool {
    let dir = verilator.root.join("include/gtkwave");
    let files: Vec<PathBuf> = FST_SOURCES.iter().map(|f| dir.join(f)).collect();
    for f in &files {
        if !f.is_file() {
            fail(format!(
                "Verilator's FST writer {} does not exist (is the Verilator install complete?)",
                f.display()
            ));
        }
    }
    let key = crate::cache::fingerprint(&[base_key, FST_LIB, &format!("{FST_SOURCES:?}")]);
    compile_cached(cache, FST_LIB, &key, &files, |build| {
        build
            .include(&dir)
            // As Verilator's verilated_fst_c.cpp includes it: its own config header, and the
            // single-threaded writer (no FST_WRITER_PARALLEL: the conversion is one pass).
            .define("FST_CONFIG_INCLUDE", "\"fst_config.h\"");
    })
}
