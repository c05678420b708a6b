//! Build script of `cdma-sim`: our own Verilator bridge.
//!
//! For every top that `cdma_hdl::all_tops()` describes (plus the bridge's own width self-test
//! top in `verilog/`), it
//! 1. writes the Verilog into `OUT_DIR`, runs `verilator --cc -O3 --trace`,
//! 2. reads the generated model header back and checks that Verilator's ports are exactly the
//!    port list rust-hdl gave us (names, directions, widths),
//! 3. generates an `extern "C"` shim (`shim_<module>.cpp`) from the port list,
//! 4. compiles the Verilator runtime once, every model and every shim with `cc` at `-O2`
//!    (even in debug builds: an unoptimised model is ~10x slower and the tests stream whole
//!    tensors through it), into one static library `cdma_verilated`,
//! 5. generates the safe Rust wrappers (`tops.rs`, included by `src/lib.rs`).
//!
//! Nothing here is specific to one top: adding a top to `cdma_hdl::all_tops()` is all it takes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Verilator arguments of every top (besides prefix, top module and paths). Part of the cache
/// key of the verilated model.
const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "-O3",
    "--trace",
    // Lint is the HDL side's job (`verilator --lint-only -Wall` with its waiver file); the
    // bridge must not refuse a model over a style warning. Warnings are still shown.
    "-Wno-fatal",
];

/// C++ flags and defines of every compiled unit (besides -O2 and include paths). Part of every
/// cache key. The defines are the ones Verilator's own makefile passes for a VCD-traced model.
const CXX_FLAGS: &[&str] = &["-std=gnu++17"];
const CXX_DEFINES: &[(&str, &str)] = &[
    ("VM_COVERAGE", "0"),
    ("VM_SC", "0"),
    ("VM_TRACE", "1"),
    ("VM_TRACE_FST", "0"),
    ("VM_TRACE_VCD", "1"),
];

/// Message printed when Verilator is missing, so a fresh machine knows what to do.
const INSTALL_HINT: &str =
    "install with: apt-get install -y verilator (Verilator >= 5 is required; \
                            set $VERILATOR to use a binary that is not on PATH)";

/// Methods every generated wrapper has; a port whose getter or setter would take one of these
/// names cannot be wrapped and is reported at build time instead of failing to compile later.
const RESERVED_METHODS: &[&str] = &[
    "new",
    "eval",
    "tick",
    "time",
    "trace_vcd",
    "close_trace",
    "module",
    "ports",
    "params",
    "port",
    "set_words",
    "get_words",
    "set_u64",
    "get_u64",
    "drop",
];

/// Rust keywords: a port named like one gets a raw-identifier getter (`r#type`).
const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield",
];

/// Print a build error and stop. Cargo shows the build script's stderr, so this is what the
/// user reads; a panic backtrace would only bury the message.
fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("error: cdma-sim build: {msg}");
    std::process::exit(1);
}

/// Port direction, as the bridge sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    In,
    Out,
}

/// One port of a top, as given by the HDL side.
#[derive(Clone, Debug)]
struct PortSpec {
    name: String,
    width: usize,
    dir: Dir,
    doc: String,
}

/// One top-level module to verilate and wrap.
#[derive(Clone, Debug)]
struct TopSpec {
    module: String,
    verilog: String,
    /// `None` means "take the ports from Verilator's header" (only the hand-written self-test
    /// top does that; rust-hdl tops always come with their port list, which is then checked).
    ports: Option<Vec<PortSpec>>,
    params: Vec<(String, u64)>,
    doc: String,
}

/// A top after verilation: where its files are and its final, checked port list.
struct Verilated {
    top: TopSpec,
    /// Cache key of this top's build products.
    key: String,
    ports: Vec<PortSpec>,
    obj_dir: PathBuf,
    model_cpp: Vec<PathBuf>,
    runtime: BTreeSet<String>,
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=verilog");
    println!("cargo:rerun-if-changed=../hdl/src");
    println!("cargo:rerun-if-changed=../hdl/Cargo.toml");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    println!("cargo:rerun-if-env-changed=VERILATOR_ROOT");
    println!("cargo:rerun-if-env-changed=CDMA_SIM_TOPS");
    for var in ["CXX", "CXXFLAGS", "CXXSTDLIB"] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));

    let verilator = Verilator::find();
    let tops = all_tops(&manifest_dir);
    check_unique_names(&tops);

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
    rust_prelude(&mut rust, &verilated);
    let mut libs = Vec::new();
    for v in &verilated {
        let m = &v.top.module;
        gen_rust(&mut rust, v);
        // The shim is its own unit: editing the generator recompiles only the small shims,
        // not the (large) models.
        let shim = v.obj_dir.join(format!("shim_{m}.cpp"));
        let text = gen_shim(v);
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

/// Where verilated models and compiled units are cached. The C++ is built the same way in
/// every Cargo profile (-O2, no debug info), so debug and release builds share one cache in
/// the target directory (`<target>/cdma-sim-cache`) instead of compiling everything twice;
/// Cargo's build-directory lock keeps two builds from writing it at once. Falls back to
/// OUT_DIR if the layout is not the usual `<target>/<profile>/build/<pkg>-<hash>/out`.
fn cache_root(out_dir: &Path) -> PathBuf {
    let profile_dir = out_dir.ancestors().nth(3);
    let is_build = out_dir
        .ancestors()
        .nth(2)
        .and_then(Path::file_name)
        .is_some_and(|n| n == "build");
    match (is_build, profile_dir.and_then(Path::parent)) {
        (true, Some(target)) => target.join("cdma-sim-cache"),
        _ => out_dir.join("cdma-sim-cache"),
    }
}

/// Exclusive use of the shared cache while this build script runs: Cargo locks each profile
/// directory separately, so a debug and a release build could otherwise verilate into the same
/// directory at once. A lock file holding our pid; a lock whose holder is gone (killed build)
/// is taken over.
struct CacheLock(PathBuf);

impl CacheLock {
    fn acquire(cache: &Path) -> Self {
        fs::create_dir_all(cache)
            .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", cache.display())));
        let path = cache.join("lock");
        let mut warned = false;
        loop {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    use std::io::Write as _;
                    let _ = write!(f, "{}", std::process::id());
                    return CacheLock(path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if Self::is_stale(&path) {
                        let _ = fs::remove_file(&path);
                        continue;
                    }
                    if !warned {
                        println!(
                            "cargo:warning=cdma-sim: waiting for another build using {}",
                            cache.display()
                        );
                        warned = true;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(500));
                }
                Err(e) => fail(format!("cannot create lock file {}: {e}", path.display())),
            }
        }
    }

    /// The holder's pid no longer runs (checked through /proc), or the file has had no pid
    /// for a minute.
    fn is_stale(path: &Path) -> bool {
        let pid = fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok());
        match pid {
            Some(pid) => {
                Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists()
            }
            None => fs::metadata(path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 60),
        }
    }
}

