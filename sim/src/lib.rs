//! cdma's own Verilator bridge.
//!
//! `build.rs` (through the generator crate `cdma-simgen`, `sim/gen/`) verilates every top of
//! `cdma-hdl` (`verilator --cc -O3 --trace`), compiles the models with a generated `extern "C"`
//! shim at `-O2`, and generates one safe wrapper type per top from its port list, for example
//! [`CdmaSimWidths`] (the bridge's self-test top) or `CdmaZvcCompressorE32`. Each wrapper has
//! - typed port accessors: `set_<port>(bool)` / `<port>() -> bool` for 1-bit ports,
//!   `u64` for ports of 2..=64 bits, `[u32; ceil(width/32)]` (little-endian words) above that;
//! - [`eval`](Dut::eval), [`tick`](Dut::tick) (one clock cycle), [`time`](Dut::time),
//!   `trace(path)` (VCD, or FST for a `.fst` name), `trace_window(from_cycle, to_cycle)`,
//!   `close_trace()`;
//! - `MODULE`, `PORTS` and `PARAMS` constants, and the object-safe [`Dut`] trait so a
//!   testbench can drive ports by name and pick a top at run time ([`new_dut`], [`TOPS`]).
//!
//! Dropping a wrapper closes its trace and runs the model's `final()`.
//!
//! Every model traces VCD (a Verilated model is built for one trace format, and two would
//! double the C++ build); an FST trace is that VCD, converted on close by [`vcd_to_fst`]
//! through GTKWave's FST writer, which Verilator ships and the build script compiles once.
//!
//! See `sim/README.md` for how it works and why it does not use the `verilated` crate.

#![deny(missing_docs)]

use std::path::Path;

mod fst_writer;
mod trace;
mod vcd_to_fst;

use trace::{window_times, TraceTarget};
pub use vcd_to_fst::vcd_to_fst;

/// Port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Driven by the testbench.
    In,
    /// Driven by the model.
    Out,
}

/// Static description of one port of a Verilated top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortInfo {
    /// Verilog port name.
    pub name: &'static str,
    /// Width in bits.
    pub width: usize,
    /// Direction.
    pub dir: Dir,
    /// Meaning, from the HDL's port list.
    pub doc: &'static str,
}

impl PortInfo {
    /// Number of 32-bit words that carry the port in the word-array interface.
    pub const fn words(&self) -> usize {
        self.width.div_ceil(32)
    }
}

/// Static description of one Verilated top: what [`TOPS`] lists.
#[derive(Clone, Copy, Debug)]
pub struct TopInfo {
    /// Verilog module name.
    pub module: &'static str,
    /// Its ports, in HDL order.
    pub ports: &'static [PortInfo],
    /// Generator parameters (name, value).
    pub params: &'static [(&'static str, u64)],
    /// Build a fresh model of this top.
    pub new: fn() -> Box<dyn Dut>,
}

/// Errors of the dynamic port interface and of tracing.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SimError {
    /// No top of that module name was built.
    #[error("no Verilated top named {module:?} (built: {built})")]
    UnknownTop {
        /// The requested module.
        module: String,
        /// Comma-separated list of the tops that exist.
        built: String,
    },
    /// The top has no port of that name or index.
    #[error("{module} has no port {port}")]
    UnknownPort {
        /// Module name.
        module: &'static str,
        /// The requested name or index.
        port: String,
    },
    /// Tried to drive an output.
    #[error("{module}.{port} is an output and cannot be driven")]
    NotAnInput {
        /// Module name.
        module: &'static str,
        /// Port name.
        port: &'static str,
    },
    /// Word slice of the wrong length for the port.
    #[error("{module}.{port} is {width} bits = {expected} word(s), got {got} word(s)")]
    WordCount {
        /// Module name.
        module: &'static str,
        /// Port name.
        port: &'static str,
        /// Port width in bits.
        width: usize,
        /// Words the port needs.
        expected: usize,
        /// Words given.
        got: usize,
    },
    /// A value with bits set above the port's width.
    #[error("value does not fit the {width}-bit port {module}.{port}")]
    ValueTooWide {
        /// Module name.
        module: &'static str,
        /// Port name.
        port: &'static str,
        /// Port width in bits.
        width: usize,
    },
    /// A trace file could not be created.
    #[error("cannot open trace file {path}: {reason}")]
    Trace {
        /// The path given.
        path: String,
        /// Why.
        reason: String,
    },
    /// A trace window that ends before it starts.
    #[error("trace window: from cycle {from} is after to cycle {to}")]
    TraceWindow {
        /// First cycle traced.
        from: u64,
        /// Last cycle traced.
        to: u64,
    },
    /// A VCD trace could not be converted to FST.
    #[error("cannot convert trace {vcd} to {fst}: {reason}")]
    Convert {
        /// The VCD read.
        vcd: String,
        /// The FST written.
        fst: String,
        /// Why.
        reason: String,
    },
}

