//! The build script's work, start to end: the tops to build, verilation, the generated shims
//! and wrappers, the cached C++ units and the link lines for Cargo.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cache::{cache_root, fingerprint, CacheLock};
use crate::compile::{compile_unit, CXX_DEFINES, CXX_FLAGS};
use crate::error::{fail, write};
use crate::fst::{compile_fstapi, FST_LIB};
use crate::names::check_unique_names;
use crate::shim::gen_shim;
use crate::top::TopSpec;
use crate::verilator::{verilate, Verilator, VERILATOR_ARGS};
use crate::wrapper::{gen_rust, rust_prelude};

/// Everything `cdma-sim`'s build script does after announcing what it depends on: verilate
/// every top (`hdl_tops()` plus the bridge's self-test top, or the ones `CDMA_SIM_TOPS`
/// names), write `tops.rs` into `OUT_DIR`, compile the C++ and print the link lines. Stops
/// the build with a message on the first problem.
pub fn build(hdl_tops: impl FnOnce() -> Vec<TopSpec>) {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));

    let verilator = Verilator::find();
    let tops = all_tops(&manifest_dir, hdl_tops);
    check_unique_names(&tops).unwrap_or_else(|e| fail(e));

    // Build products are cached per unit (the runtime, each model, each shim) under OUT_DIR,
    // keyed by a fingerprint of everything that goes into them: an edit to one top
    // re-verilates and recompiles only that top, and the runtime (~15 s of CPU) is compiled
    // once.
    let flags = format!("{VERILATOR_ARGS:?} {CXX_FLAGS:?} {CXX_DEFINES:?} -O2");
    let base_key = [
        flags.as_str(),
        verilator.version.as_str(),
        &verilator.root.display().to_string(),
        &std::env::var("CXX").unwrap_or_default(),
        &std::env::var("CXXFLAGS").unwrap_or_default(),
        &std::env::var("TARGET").unwrap_or_default(),
    ]
    .join("\0");

    let cache = cache_root(&out_dir);
    let _lock = CacheLock::acquire(&cache);
    let mut verilated = Vec::new();
    for top in tops {
        verilated.push(verilate(&verilator, &cache, &base_key, top));
    }

    let t0 = std::time::Instant::now();
    let mut compiled = Vec::new();
    let mut rust = String::new();
    let modules: Vec<&str> = verilated.iter().map(|v| v.top.module.as_str()).collect();
    rust_prelude(&mut rust, &modules);
    let mut libs = Vec::new();
    for v in &verilated {
        let m = &v.top.module;
        gen_rust(&mut rust, &v.top, &v.ports);
        // The shim is its own unit: editing the generator recompiles only the small shims,
        // not the (large) models.
        let shim = v.obj_dir.join(format!("shim_{m}.cpp"));
        let text = gen_shim(m, &v.ports);
        write(&shim, &text);
        let lib = format!("cdma_vl_shim_{m}");
        let key = fingerprint(&[&v.key, &text]);
        if compile_unit(&verilator, &cache, &lib, &key, &[&v.obj_dir], &[shim]) {
            compiled.push(format!("shim {m}"));
        }
        libs.push(lib);
    }
    for v in &verilated {
        let m = &v.top.module;
        let lib = format!("cdma_vl_model_{m}");
        if compile_unit(
            &verilator,
            &cache,
            &lib,
            &v.key,
            &[&v.obj_dir],
            &v.model_cpp,
        ) {
            compiled.push(format!("model {m}"));
        }
        libs.push(lib);
    }
    write(&out_dir.join("tops.rs"), &rust);

    // The runtime is shared by all models: compiled once, linked last (GNU ld resolves
    // static libraries left to right).
    let runtime: BTreeSet<String> = verilated.iter().flat_map(|v| v.runtime.clone()).collect();
    let mut files = Vec::new();
    for name in &runtime {
        let file = verilator.root.join("include").join(format!("{name}.cpp"));
        if !file.is_file() {
            fail(format!(
                "Verilator runtime file {} (named by the generated makefile) does not exist",
                file.display()
            ));
        }
        files.push(file);
    }
    let rt_key = fingerprint(&[&base_key, &format!("{runtime:?}")]);
    if compile_unit(&verilator, &cache, "cdma_vl_runtime", &rt_key, &[], &files) {
        compiled.push("Verilator runtime".into());
    }
    libs.push("cdma_vl_runtime".into());
    if compile_fstapi(&verilator, &cache, &base_key) {
        compiled.push("FST writer".into());
    }
    libs.push(FST_LIB.into());

    for lib in &libs {
        println!(
            "cargo:rustc-link-search=native={}",
            cache.join("units").join(lib).display()
        );
        println!("cargo:rustc-link-lib=static={lib}");
    }
    let target = std::env::var("TARGET").unwrap_or_default();
    let cxx_std = std::env::var("CXXSTDLIB").unwrap_or_else(|_| {
        if target.contains("apple") || target.contains("freebsd") {
            "c++".into()
        } else {
            "stdc++".into()
        }
    });
    println!("cargo:rustc-link-lib={cxx_std}");
    // The FST writer compresses with zlib.
    println!("cargo:rustc-link-lib=z");
    // Verilator's runtime uses std::thread.
    println!("cargo:rustc-link-lib=pthread");
    if !compiled.is_empty() {
        println!(
            "cargo:warning=cdma-sim: verilated and compiled {} in {:.1} s",
            compiled.join(", "),
            t0.elapsed().as_secs_f64()
        );
    }
}
/// The tops to build: every rust-hdl top, plus the bridge's width self-test.
fn all_tops(manifest_dir: &Path, hdl_tops: impl FnOnce() -> Vec<TopSpec>) -> Vec<TopSpec> {
    let mut tops = hdl_tops();
    // `CDMA_SIM_SKIP=a,b` leaves the named tops out (scripts/test skips the standalone ZVC-X
    // codec tops, whose tests scripts/run runs).
    if let Ok(skip) = std::env::var("CDMA_SIM_SKIP") {
        let skip: BTreeSet<&str> = skip.split(',').map(str::trim).collect();
        tops.retain(|t| !skip.contains(t.module.as_str()));
        println!("cargo:warning=cdma-sim: CDMA_SIM_SKIP set, leaving out {skip:?}");
    }
    // Opt-in, for iterating on one design: `CDMA_SIM_TOPS=cdma_dma_dw256,...` builds only the
    // named rust-hdl tops (and the self-test top). Unset (the default) builds every top.
    if let Ok(only) = std::env::var("CDMA_SIM_TOPS") {
        let only = retain_named(&mut tops, &only).unwrap_or_else(|e| fail(e));
        println!(
            "cargo:warning=cdma-sim: CDMA_SIM_TOPS set, building only {}",
            only.join(", ")
        );
    }

    let path = manifest_dir.join("verilog/cdma_sim_widths.v");
    let verilog = fs::read_to_string(&path)
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
    tops.push(TopSpec {
        module: "cdma_sim_widths".into(),
        verilog,
        ports: None,
        params: Vec::new(),
        doc: "The bridge's own self-test top (`sim/verilog/cdma_sim_widths.v`): one input `dN` \
              and one registered output `qN` per width N in every Verilator storage class, the \
              combinational `n1056 = ~d1056` and a `cycles` counter. Not cdma RTL."
            .into(),
    });
    tops
}

/// Keeps the tops a comma-separated `only` list names (`CDMA_SIM_TOPS`); returns the names,
/// sorted. A name that is not a top is an error.
fn retain_named(tops: &mut Vec<TopSpec>, only: &str) -> Result<Vec<String>, String> {
    let only: BTreeSet<&str> = only
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    for name in &only {
        if !tops.iter().any(|t| t.module == *name) {
            return Err(format!("CDMA_SIM_TOPS names an unknown top `{name}`"));
        }
    }
    tops.retain(|t| only.contains(t.module.as_str()));
    Ok(only.into_iter().map(str::to_string).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::top::fixtures::top;

    #[test]
    fn cdma_sim_tops_keeps_the_named_tops_in_build_order() {
        let mut tops = vec![top("a"), top("b"), top("c")];
        let names = retain_named(&mut tops, " c, a ,,").unwrap();
        assert_eq!(names, ["a", "c"]);
        let kept: Vec<_> = tops.iter().map(|t| t.module.as_str()).collect();
        assert_eq!(kept, ["a", "c"]);
        let e = retain_named(&mut tops, "a,zz").unwrap_err();
        assert_eq!(e, "CDMA_SIM_TOPS names an unknown top `zz`");
    }
}