impl Drop for CacheLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// Hex fingerprint of some strings (a cache key, not a security property).
fn fingerprint(parts: &[&str]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    parts.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// Compile `files` into `OUT_DIR/units/<lib>/lib<lib>.a` unless the stamp there already holds
/// `key`. Returns whether it compiled.
fn compile_unit(
    verilator: &Verilator,
    out_dir: &Path,
    lib: &str,
    key: &str,
    includes: &[&Path],
    files: &[PathBuf],
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
        .cpp(true)
        // The point of the whole crate: fast models even in `cargo test` (debug) builds.
        .opt_level(2)
        // Debug info for ~100k lines of generated C++ costs build time and nobody steps into it.
        .debug(false)
        // Verilator's generated code is not warning-clean under -Wall -Wextra; its own
        // makefile turns them off as well.
        .warnings(false)
        .include(verilator.root.join("include"))
        .include(verilator.root.join("include/vltstd"))
        .out_dir(&dir)
        // main() emits the link lines, in the order GNU ld needs.
        .cargo_metadata(false);
    for flag in CXX_FLAGS {
        build.flag(flag);
    }
    for (name, value) in CXX_DEFINES {
        build.define(name, *value);
    }
    for inc in includes {
        build.include(inc);
    }
    build.files(files);
    if let Err(e) = build.try_compile(lib) {
        fail(format!("compiling {lib} failed: {e}"));
    }
    write(&stamp, key);
    true
}

/// Write a file or stop with a clear message.
fn write(path: &Path, text: &str) {
    if let Err(e) = fs::write(path, text) {
        fail(format!("cannot write {}: {e}", path.display()));
    }
}

/// The tops to build: every rust-hdl top, plus the bridge's width self-test.
fn all_tops(manifest_dir: &Path) -> Vec<TopSpec> {
    let mut tops = hdl_tops();
    // Opt-in, for iterating on one design: `CDMA_SIM_TOPS=cdma_dma_dw256,...` builds only the
    // named rust-hdl tops (and the self-test top). Unset (the default) builds every top.
    if let Ok(only) = std::env::var("CDMA_SIM_TOPS") {
        let only: BTreeSet<&str> = only
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        for name in &only {
            if !tops.iter().any(|t| t.module == *name) {
                fail(format!("CDMA_SIM_TOPS names an unknown top `{name}`"));
            }
        }
        tops.retain(|t| only.contains(t.module.as_str()));
        println!(
            "cargo:warning=cdma-sim: CDMA_SIM_TOPS set, building only {}",
            only.iter().copied().collect::<Vec<_>>().join(", ")
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

/// The rust-hdl tops, converted to the bridge's own description.
fn hdl_tops() -> Vec<TopSpec> {
    cdma_hdl::all_tops()
        .into_iter()
        .map(|t| TopSpec {
            doc: format!("Verilated `{}`, generated by `cdma-hdl`.", t.module),
            module: t.module,
            verilog: t.verilog,
            ports: Some(
                t.ports
                    .into_iter()
                    .map(|p| PortSpec {
                        name: p.name,
                        width: p.width,
                        dir: match p.dir {
                            cdma_hdl::Dir::In => Dir::In,
                            cdma_hdl::Dir::Out => Dir::Out,
                        },
                        doc: p.doc,
                    })
                    .collect(),
            ),
            params: t.params,
        })
        .collect()
}

/// Module names become C symbols, file names and Rust type names: they must be plain
/// identifiers and distinct after conversion.
fn check_unique_names(tops: &[TopSpec]) {
    let mut seen = BTreeMap::new();
    for t in tops {
        if !is_snake_ident(&t.module) {
            fail(format!(
                "module name {:?} is not a lower-case identifier ([a-z_][a-z0-9_]*)",
                t.module
            ));
        }
        if let Some(other) = seen.insert(type_name(&t.module), t.module.clone()) {
            fail(format!(
                "modules {other:?} and {:?} map to the same Rust type name",
                t.module
            ));
        }
    }
}

fn is_snake_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && !s.contains("__")
}

/// `cdma_zvc_compressor_e32` → `CdmaZvcCompressorE32`.
fn type_name(module: &str) -> String {
    module
        .split('_')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut c = s.chars();
            let first = c.next().expect("split filtered empty parts");
            first.to_ascii_uppercase().to_string() + c.as_str()
        })
        .collect()
}

/// The Verilator installation we build against.
struct Verilator {
    bin: PathBuf,
    root: PathBuf,
    /// `verilator --version` output, part of every cache key.
    version: String,
}

impl Verilator {
    fn find() -> Self {
        let bin = std::env::var_os("VERILATOR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("verilator"));
        let version = match Command::new(&bin).arg("--version").output() {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
            Ok(o) => fail(format!(
                "`{} --version` failed: {}\n{INSTALL_HINT}",
                bin.display(),
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => fail(format!(
                "cannot run `{}` ({e}): Verilator is needed to build cdma-sim; {INSTALL_HINT}",
                bin.display()
            )),
        };
        // "Verilator 5.006 2023-01-22 rev ...": the shim uses the Verilator 5 model API
        // (VerilatedContext-owned models, eval() scheduling), so refuse older ones up front.
        let major = version
            .split_whitespace()
            .nth(1)
            .and_then(|v| v.split('.').next())
            .and_then(|m| m.parse::<u32>().ok());
        match major {
            Some(m) if m >= 5 => {}
            _ => fail(format!(
                "found `{version}`, but cdma-sim needs Verilator >= 5 (tested with 5.006); \
                 {INSTALL_HINT}"
            )),
        }
        let root = match std::env::var_os("VERILATOR_ROOT") {
            Some(r) => PathBuf::from(r),
            None => {
                let o = Command::new(&bin)
                    .args(["--getenv", "VERILATOR_ROOT"])
                    .output()
                    .unwrap_or_else(|e| fail(format!("`verilator --getenv` failed: {e}")));
                PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())
            }
        };
        if !root.join("include/verilated.h").is_file() {
            fail(format!(
                "Verilator root {} has no include/verilated.h; {INSTALL_HINT}",
                root.display()
            ));
        }
        Verilator { bin, root, version }
    }
}

/// Run Verilator on one top and collect what the C++ compile needs.
fn verilate(verilator: &Verilator, out_dir: &Path, base_key: &str, top: TopSpec) -> Verilated {
    let module = &top.module;
    let key = fingerprint(&[
        base_key,
        module,
        &top.verilog,
        &format!("{:?}", top.ports),
        &format!("{:?}", top.params),
        &top.doc,
    ]);
    let obj_dir = out_dir.join("obj").join(module);
    let stamp = obj_dir.join("verilated.stamp");
    if !fs::read_to_string(&stamp).is_ok_and(|s| s == key) {
        run_verilator(verilator, out_dir, &top, &obj_dir);
        write(&stamp, &key);
    }
    finish_verilated(top, key, obj_dir)
}

/// Verilate `top` into a fresh `obj_dir`.
fn run_verilator(verilator: &Verilator, out_dir: &Path, top: &TopSpec, obj_dir: &Path) {
    let module = &top.module;
    let prefix = format!("V{module}");
    let vdir = out_dir.join("verilog");
    // A stale object dir could hold files of an older model with other hashed names.
    let _ = fs::remove_dir_all(obj_dir);
    for d in [&vdir, obj_dir] {
        fs::create_dir_all(d)
            .unwrap_or_else(|e| fail(format!("cannot create {}: {e}", d.display())));
    }
    let vfile = vdir.join(format!("{module}.v"));
    write(&vfile, &top.verilog);
    let output = Command::new(&verilator.bin)
        .args(VERILATOR_ARGS)
        .args(["--prefix", &prefix, "--top-module", module])
        .arg("-Mdir")
        .arg(obj_dir)
        .arg(&vfile)
        .output()
        .unwrap_or_else(|e| fail(format!("cannot run verilator: {e}; {INSTALL_HINT}")));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        fail(format!(
            "verilator failed on {} ({}):\n{stderr}",
            vfile.display(),
            output.status
        ));
    }
    for line in stderr.lines().filter(|l| l.starts_with("%Warning")) {
        println!("cargo:warning=verilator ({module}): {line}");
    }
}

/// Collect the file lists and the checked port list of a verilated top.
fn finish_verilated(top: TopSpec, key: String, obj_dir: PathBuf) -> Verilated {
    let module = &top.module;
    let prefix = format!("V{module}");

    // Verilator 5 names its files after content hashes: read the list from its makefile.
    let classes = obj_dir.join(format!("{prefix}_classes.mk"));
    let mk = fs::read_to_string(&classes)
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", classes.display())));
    let vars = parse_mk(&mk);
    let mut model_cpp = Vec::new();
    for var in [
        "VM_CLASSES_FAST",
        "VM_CLASSES_SLOW",
        "VM_SUPPORT_FAST",
        "VM_SUPPORT_SLOW",
    ] {
        for name in vars.get(var).into_iter().flatten() {
            model_cpp.push(obj_dir.join(format!("{name}.cpp")));
        }
    }
    if model_cpp.is_empty() {
        fail(format!("{} lists no model classes", classes.display()));
    }
    let runtime: BTreeSet<String> = ["VM_GLOBAL_FAST", "VM_GLOBAL_SLOW"]
        .iter()
        .flat_map(|v| vars.get(*v).cloned().unwrap_or_default())
        .collect();

    let header = obj_dir.join(format!("{prefix}.h"));
    let text = fs::read_to_string(&header)
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", header.display())));
    let from_verilator = parse_header_ports(&text, module);
    let ports = match &top.ports {
        Some(given) => {
            check_ports(module, given, &from_verilator);
            given.clone()
        }
        None => from_verilator,
    };
    check_port_names(module, &ports);
    Verilated {
        top,
        key,
        ports,
        obj_dir,
        model_cpp,
        runtime,
    }
}

/// `VAR += \ a \ b \` assignments of a Verilator makefile, joined per variable.
fn parse_mk(mk: &str) -> BTreeMap<String, Vec<String>> {
    let mut vars: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in mk.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            current = None;
            continue;
        }
        let body =
            if let Some((name, rest)) = line.split_once("+=").or_else(|| line.split_once('=')) {
                if current.is_none() {
                    current = Some(name.trim().to_string());
                    rest
                } else {
                    line
                }
            } else {
                line
            };
        let continued = body.ends_with('\\');
        if let Some(name) = &current {
            let words = body.trim_end_matches('\\').split_whitespace();
            vars.entry(name.clone())
                .or_default()
                .extend(words.map(str::to_string));
        }
        if !continued {
            current = None;
        }
    }
    vars
}

