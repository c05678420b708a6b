//! The port-level view of the two ZVC blocks that the testbench drives.
//!
//! The Verilated wrappers in `cdma-sim` are one generated type per top; these traits are the
//! thin, width-agnostic seam the drivers in this crate talk to, so one driver serves E = 8, 16
//! and 32 and a new configuration only needs an `impl` (see [`crate::adapters`]).

/// A clocked device: reset, evaluate combinational logic, advance one rising edge.
pub trait Clocked {
    /// Settle combinational outputs for the current inputs (no clock edge).
    fn eval(&mut self);
    /// One full clock cycle: the rising edge samples the inputs set before the call.
    fn tick(&mut self);
    /// Synchronous reset held for a few cycles, inputs idle.
    fn reset(&mut self);
    /// Starts a waveform trace into `path` (VCD, or FST when the name ends in `.fst`); every
    /// following cycle in the trace window is dumped.
    fn trace(&mut self, path: &std::path::Path) -> Result<(), String>;
    /// Traces only the cycles `from_cycle..=to_cycle`, counted from the model's creation
    /// (reset included), and closes the trace after them; the default is every cycle.
    fn trace_window(&mut self, from_cycle: u64, to_cycle: u64) -> Result<(), String>;
    /// Flushes and closes the trace, if any (an FST trace is converted now).
    fn close_trace(&mut self) -> Result<(), String>;
}

/// Ports of `ZvcCompressor` (docs/ARCHITECTURE.md). Wide data is little-endian u32 words.
pub trait CompressorPorts: Clocked {
    /// Element width in bits.
    fn elem_bits(&self) -> u32;
    /// Drive `in_data` (exactly `32·E/32` words), `in_last`, `in_valid`.
    fn set_in(&mut self, data: &[u32], last: bool, valid: bool);
    /// Drive `out_ready`.
    fn set_out_ready(&mut self, ready: bool);
    /// `in_ready` after [`Clocked::eval`].
    fn in_ready(&self) -> bool;
    /// `out_valid` after [`Clocked::eval`].
    fn out_valid(&self) -> bool;
    /// `out_data` (`P·E/32` words), `out_count`, `out_last`.
    fn out_beat(&self) -> (Vec<u32>, u32, bool);
}

/// Ports of `ZvcDecompressor` (docs/ARCHITECTURE.md).
pub trait DecompressorPorts: Clocked {
    /// Element width in bits.
    fn elem_bits(&self) -> u32;
    /// Drive `in_data` (`P·E/32` words), `in_count`, `in_last`, `in_valid`.
    fn set_in(&mut self, data: &[u32], count: u32, last: bool, valid: bool);
    /// Drive `out_ready`.
    fn set_out_ready(&mut self, ready: bool);
    /// `in_ready` after [`Clocked::eval`].
    fn in_ready(&self) -> bool;
    /// `out_valid` after [`Clocked::eval`].
    fn out_valid(&self) -> bool;
    /// `out_data` (`32·E/32` words) and `out_last`.
    fn out_block(&self) -> (Vec<u32>, bool);
    /// The sticky `error` output.
    fn error(&self) -> bool;
}
