//! Reading the variables of the makefile Verilator generates (`V<top>_classes.mk`): Verilator 5
//! names its files after content hashes, so the list of files to compile comes from there.

use std::collections::BTreeMap;

/// `VAR += \ a \ b \` assignments of a Verilator makefile, joined per variable.
pub fn parse_mk(mk: &str) -> BTreeMap<String, Vec<String>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continued_assignments_are_joined_per_variable() {
        let mk = "\
# Verilated -*- Makefile -*-
VM_CLASSES_FAST += \\
\tVt \\
\tVt___024root__DepSet_h1__0 \\

VM_CLASSES_SLOW += \\
\tVt__Slow \\

VM_GLOBAL_FAST += verilated verilated_vcd_c
VM_SC = 0
";
        let vars = parse_mk(mk);
        let get = |k: &str| vars.get(k).cloned().unwrap_or_default();
        assert_eq!(get("VM_CLASSES_FAST"), ["Vt", "Vt___024root__DepSet_h1__0"]);
        assert_eq!(get("VM_CLASSES_SLOW"), ["Vt__Slow"]);
        assert_eq!(get("VM_GLOBAL_FAST"), ["verilated", "verilated_vcd_c"]);
        assert_eq!(get("VM_SC"), ["0"]);
        assert_eq!(vars.len(), 4);
    }
}