/// The ports of a Verilated model, from the `VL_IN8(&name,msb,lsb);` lines of its header.
fn parse_header_ports(header: &str, module: &str) -> Vec<PortSpec> {
    let mut ports = Vec::new();
    for line in header.lines().map(str::trim) {
        let Some((mac, rest)) = line.split_once('(') else {
            continue;
        };
        let dir = if mac.starts_with("VL_INOUT") {
            fail(format!(
                "{module}: inout ports are not supported by the bridge ({line})"
            ))
        } else if mac.starts_with("VL_IN") {
            Dir::In
        } else if mac.starts_with("VL_OUT") {
            Dir::Out
        } else {
            continue;
        };
        let args: Vec<&str> = rest
            .trim_end_matches(';')
            .trim_end_matches(')')
            .split(',')
            .map(str::trim)
            .collect();
        let parsed = (|| {
            let name = args.first()?.strip_prefix('&')?.to_string();
            let msb: usize = args.get(1)?.parse().ok()?;
            let lsb: usize = args.get(2)?.parse().ok()?;
            Some((name, msb.checked_sub(lsb)? + 1))
        })();
        let Some((name, width)) = parsed else {
            fail(format!("{module}: cannot parse port declaration `{line}`"))
        };
        ports.push(PortSpec {
            doc: format!(
                "{}-bit {} port.",
                width,
                if dir == Dir::In { "input" } else { "output" }
            ),
            name,
            width,
            dir,
        });
    }
    if ports.is_empty() {
        fail(format!("{module}: no ports found in the Verilated header"));
    }
    ports
}

