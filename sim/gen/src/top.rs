//! What the bridge knows of a top before verilation: its module, Verilog and ports.

/// Port direction, as the bridge sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Driven by the Rust side.
    In,
    /// Read by the Rust side.
    Out,
}

/// One port of a top, as given by the HDL side.
// The Debug text of the port list is part of the cache key of a verilated model: renaming a
// field re-verilates every top once.
#[derive(Clone, Debug)]
pub struct PortSpec {
    /// Port name, a lower-case identifier.
    pub name: String,
    /// Width in bits (>= 1).
    pub width: usize,
    /// Direction.
    pub dir: Dir,
    /// What the port means (copied into the wrapper's documentation).
    pub doc: String,
}

/// One top-level module to verilate and wrap.
#[derive(Clone, Debug)]
pub struct TopSpec {
    /// Verilog module name, a lower-case identifier.
    pub module: String,
    /// The Verilog text.
    pub verilog: String,
    /// `None` means "take the ports from Verilator's header" (only the hand-written self-test
    /// top does that; rust-hdl tops always come with their port list, which is then checked).
    pub ports: Option<Vec<PortSpec>>,
    /// Generator parameters (name, value), listed in the wrapper.
    pub params: Vec<(String, u64)>,
    /// Documentation of the wrapper type.
    pub doc: String,
}

/// Small tops and ports for the unit tests of the other modules.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{Dir, PortSpec, TopSpec};

    /// A port without documentation.
    pub fn port(name: &str, width: usize, dir: Dir) -> PortSpec {
        PortSpec {
            name: name.into(),
            width,
            dir,
            doc: String::new(),
        }
    }

    /// A top with no Verilog, ports, parameters or documentation.
    pub fn top(module: &str) -> TopSpec {
        TopSpec {
            module: module.into(),
            verilog: String::new(),
            ports: None,
            params: Vec::new(),
            doc: String::new(),
        }
    }
}
