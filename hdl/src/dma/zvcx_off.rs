//! The ZVC-X paths of an engine generated without the ZVC-X codec: [`ZvcxEncOff`] and
//! [`ZvcxDecOff`] have the ports of the real paths (`ZvcxEncPath*`, `ZvcxDecPath*`) so one
//! datapath description serves both kinds of engine, and drive every output low. Such an
//! engine refuses ZVC-X descriptors and frames (UNSUPPORTED, `DescCheck`/`HdrCheck`), so the
//! datapath never selects them and synthesis removes them with the multiplexers they feed.
//! Their Verilog is written by hand so their inputs, read by nothing, can go to one wire
//! that lint knows is unused on purpose.

use rust_hdl::core::prelude::*;

/// The inputs' sink: Verilator does not report signals named `*unused*` (its default
/// `--unused-regexp`), and nothing reads it, so synthesis removes it.
const UNUSED_WIRE: &str = "wire unused_inputs";

/// The COMPRESS side of ZVC-X, absent: no beat taken, no decision, no coded beat.
#[derive(LogicBlock, Default)]
pub struct ZvcxEncOff<const W: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// Element type code.
    pub ty: Signal<In, Bits<3>>,
    /// Element width code.
    pub elem: Signal<In, Bits<2>>,
    /// Source beat.
    pub in_data: Signal<In, Bits<W>>,
    /// Source beat's bytes.
    pub in_cnt: Signal<In, Bits<8>>,
    /// Source beat ends its chunk.
    pub in_end: Signal<In, Bit>,
    /// Source beat valid.
    pub in_valid: Signal<In, Bit>,
    /// Source beat taken (never).
    pub in_ready: Signal<Out, Bit>,
    /// Decision: stored bytes.
    pub dec_stored_len: Signal<Out, Bits<32>>,
    /// Decision: raw.
    pub dec_raw: Signal<Out, Bit>,
    /// Decision valid (never).
    pub dec_valid: Signal<Out, Bit>,
    /// Decision taken.
    pub dec_ready: Signal<In, Bit>,
    /// Coded beat.
    pub out_data: Signal<Out, Bits<W>>,
    /// Coded beat's bytes.
    pub out_cnt: Signal<Out, Bits<8>>,
    /// Coded beat ends its chunk.
    pub out_end: Signal<Out, Bit>,
    /// Coded beat valid (never).
    pub out_valid: Signal<Out, Bit>,
    /// Coded beat taken.
    pub out_ready: Signal<In, Bit>,
}

impl<const W: usize> Logic for ZvcxEncOff<W> {
    fn update(&mut self) {
        self.in_ready.next = false;
        self.dec_stored_len.next = 0.into();
        self.dec_raw.next = false;
        self.dec_valid.next = false;
        self.out_data.next = 0.into();
        self.out_cnt.next = 0.into();
        self.out_end.next = false;
        self.out_valid.next = false;
    }
    fn connect(&mut self) {
        self.in_ready.connect();
        self.dec_stored_len.connect();
        self.dec_raw.connect();
        self.dec_valid.connect();
        self.out_data.connect();
        self.out_cnt.connect();
        self.out_end.connect();
        self.out_valid.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
assign in_ready = 1'b0;
assign dec_stored_len = 32'h0;
assign dec_raw = 1'b0;
assign dec_valid = 1'b0;
assign out_data = {{{W}{{1'b0}}}};
assign out_cnt = 8'h0;
assign out_end = 1'b0;
assign out_valid = 1'b0;
{UNUSED_WIRE} = &{{1'b0, clock, rst, ty, elem, in_data, in_cnt, in_end, in_valid,
    dec_ready, out_ready}};"
        ))
    }
}

/// The DECOMPRESS side of ZVC-X, absent: no command or beat taken, nothing out.
#[derive(LogicBlock, Default)]
pub struct ZvcxDecOff<const N: usize, const W: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub rst: Signal<In, Bit>,
    /// Element type code.
    pub ty: Signal<In, Bits<3>>,
    /// Element width code.
    pub elem: Signal<In, Bits<2>>,
    /// Chunk command: stored bytes.
    pub c_stored: Signal<In, Bits<32>>,
    /// Chunk command: uncompressed bytes.
    pub c_len: Signal<In, Bits<32>>,
    /// Chunk command: raw.
    pub c_raw: Signal<In, Bit>,
    /// Chunk command: the frame's last chunk.
    pub c_last: Signal<In, Bit>,
    /// Chunk command valid.
    pub c_valid: Signal<In, Bit>,
    /// Chunk command taken (never).
    pub c_ready: Signal<Out, Bit>,
    /// Stored bytes beat.
    pub in_data: Signal<In, Bits<W>>,
    /// Stored bytes beat valid.
    pub in_valid: Signal<In, Bit>,
    /// Stored bytes beat taken (never).
    pub in_ready: Signal<Out, Bit>,
    /// Data beat.
    pub out_data: Signal<Out, Bits<W>>,
    /// Data beat strobes.
    pub out_strb: Signal<Out, Bits<N>>,
    /// Last data beat.
    pub out_last: Signal<Out, Bit>,
    /// Data beat valid (never).
    pub out_valid: Signal<Out, Bit>,
    /// Data beat taken.
    pub out_ready: Signal<In, Bit>,
    /// Payload error (never).
    pub error: Signal<Out, Bit>,
    /// A payload error waits for its chunk's bytes (never).
    pub err_wait: Signal<Out, Bit>,
    /// A coded chunk in flight (never).
    pub in_flight: Signal<Out, Bit>,
    /// A chunk is open (never).
    pub open: Signal<Out, Bit>,
}

impl<const N: usize, const W: usize> Logic for ZvcxDecOff<N, W> {
    fn update(&mut self) {
        self.c_ready.next = false;
        self.in_ready.next = false;
        self.out_data.next = 0.into();
        self.out_strb.next = 0.into();
        self.out_last.next = false;
        self.out_valid.next = false;
        self.error.next = false;
        self.err_wait.next = false;
        self.in_flight.next = false;
        self.open.next = false;
    }
    fn connect(&mut self) {
        self.c_ready.connect();
        self.in_ready.connect();
        self.out_data.connect();
        self.out_strb.connect();
        self.out_last.connect();
        self.out_valid.connect();
        self.error.connect();
        self.err_wait.connect();
        self.in_flight.connect();
        self.open.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
assign c_ready = 1'b0;
assign in_ready = 1'b0;
assign out_data = {{{W}{{1'b0}}}};
assign out_strb = {{{N}{{1'b0}}}};
assign out_last = 1'b0;
assign out_valid = 1'b0;
assign error = 1'b0;
assign err_wait = 1'b0;
assign in_flight = 1'b0;
assign open = 1'b0;
{UNUSED_WIRE} = &{{1'b0, clock, rst, ty, elem, c_stored, c_len, c_raw, c_last, c_valid,
    in_data, in_valid, out_ready}};"
        ))
    }
}