/// The port list the HDL side promised must be exactly what Verilator built; otherwise the
/// shim would copy the wrong number of bytes.
fn check_ports(module: &str, given: &[PortSpec], actual: &[PortSpec]) {
    let key = |p: &PortSpec| (p.name.clone(), (p.width, p.dir));
    let given_map: BTreeMap<_, _> = given.iter().map(key).collect();
    let actual_map: BTreeMap<_, _> = actual.iter().map(key).collect();
    if given_map.len() != given.len() {
        fail(format!("{module}: the HDL port list names a port twice"));
    }
    if given_map != actual_map {
        let mut msg = format!(
            "{module}: the port list from cdma-hdl does not match the Verilog that Verilator built\n"
        );
        for (name, (w, d)) in &given_map {
            match actual_map.get(name) {
                None => {
                    let _ = writeln!(msg, "  port {name} ({d:?}, {w} bits) is not in the Verilog");
                }
                Some(a) if a != &(*w, *d) => {
                    let _ = writeln!(
                        msg,
                        "  port {name}: port list says {d:?} {w} bits, Verilog says {:?} {} bits",
                        a.1, a.0
                    );
                }
                _ => {}
            }
        }
        for (name, (w, d)) in &actual_map {
            if !given_map.contains_key(name) {
                let _ = writeln!(
                    msg,
                    "  Verilog port {name} ({d:?}, {w} bits) is not in the port list"
                );
            }
        }
        fail(msg);
    }
}

/// Ports become C symbols and Rust method names.
fn check_port_names(module: &str, ports: &[PortSpec]) {
    let names: BTreeSet<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    for p in ports {
        if !is_snake_ident(&p.name) {
            fail(format!(
                "{module}: port name {:?} is not a lower-case identifier ([a-z_][a-z0-9_]*, no `__`)",
                p.name
            ));
        }
        if p.width == 0 {
            fail(format!("{module}: port {} has width 0", p.name));
        }
        let setter = format!("set_{}", p.name);
        if RESERVED_METHODS.contains(&p.name.as_str())
            || RESERVED_METHODS.contains(&setter.as_str())
        {
            fail(format!(
                "{module}: port {} clashes with a method of the generated wrapper",
                p.name
            ));
        }
        if p.dir == Dir::In && names.contains(setter.as_str()) {
            fail(format!(
                "{module}: the setter of port {} clashes with the getter of port {setter}",
                p.name
            ));
        }
    }
    match ports.iter().find(|p| p.name == "clock") {
        Some(p) if p.dir == Dir::In && p.width == 1 => {}
        _ => fail(format!(
            "{module}: needs a 1-bit input port `clock` (tick() drives it)"
        )),
    }
}

