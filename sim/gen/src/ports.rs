//! Port lists: reading them from a Verilated model header, and checking them (against each
//! other, and against what the generated wrapper can express).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::names::{is_snake_ident, RESERVED_METHODS};
use crate::top::{Dir, PortSpec};

/// The ports of a Verilated model, from the `VL_IN8(&name,msb,lsb);` lines of its header.
pub fn parse_header_ports(header: &str, module: &str) -> Result<Vec<PortSpec>, String> {
    let mut ports = Vec::new();
    for line in header.lines().map(str::trim) {
        let Some((mac, rest)) = line.split_once('(') else {
            continue;
        };
        let dir = if mac.starts_with("VL_INOUT") {
            return Err(format!(
                "{module}: inout ports are not supported by the bridge ({line})"
            ));
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
            return Err(format!("{module}: cannot parse port declaration `{line}`"));
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
        return Err(format!("{module}: no ports found in the Verilated header"));
    }
    Ok(ports)
}

/// The port list the HDL side promised must be exactly what Verilator built; otherwise the
/// shim would copy the wrong number of bytes.
pub fn check_ports(module: &str, given: &[PortSpec], actual: &[PortSpec]) -> Result<(), String> {
    let key = |p: &PortSpec| (p.name.clone(), (p.width, p.dir));
    let given_map: BTreeMap<_, _> = given.iter().map(key).collect();
    let actual_map: BTreeMap<_, _> = actual.iter().map(key).collect();
    if given_map.len() != given.len() {
        return Err(format!("{module}: the HDL port list names a port twice"));
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
        return Err(msg);
    }
    Ok(())
}

/// Ports become C symbols and Rust method names.
pub fn check_port_names(module: &str, ports: &[PortSpec]) -> Result<(), String> {
    let names: BTreeSet<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    for p in ports {
        if !is_snake_ident(&p.name) {
            return Err(format!(
                "{module}: port name {:?} is not a lower-case identifier ([a-z_][a-z0-9_]*, no `__`)",
                p.name
            ));
        }
        if p.width == 0 {
            return Err(format!("{module}: port {} has width 0", p.name));
        }
        let setter = format!("set_{}", p.name);
        if RESERVED_METHODS.contains(&p.name.as_str())
            || RESERVED_METHODS.contains(&setter.as_str())
        {
            return Err(format!(
                "{module}: port {} clashes with a method of the generated wrapper",
                p.name
            ));
        }
        if p.dir == Dir::In && names.contains(setter.as_str()) {
            return Err(format!(
                "{module}: the setter of port {} clashes with the getter of port {setter}",
                p.name
            ));
        }
    }
    match ports.iter().find(|p| p.name == "clock") {
        Some(p) if p.dir == Dir::In && p.width == 1 => Ok(()),
        _ => Err(format!(
            "{module}: needs a 1-bit input port `clock` (tick() drives it)"
        )),
    }
}

#[cfg(test)]
mod tests;
