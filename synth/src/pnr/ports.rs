//! The ports of a submodule, for placing it on its own (`cdma synth --pnr --block
//! <top>__<path>`).
//!
//! A top's ports come from the rust-hdl block that made it; a submodule exists only as Verilog
//! text. Yosys reads that text as blackboxes (`read_verilog -lib`: the module headers only,
//! seconds even for the 1024-bit engine) and writes their ports as JSON, so no Verilog parser
//! of ours decides what the wrapper connects.

use crate::flow;
use cdma_hdl::{Dir, Port};
use std::path::Path;
use std::time::Duration;

/// The ports of `module` in `verilog` (by name: Yosys's JSON does not keep the declaration
/// order, and the wrapper connects by name), read by Yosys in `dir`.
pub fn module_ports(
    dir: &Path,
    verilog: &str,
    module: &str,
    timeout: Duration,
) -> Result<Vec<Port>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    flow::write(&dir.join("design.v"), verilog)?;
    flow::run_yosys(
        dir,
        "read_verilog -lib design.v\nwrite_json ports.json\n",
        timeout,
    )?;
    let ports = ports_from_json(&flow::read(&dir.join("ports.json"))?, module);
    // The whole design as JSON (megabytes for an engine): not worth keeping once read.
    if ports.is_ok() {
        let _ = std::fs::remove_dir_all(dir);
    }
    ports
}

/// The ports of `module` in Yosys's `write_json` output.
pub fn ports_from_json(text: &str, module: &str) -> Result<Vec<Port>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("Yosys `write_json` output: {e}"))?;
    let ports = v["modules"][module]["ports"]
        .as_object()
        .ok_or_else(|| format!("Yosys found no module {module} with ports"))?;
    ports
        .iter()
        .map(|(name, p)| {
            let dir = match p["direction"].as_str() {
                Some("input") => Dir::In,
                Some("output") => Dir::Out,
                d => {
                    return Err(format!(
                        "{module}.{name}: cannot place a port of direction {d:?}"
                    ))
                }
            };
            let width = p["bits"].as_array().map_or(0, Vec::len);
            if width == 0 {
                return Err(format!("{module}.{name}: a port without bits"));
            }
            Ok(Port {
                name: name.clone(),
                width,
                dir,
                doc: String::new(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Name, width and direction of each port.
    fn summary(p: &[Port]) -> Vec<(&str, usize, Dir)> {
        p.iter()
            .map(|p| (p.name.as_str(), p.width, p.dir))
            .collect()
    }

    #[test]
    fn reads_direction_and_width_of_every_port() {
        let json = r#"{"modules": {
            "other": {"ports": {"x": {"direction": "input", "bits": [2]}}},
            "top__dp": {"ports": {
                "clock": {"direction": "input", "bits": [2]},
                "data": {"direction": "input", "bits": [3, 4, 5]},
                "y": {"direction": "output", "bits": [6, 7]}
            }}
        }}"#;
        let p = ports_from_json(json, "top__dp").expect("ports");
        assert_eq!(
            summary(&p),
            [
                ("clock", 1, Dir::In),
                ("data", 3, Dir::In),
                ("y", 2, Dir::Out)
            ]
        );
        let e = ports_from_json(json, "nope").expect_err("no such module");
        assert!(e.contains("nope"), "{e}");
        let inout = json.replace(r#""output""#, r#""inout""#);
        let e = ports_from_json(&inout, "top__dp").expect_err("inout");
        assert!(e.contains("top__dp.y"), "{e}");
    }

    #[test]
    fn yosys_reads_a_submodules_ports() {
        let v = "module t(input clock, input [3:0] a, output [1:0] y);\n  \
                 t__s s(.clock(clock), .a(a), .y(y));\nendmodule\n\
                 module t__s(clock, a, y);\n  input wire clock;\n  input wire [3:0] a;\n  \
                 output reg [1:0] y;\n  always @(posedge clock) y <= a[1:0] ^ a[3:2];\nendmodule\n";
        let dir = std::env::temp_dir().join(format!("cdma-ports-{}", std::process::id()));
        let p = module_ports(&dir, v, "t__s", Duration::from_secs(60));
        let _ = std::fs::remove_dir_all(&dir);
        let p = p.expect("Yosys reads the ports");
        assert_eq!(
            summary(&p),
            [("a", 4, Dir::In), ("clock", 1, Dir::In), ("y", 2, Dir::Out)]
        );
    }
}