/// 32-bit words needed for `width` bits.
fn words(width: usize) -> usize {
    width.div_ceil(32)
}

/// Mask of the valid bits of the top 32-bit word of a `width`-bit value.
fn top_word_mask(width: usize) -> u32 {
    match width % 32 {
        0 => u32::MAX,
        r => (1u32 << r) - 1,
    }
}

/// C++ storage Verilator uses for a port of `width` bits, and its size in bytes.
fn c_storage(width: usize) -> (String, usize) {
    match width {
        1..=8 => ("CData".into(), 1),
        9..=16 => ("SData".into(), 2),
        17..=32 => ("IData".into(), 4),
        33..=64 => ("QData".into(), 8),
        _ => (format!("VlWide<{}>", words(width)), 4 * words(width)),
    }
}

/// The `extern "C"` shim of one top. Each function is a thin, non-throwing wrapper, so the
/// Rust side never sees a C++ exception or a Verilator type.
fn gen_shim(v: &Verilated) -> String {
    let m = &v.top.module;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"// Generated by cdma-sim/build.rs from the port list of `{m}`. Do not edit.
#include "V{m}.h"
#include "verilated_vcd_c.h"
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace {{
using Model = V{m};

// Tracing must be allowed before the model exists, so the context is built with it on.
struct TraceContext : VerilatedContext {{
    TraceContext() {{ traceEverOn(true); }}
}};

// One simulation: its own context (own time, no shared global state between instances).
struct Sim {{
    TraceContext ctx;
    Model model{{&ctx, "TOP"}};
    VerilatedVcdC* trace = nullptr;
    uint64_t time = 0;
    // True when eval() ran with the current inputs and the clock low (see tick).
    bool settled = false;
}};

inline Sim* sim(void* p) {{ return static_cast<Sim*>(p); }}
inline const Sim* sim(const void* p) {{ return static_cast<const Sim*>(p); }}

template <typename T>
using Storage = std::remove_reference_t<T>;
}}  // namespace

"#
    );
    // Compile-time proof that the port list and the Verilated storage agree.
    for p in &v.ports {
        let (ty, bytes) = c_storage(p.width);
        let _ = writeln!(
            s,
            "static_assert(sizeof(Storage<decltype(std::declval<Model&>().{n})>) == {bytes}, \
             \"port {n}: expected {ty} ({w} bits)\");",
            n = p.name,
            w = p.width
        );
    }
    let _ = write!(
        s,
        r#"
extern "C" {{

void* cdma_sim_{m}_new() {{
    try {{
        return new Sim();
    }} catch (...) {{
        return nullptr;
    }}
}}

void cdma_sim_{m}_delete(void* p) {{
    Sim* s = sim(p);
    s->model.final();
    if (s->trace) {{
        s->trace->close();
        delete s->trace;
    }}
    delete s;
}}

// The clock is low between ticks, so this eval also records the low clock level that the
// next tick's rising edge is detected against.
void cdma_sim_{m}_eval(void* p) {{
    Sim* s = sim(p);
    s->model.eval();
    s->settled = true;
}}

// One clock cycle: low phase (settles inputs set since the last tick), then the rising edge.
// Each phase is one trace time step. The clock is lowered again at the end *without* an eval:
// a design's input-dependent logic is re-run by every eval() (Verilator's `ico` region), so
// the low phase reuses the testbench's own eval() when no input changed since (`settled`),
// making the usual "set inputs, eval, sample, tick" loop cost 2 evals per cycle instead of 3.
void cdma_sim_{m}_tick(void* p) {{
    Sim* s = sim(p);
    if (!s->settled || s->model.clock) {{
        s->model.clock = 0;
        s->model.eval();
    }}
    if (s->trace) s->trace->dump(s->time);
    s->ctx.time(++s->time);
    s->model.clock = 1;
    s->model.eval();
    if (s->trace) s->trace->dump(s->time);
    s->ctx.time(++s->time);
    s->model.clock = 0;
    s->settled = false;
}}

uint64_t cdma_sim_{m}_time(const void* p) {{ return sim(p)->time; }}

void cdma_sim_{m}_trace_close(void* p) {{
    Sim* s = sim(p);
    if (s->trace) {{
        s->trace->close();
        delete s->trace;
        s->trace = nullptr;
    }}
}}

// 0: open; 1: out of memory; 2: the file could not be opened.
int cdma_sim_{m}_trace_open(void* p, const char* path) {{
    Sim* s = sim(p);
    cdma_sim_{m}_trace_close(p);
    VerilatedVcdC* t = new (std::nothrow) VerilatedVcdC;
    if (!t) return 1;
    s->model.trace(t, 99);
    t->open(path);
    if (!t->isOpen()) {{
        delete t;
        return 2;
    }}
    s->trace = t;
    return 0;
}}
"#
    );
    for p in &v.ports {
        let n = &p.name;
        let w = p.width;
        if w <= 64 {
            let (ty, _) = c_storage(w);
            let mask = if w == 64 {
                "~0ULL".to_string()
            } else {
                format!("((1ULL << {w}) - 1)")
            };
            if p.dir == Dir::In {
                let _ = writeln!(
                    s,
                    "void cdma_sim_{m}_set_{n}(void* p, uint64_t v) {{\n    Sim* s = sim(p);\n    s->model.{n} = static_cast<{ty}>(v & {mask});\n    s->settled = false;\n}}"
                );
            }
            let _ = writeln!(
                s,
                "uint64_t cdma_sim_{m}_get_{n}(const void* p) {{ return static_cast<uint64_t>(sim(p)->model.{n}) & {mask}; }}"
            );
        } else {
            let nw = words(w);
            let last = nw - 1;
            let mask = top_word_mask(w);
            if p.dir == Dir::In {
                let _ = writeln!(
                    s,
                    "void cdma_sim_{m}_set_{n}(void* p, const uint32_t* w) {{\n    Sim* s = sim(p);\n    EData* d = s->model.{n}.data();\n    std::memcpy(d, w, {bytes});\n    d[{last}] &= 0x{mask:08x}u;\n    s->settled = false;\n}}",
                    bytes = 4 * nw
                );
            }
            let _ = writeln!(
                s,
                "void cdma_sim_{m}_get_{n}(const void* p, uint32_t* w) {{\n    std::memcpy(w, sim(p)->model.{n}.data(), {bytes});\n    w[{last}] &= 0x{mask:08x}u;\n}}",
                bytes = 4 * nw
            );
        }
    }
    s.push_str("\n}  // extern \"C\"\n");
    s
}

/// Escape text for a Rust string literal.
fn lit(s: &str) -> String {
    format!("{s:?}")
}

/// Doc-comment lines for free text.
fn doc_lines(out: &mut String, indent: &str, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "{indent}/// {}", line.trim_end());
    }
}