/// Object-safe interface of every generated wrapper, for testbenches that find ports by name
/// or choose the top at run time. Ports are addressed by index into [`Dut::ports`]; look the
/// index up once with [`Dut::port`] and reuse it in the cycle loop.
pub trait Dut {
    /// Verilog module name.
    fn module(&self) -> &'static str;
    /// Ports, in HDL order.
    fn ports(&self) -> &'static [PortInfo];
    /// Generator parameters (name, value).
    fn params(&self) -> &'static [(&'static str, u64)];
    /// Settle combinational logic after inputs changed (no clock edge, no trace step).
    fn eval(&mut self);
    /// One clock cycle: `clock` low, eval, `clock` high, eval; two trace time steps.
    fn tick(&mut self);
    /// Simulation time in half cycles.
    fn time(&self) -> u64;
    /// Start a trace of all signals into `path` (closing any open trace): FST if the name
    /// ends in `.fst` (converted from a VCD on close), else VCD.
    fn trace(&mut self, path: &Path) -> Result<(), SimError>;
    /// Trace only the cycles `from_cycle..=to_cycle` (since the model's creation; cycle N is
    /// trace time 2N and 2N+1), closing the trace after `to_cycle`; default: every cycle.
    fn trace_window(&mut self, from_cycle: u64, to_cycle: u64) -> Result<(), SimError>;
    /// Flush and close the open trace, if any (converting an FST trace).
    fn close_trace(&mut self) -> Result<(), SimError>;
    /// Drive input port `port` with `ceil(width/32)` little-endian words; bits above the width
    /// must be 0.
    fn set_words(&mut self, port: usize, words: &[u32]) -> Result<(), SimError>;
    /// Read port `port` (input or output) into exactly `ceil(width/32)` words.
    fn get_words(&self, port: usize, words: &mut [u32]) -> Result<(), SimError>;

    /// Index of the port called `name`.
    fn port(&self, name: &str) -> Result<usize, SimError> {
        self.ports()
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| SimError::UnknownPort {
                module: self.module(),
                port: name.to_string(),
            })
    }

    /// Drive a port of at most 64 bits (or a wider one with a value that fits in 64 bits).
    fn set_u64(&mut self, port: usize, value: u64) -> Result<(), SimError> {
        let info = port_info(self.module(), self.ports(), port)?;
        let mut w = vec![0u32; info.words()];
        w[0] = value as u32;
        if w.len() > 1 {
            w[1] = (value >> 32) as u32;
        } else if value >> 32 != 0 {
            return Err(too_wide(self.module(), info));
        }
        self.set_words(port, &w)
    }

    /// Read a port as `u64`; errors if it is wider than 64 bits.
    fn get_u64(&self, port: usize) -> Result<u64, SimError> {
        let info = port_info(self.module(), self.ports(), port)?;
        if info.width > 64 {
            return Err(SimError::WordCount {
                module: self.module(),
                port: info.name,
                width: info.width,
                expected: info.words(),
                got: 2,
            });
        }
        let mut w = [0u32; 2];
        self.get_words(port, &mut w[..info.words()])?;
        Ok(words_to_u64(&w))
    }
}

include!(concat!(env!("OUT_DIR"), "/tops.rs"));

/// A fresh model of the top called `module` (see [`TOPS`] for what exists).
pub fn new_dut(module: &str) -> Result<Box<dyn Dut>, SimError> {
    TOPS.iter()
        .find(|t| t.module == module)
        .map(|t| (t.new)())
        .ok_or_else(|| SimError::UnknownTop {
            module: module.to_string(),
            built: TOPS.iter().map(|t| t.module).collect::<Vec<_>>().join(", "),
        })
}

fn port_info(
    module: &'static str,
    ports: &'static [PortInfo],
    port: usize,
) -> Result<&'static PortInfo, SimError> {
    ports.get(port).ok_or_else(|| SimError::UnknownPort {
        module,
        port: format!("#{port}"),
    })
}

fn too_wide(module: &'static str, info: &PortInfo) -> SimError {
    SimError::ValueTooWide {
        module,
        port: info.name,
        width: info.width,
    }
}

/// Validate a `set_words` call: existing input port, exact word count, no bits above width.
fn check_set(
    module: &'static str,
    ports: &'static [PortInfo],
    port: usize,
    w: &[u32],
) -> Result<&'static PortInfo, SimError> {
    let info = check_get_len(module, ports, port, w.len())?;
    if info.dir != Dir::In {
        return Err(SimError::NotAnInput {
            module,
            port: info.name,
        });
    }
    let top_bits = info.width % 32;
    if top_bits != 0 && w[w.len() - 1] >> top_bits != 0 {
        return Err(too_wide(module, info));
    }
    Ok(info)
}

/// Validate a `get_words` call: existing port, exact word count.
fn check_get(
    module: &'static str,
    ports: &'static [PortInfo],
    port: usize,
    w: &[u32],
) -> Result<&'static PortInfo, SimError> {
    check_get_len(module, ports, port, w.len())
}

fn check_get_len(
    module: &'static str,
    ports: &'static [PortInfo],
    port: usize,
    got: usize,
) -> Result<&'static PortInfo, SimError> {
    let info = port_info(module, ports, port)?;
    if got != info.words() {
        return Err(SimError::WordCount {
            module,
            port: info.name,
            width: info.width,
            expected: info.words(),
            got,
        });
    }
    Ok(info)
}

/// One or two little-endian words as a `u64`.
fn words_to_u64(w: &[u32]) -> u64 {
    w.iter()
        .take(2)
        .enumerate()
        .fold(0, |acc, (i, &x)| acc | (u64::from(x) << (32 * i)))
}

/// A `u64` into one or two little-endian words (the slice length is the port's word count).
fn u64_to_words(v: u64, w: &mut [u32]) {
    for (i, x) in w.iter_mut().enumerate() {
        *x = (v >> (32 * i)) as u32;
    }
}
