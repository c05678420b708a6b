//! Running Verilator: finding it, verilating a top (cached by fingerprint), and collecting
//! the file lists and the checked port list of the result.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cache::fingerprint;
use crate::error::{fail, write};
use crate::makefile::parse_mk;
use crate::ports::{check_port_names, check_ports, parse_header_ports};
use crate::top::{PortSpec, TopSpec};

/// Verilator arguments of every top (besides prefix, top module and paths). Part of the cache
/// key of the verilated model.
pub const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "-O3",
    "--trace",
    // Lint is the HDL side's job (`verilator --lint-only -Wall` with its waiver file); the
    // bridge must not refuse a model over a style warning. Warnings are still shown.
    "-Wno-fatal",
];

/// Message printed when Verilator is missing, so a fresh machine knows what to do.
pub const INSTALL_HINT: &str =
    "install with: apt-get install -y verilator (Verilator >= 5 is required; \
                            set $VERILATOR to use a binary that is not on PATH)";
/// A top after verilation: where its files are and its final, checked port list.
pub struct Verilated {
    /// The top as given.
    pub top: TopSpec,
    /// Cache key of this top's build products.
    pub key: String,
    /// The checked port list (the given one, or the header's for a top that gave none).
    pub ports: Vec<PortSpec>,
    /// Verilator's output directory (model sources and header).
    pub obj_dir: PathBuf,
    /// The model's C++ files.
    pub model_cpp: Vec<PathBuf>,
    /// The Verilator runtime files (names without `.cpp`) the model needs.
    pub runtime: BTreeSet<String>,
}

/// The Verilator installation we build against.
pub struct Verilator {
    bin: PathBuf,
    /// `VERILATOR_ROOT`: its `include/` holds the runtime.
    pub root: PathBuf,
    /// `verilator --version` output, part of every cache key.
    pub version: String,
}

impl Verilator {
    /// The Verilator of `$VERILATOR` (else `verilator` on PATH); stops the build if it is
    /// missing or older than 5.
    pub fn find() -> Self {
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
        match major_version(&version) {
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
pub fn verilate(verilator: &Verilator, out_dir: &Path, base_key: &str, top: TopSpec) -> Verilated {
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
    let from_verilator = parse_header_ports(&text, module).unwrap_or_else(|e| fail(e));
    let ports = match &top.ports {
        Some(given) => {
            check_ports(module, given, &from_verilator).unwrap_or_else(|e| fail(e));
            given.clone()
        }
        None => from_verilator,
    };
    check_port_names(module, &ports).unwrap_or_else(|e| fail(e));
    Verilated {
        top,
        key,
        ports,
        obj_dir,
        model_cpp,
        runtime,
    }
}

/// The major version in `verilator --version` output ("Verilator 5.006 2023-01-22 rev ...").
pub fn major_version(version: &str) -> Option<u32> {
    version
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.split('.').next())
        .and_then(|m| m.parse::<u32>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn major_version_is_the_first_number_of_the_second_word() {
        assert_eq!(
            major_version("Verilator 5.006 2023-01-22 rev v5.006"),
            Some(5)
        );
        assert_eq!(major_version("Verilator 4.228 2022-01-17"), Some(4));
        assert_eq!(major_version("verilator"), None);
        assert_eq!(major_version("Verilator x.1"), None);
    }
}