/// Rust identifier for a getter (raw identifier when the port is named like a keyword).
fn getter(name: &str) -> String {
    if RUST_KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_string()
    }
}

fn rust_prelude(out: &mut String, tops: &[Verilated]) {
    out.push_str("// Generated by cdma-sim/build.rs. Do not edit.\n\n");
    out.push_str("/// Every Verilated top in this build, for lookup by module name.\n");
    out.push_str("pub const TOPS: &[TopInfo] = &[\n");
    for v in tops {
        let t = type_name(&v.top.module);
        let _ = writeln!(
            out,
            "    TopInfo {{ module: {t}::MODULE, ports: {t}::PORTS, params: {t}::PARAMS, new: || Box::new({t}::new()) }},"
        );
    }
    out.push_str("];\n\n");
}

/// The safe wrapper of one top.
fn gen_rust(out: &mut String, v: &Verilated) {
    let m = &v.top.module;
    let t = type_name(m);
    let ffi = format!("ffi_{m}");

    // Raw declarations.
    let _ = writeln!(out, "mod {ffi} {{");
    let _ = writeln!(out, "    use std::os::raw::{{c_char, c_int, c_void}};");
    let _ = writeln!(out, "    extern \"C\" {{");
    let _ = writeln!(out, "        pub fn cdma_sim_{m}_new() -> *mut c_void;");
    let _ = writeln!(out, "        pub fn cdma_sim_{m}_delete(p: *mut c_void);");
    let _ = writeln!(out, "        pub fn cdma_sim_{m}_eval(p: *mut c_void);");
    let _ = writeln!(out, "        pub fn cdma_sim_{m}_tick(p: *mut c_void);");
    let _ = writeln!(
        out,
        "        pub fn cdma_sim_{m}_time(p: *const c_void) -> u64;"
    );
    let _ = writeln!(
        out,
        "        pub fn cdma_sim_{m}_trace_open(p: *mut c_void, path: *const c_char) -> c_int;"
    );
    let _ = writeln!(
        out,
        "        pub fn cdma_sim_{m}_trace_close(p: *mut c_void);"
    );
    for p in &v.ports {
        let n = &p.name;
        if p.width <= 64 {
            if p.dir == Dir::In {
                let _ = writeln!(
                    out,
                    "        pub fn cdma_sim_{m}_set_{n}(p: *mut c_void, v: u64);"
                );
            }
            let _ = writeln!(
                out,
                "        pub fn cdma_sim_{m}_get_{n}(p: *const c_void) -> u64;"
            );
        } else {
            if p.dir == Dir::In {
                let _ = writeln!(
                    out,
                    "        pub fn cdma_sim_{m}_set_{n}(p: *mut c_void, w: *const u32);"
                );
            }
            let _ = writeln!(
                out,
                "        pub fn cdma_sim_{m}_get_{n}(p: *const c_void, w: *mut u32);"
            );
        }
    }
    let _ = writeln!(out, "    }}\n}}\n");

    // Type.
    doc_lines(out, "", &v.top.doc);
    out.push_str("///\n/// | port | dir | width | meaning |\n/// |---|---|---|---|\n");
    for p in &v.ports {
        let _ = writeln!(
            out,
            "/// | `{}` | {} | {} | {} |",
            p.name,
            if p.dir == Dir::In { "in" } else { "out" },
            p.width,
            p.doc.replace('\n', " ").replace('|', "\\|")
        );
    }
    if !v.top.params.is_empty() {
        out.push_str("///\n/// Parameters: ");
        let ps: Vec<String> = v
            .top
            .params
            .iter()
            .map(|(k, v)| format!("`{k}` = {v}"))
            .collect();
        let _ = writeln!(out, "{}.", ps.join(", "));
    }
    let _ = writeln!(
        out,
        "pub struct {t} {{\n    raw: std::ptr::NonNull<std::os::raw::c_void>,\n    // A Verilated model is single-threaded state behind a raw pointer: keep it on its thread.\n    _not_send: std::marker::PhantomData<*mut ()>,\n}}\n"
    );

    let _ = writeln!(out, "impl {t} {{");
    let _ = writeln!(out, "    /// Verilog module name.");
    let _ = writeln!(out, "    pub const MODULE: &'static str = {};", lit(m));
    let _ = writeln!(out, "    /// Ports, in the order the HDL declares them.");
    let _ = writeln!(out, "    pub const PORTS: &'static [PortInfo] = &[");
    for p in &v.ports {
        let _ = writeln!(
            out,
            "        PortInfo {{ name: {}, width: {}, dir: Dir::{:?}, doc: {} }},",
            lit(&p.name),
            p.width,
            p.dir,
            lit(&p.doc)
        );
    }
    let _ = writeln!(out, "    ];");
    let _ = writeln!(
        out,
        "    /// Generator parameters of this configuration (name, value)."
    );
    let _ = write!(
        out,
        "    pub const PARAMS: &'static [(&'static str, u64)] = &["
    );
    for (k, val) in &v.top.params {
        let _ = write!(out, "({}, {val}), ", lit(k));
    }
    let _ = writeln!(out, "];\n");

    let _ = writeln!(
        out,
        "    /// A fresh model (registers at Verilator's initial values; apply reset before use).\n    pub fn new() -> Self {{\n        // SAFETY: the shim allocates and returns an owned model, or null on allocation failure.\n        let raw = unsafe {{ {ffi}::cdma_sim_{m}_new() }};\n        let raw = std::ptr::NonNull::new(raw).expect(\"out of memory allocating a Verilated model\");\n        Self {{ raw, _not_send: std::marker::PhantomData }}\n    }}\n"
    );
    let _ = writeln!(
        out,
        "    /// Settle combinational logic after inputs changed, without a clock edge or trace step.\n    pub fn eval(&mut self) {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_eval(self.raw.as_ptr()) }}\n    }}\n"
    );
    let _ = writeln!(
        out,
        "    /// One clock cycle: `clock` low, eval, `clock` high (rising edge), eval; each phase is one\n    /// trace time step, so time advances by 2.\n    pub fn tick(&mut self) {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_tick(self.raw.as_ptr()) }}\n    }}\n"
    );
    let _ = writeln!(
        out,
        "    /// Simulation time in half cycles (2 per `tick`).\n    pub fn time(&self) -> u64 {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_time(self.raw.as_ptr()) }}\n    }}\n"
    );
    let _ = writeln!(
        out,
        "    /// Start writing a VCD trace of all signals to `path` (closing any open trace). Every\n    /// later `tick` dumps two time steps.\n    pub fn trace_vcd(&mut self, path: impl AsRef<std::path::Path>) -> Result<(), SimError> {{\n        let c = trace_path(path.as_ref())?;\n        // SAFETY: `raw` is the live model owned by `self`; `c` outlives the call.\n        let rc = unsafe {{ {ffi}::cdma_sim_{m}_trace_open(self.raw.as_ptr(), c.as_ptr()) }};\n        trace_result(path.as_ref(), rc)\n    }}\n"
    );
    let _ = writeln!(
        out,
        "    /// Flush and close the open trace, if any.\n    pub fn close_trace(&mut self) {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_trace_close(self.raw.as_ptr()) }}\n    }}\n"
    );

    for p in &v.ports {
        let n = &p.name;
        let w = p.width;
        let g = getter(n);
        let desc = p.doc.replace('\n', " ");
        if w == 1 {
            if p.dir == Dir::In {
                let _ = writeln!(out, "    /// Drive input `{n}` (1 bit): {desc}\n    pub fn set_{n}(&mut self, v: bool) {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_set_{n}(self.raw.as_ptr(), u64::from(v)) }}\n    }}\n");
            }
            let _ = writeln!(out, "    /// Current value of `{n}` (1 bit): {desc}\n    pub fn {g}(&self) -> bool {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_get_{n}(self.raw.as_ptr()) != 0 }}\n    }}\n");
        } else if w <= 64 {
            if p.dir == Dir::In {
                let _ = writeln!(out, "    /// Drive input `{n}` ({w} bits; bits above them are ignored): {desc}\n    pub fn set_{n}(&mut self, v: u64) {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_set_{n}(self.raw.as_ptr(), v) }}\n    }}\n");
            }
            let _ = writeln!(out, "    /// Current value of `{n}` ({w} bits): {desc}\n    pub fn {g}(&self) -> u64 {{\n        // SAFETY: `raw` is the live model owned by `self`.\n        unsafe {{ {ffi}::cdma_sim_{m}_get_{n}(self.raw.as_ptr()) }}\n    }}\n");
        } else {
            let nw = words(w);
            if p.dir == Dir::In {
                let _ = writeln!(out, "    /// Drive input `{n}` ({w} bits as {nw} little-endian 32-bit words, bit i of the port is\n    /// bit i%32 of word i/32; bits above {w} are ignored): {desc}\n    pub fn set_{n}(&mut self, v: &[u32; {nw}]) {{\n        // SAFETY: `raw` is the live model owned by `self`; the shim reads exactly {nw} words.\n        unsafe {{ {ffi}::cdma_sim_{m}_set_{n}(self.raw.as_ptr(), v.as_ptr()) }}\n    }}\n");
            }
            let _ = writeln!(out, "    /// Current value of `{n}` ({w} bits as {nw} little-endian 32-bit words): {desc}\n    pub fn {g}(&self) -> [u32; {nw}] {{\n        let mut w = [0u32; {nw}];\n        self.{n}_into(&mut w);\n        w\n    }}\n");
            let _ = writeln!(out, "    /// Copy `{n}` into `w` without allocating (see [`Self::{n}`]).\n    pub fn {n}_into(&self, w: &mut [u32; {nw}]) {{\n        // SAFETY: `raw` is the live model owned by `self`; the shim writes exactly {nw} words.\n        unsafe {{ {ffi}::cdma_sim_{m}_get_{n}(self.raw.as_ptr(), w.as_mut_ptr()) }}\n    }}\n");
        }
    }
    let _ = writeln!(out, "}}\n");

    let _ = writeln!(
        out,
        "impl Default for {t} {{\n    fn default() -> Self {{\n        Self::new()\n    }}\n}}\n"
    );
    let _ = writeln!(out, "impl Drop for {t} {{\n    fn drop(&mut self) {{\n        // SAFETY: `raw` is owned by `self` and never used again; delete runs final() and\n        // closes the trace.\n        unsafe {{ {ffi}::cdma_sim_{m}_delete(self.raw.as_ptr()) }}\n    }}\n}}\n");
    let _ = writeln!(out, "impl std::fmt::Debug for {t} {{\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {{\n        f.debug_struct({}).field(\"time\", &self.time()).finish_non_exhaustive()\n    }}\n}}\n", lit(&t));

    // Dynamic interface.
    let _ = writeln!(out, "impl Dut for {t} {{");
    let _ = writeln!(
        out,
        "    fn module(&self) -> &'static str {{\n        Self::MODULE\n    }}"
    );
    let _ = writeln!(
        out,
        "    fn ports(&self) -> &'static [PortInfo] {{\n        Self::PORTS\n    }}"
    );
    let _ = writeln!(
        out,
        "    fn params(&self) -> &'static [(&'static str, u64)] {{\n        Self::PARAMS\n    }}"
    );
    let _ = writeln!(
        out,
        "    fn eval(&mut self) {{\n        {t}::eval(self)\n    }}"
    );
    let _ = writeln!(
        out,
        "    fn tick(&mut self) {{\n        {t}::tick(self)\n    }}"
    );
    let _ = writeln!(
        out,
        "    fn time(&self) -> u64 {{\n        {t}::time(self)\n    }}"
    );
    let _ = writeln!(out, "    fn trace_vcd(&mut self, path: &std::path::Path) -> Result<(), SimError> {{\n        {t}::trace_vcd(self, path)\n    }}");
    let _ = writeln!(
        out,
        "    fn close_trace(&mut self) {{\n        {t}::close_trace(self)\n    }}"
    );

    let _ = writeln!(
        out,
        "    fn set_words(&mut self, port: usize, w: &[u32]) -> Result<(), SimError> {{"
    );
    let _ = writeln!(
        out,
        "        check_set(Self::MODULE, Self::PORTS, port, w)?;"
    );
    let _ = writeln!(out, "        match port {{");
    for (i, p) in v.ports.iter().enumerate() {
        if p.dir != Dir::In {
            continue;
        }
        let n = &p.name;
        if p.width <= 64 {
            let _ = writeln!(out, "            // SAFETY: `raw` is the live model owned by `self`.\n            {i} => unsafe {{ {ffi}::cdma_sim_{m}_set_{n}(self.raw.as_ptr(), words_to_u64(w)) }},");
        } else {
            let _ = writeln!(out, "            // SAFETY: `raw` is live; check_set proved `w` has exactly the port's word count.\n            {i} => unsafe {{ {ffi}::cdma_sim_{m}_set_{n}(self.raw.as_ptr(), w.as_ptr()) }},");
        }
    }
    let _ = writeln!(out, "            _ => unreachable!(\"check_set accepts only input ports\"),\n        }}\n        Ok(())\n    }}");

    let _ = writeln!(
        out,
        "    fn get_words(&self, port: usize, w: &mut [u32]) -> Result<(), SimError> {{"
    );
    let _ = writeln!(
        out,
        "        check_get(Self::MODULE, Self::PORTS, port, w)?;"
    );
    let _ = writeln!(out, "        match port {{");
    for (i, p) in v.ports.iter().enumerate() {
        let n = &p.name;
        if p.width <= 64 {
            let _ = writeln!(out, "            // SAFETY: `raw` is the live model owned by `self`.\n            {i} => u64_to_words(unsafe {{ {ffi}::cdma_sim_{m}_get_{n}(self.raw.as_ptr()) }}, w),");
        } else {
            let _ = writeln!(out, "            // SAFETY: `raw` is live; check_get proved `w` has exactly the port's word count.\n            {i} => unsafe {{ {ffi}::cdma_sim_{m}_get_{n}(self.raw.as_ptr(), w.as_mut_ptr()) }},");
        }
    }
    let _ = writeln!(out, "            _ => unreachable!(\"check_get accepts only existing ports\"),\n        }}\n        Ok(())\n    }}");
    let _ = writeln!(out, "}}\n");
}
