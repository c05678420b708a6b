//! `ZvcxDecPath` (DECOMPRESS, ZVC-X frames): turns every chunk's stored bytes into the
//! chunk's data on an `N`-byte bus (`W = 8N` bits), one type per width (`ZvcxDecPathDw128` ..
//! `ZvcxDecPathDw1024`).
//!
//! **Contract.** In a ZVC-X frame the datapath sends every chunk through the
//! `ZvcBusDecompressor` as a raw chunk of its stored length, so this block's input is each
//! chunk's `S` stored bytes realigned: `ceil(S/N)` beats, each from byte 0, all full but the
//! chunk's last (a chunk with `S = 0` has no beats). The chunk commands (`c_*`) arrive in chunk
//! order; the beats' byte counts follow from `c_stored`. Per chunk, in command order:
//! * raw (`c_raw`): its beats pass straight through (one beat per cycle);
//! * coded: its stored bytes go `ZvcxGather` (elem = 32 bits: a byte stream into 128-byte
//!   words) → `ZvcxDecompressor` (`in_elems = c_len / element bytes`) → `ZvcxScatter(elem)`,
//!   one block or one beat per cycle, whichever is fewer bytes;
//! * each chunk's data starts at byte 0 of a fresh beat; `out_strb` holds the beat's valid
//!   bytes (a prefix), `out_last` marks the frame's last beat (last beat of the `c_last` chunk).
//!
//! **Order.** Commands wait in a two-entry queue; its head is the chunk whose stored bytes are
//! being taken. A coded chunk counts as *in flight* from its last stored beat entering the
//! gatherer until its last data beat leaves the scatterer; a raw chunk's beats pass only while
//! nothing is in flight, so chunks leave in command order.
//!
//! **Errors** (`error`, sticky until `rst`): the decompressor's error, or a chunk with
//! `c_stored = 0` (coded chunks have a non-empty payload and raw ones `c_len ≥ 1` bytes),
//! raised when that chunk reaches the queue's head. From then on every stored beat and every
//! command is taken and dropped (one command per cycle), nothing new is delivered (a beat
//! already offered on `out_*` stays until taken).
//!
//! **When an error is final**: the decoder may fail a chunk before all its stored bytes have
//! come in, and a read error on one of them wins (docs/DESCRIPTORS.md, step 8). A failing
//! chunk is the head, partly in, when every chunk whose stored bytes are all in has been
//! decided by the decoder (`indec`, less one whose last block waits on its output); then its
//! missing bytes are counted down as the dropped beats come in (`xmiss`): `error` rises once
//! none are missing, `err_wait` says an error waits for them.
//!
//! **`open`**: some chunk has been commanded and its last data beat not yet taken, and no
//! error: the controller waits for `open` low, then one cycle, then reads `error` (`error`
//! rises in the same cycle `open` falls for an error).
//!
//! `c_ready` comes from registers (the queue's second entry is free) so the datapath can fork
//! it with the bus decompressor's command port.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::emit::{standalone_block, StandaloneBlock};
use crate::port_docs::PortDocs;
use crate::prims::{EnReg, Mux2};
use crate::zvcx::{ZvcxDecompressor, ZvcxGather, ZvcxScatter};

/// Port documentation of the ZVC-X decompress path, in Verilog port order.
pub static ZVCX_DEC_PATH_PORTS: PortDocs = PortDocs::new(include_str!("zvcx_dec.rs"), "$name");

macro_rules! zvcx_dec_path {
    (
        $(#[$doc:meta])*
        $name:ident, n: $n:tt, w: $w:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high (every operation start and abort): drops every
            /// chunk in flight and clears `error`.
            pub rst: Signal<In, Bit>,
            /// The frame's elem_type code (0 raw, 1 f32, 2 bf16, 3 f16, 4 e4m3, 5 e5m2), stable
            /// from `rst` low on.
            pub ty: Signal<In, Bits<3>>,
            /// Element width code (0 = 8, 1 = 16, 2 = 32 bits), stable from `rst` low on.
            pub elem: Signal<In, Bits<2>>,
            /// Chunk command: the chunk's stored bytes (its payload, or its data if raw).
            pub c_stored: Signal<In, Bits<32>>,
            /// Chunk command: the chunk's uncompressed bytes (whole elements, at least 1).
            pub c_len: Signal<In, Bits<32>>,
            /// Chunk command: the chunk is stored raw.
            pub c_raw: Signal<In, Bit>,
            /// Chunk command: the frame's last chunk.
            pub c_last: Signal<In, Bit>,
            /// Chunk command handshake: valid.
            pub c_valid: Signal<In, Bit>,
            /// Chunk command handshake: taken this cycle if `c_valid` (from registers only).
            pub c_ready: Signal<Out, Bit>,
            /// Stored bytes (the bus decompressor's output): byte `j` at bits `[8j +: 8]`,
            /// each chunk from a fresh beat, `N` bytes per beat but the chunk's last.
            pub in_data: Signal<In, Bits<$w>>,
            /// Stored beat handshake: valid.
            pub in_valid: Signal<In, Bit>,
            /// Stored beat handshake: taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Data beat: byte `j` at bits `[8j +: 8]`.
            pub out_data: Signal<Out, Bits<$w>>,
            /// Data beat strobes: bytes `0..cnt` of the beat (a prefix).
            pub out_strb: Signal<Out, Bits<$n>>,
            /// The frame's last data beat (the last beat of the `c_last` chunk).
            pub out_last: Signal<Out, Bit>,
            /// Data beat handshake: valid (held until taken).
            pub out_valid: Signal<Out, Bit>,
            /// Data beat handshake: taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            /// Sticky until `rst`: a coded chunk broke a payload rule (the decompressor's
            /// error) or a chunk had no stored bytes; raised once all that chunk's stored bytes
            /// have come in (`err_wait` until then).
            pub error: Signal<Out, Bit>,
            /// A chunk failed but some of its stored bytes have not come in.
            pub err_wait: Signal<Out, Bit>,
            /// A coded chunk's stored bytes are all in and its last data beat has not left the
            /// scatterer (from registers).
            pub in_flight: Signal<Out, Bit>,
            /// A chunk has been commanded and its last data beat not yet taken, and no error.
            pub open: Signal<Out, Bit>,
            // --- children: the coded path
            gather: ZvcxGather<$n, $w>,
            blocks: ZvcxDecompressor,
            scat: ZvcxScatter<$n, $w>,
            // --- command queue: q0 is the chunk whose stored bytes are being taken
            q0_v: DFF<Bit>,
            q0_rem: DFF<Bits<32>>,
            q0_len: DFF<Bits<32>>,
            q0_raw: DFF<Bit>,
            q0_last: DFF<Bit>,
            q1_v: DFF<Bit>,
            q1_rem: DFF<Bits<32>>,
            q1_len: DFF<Bits<32>>,
            q1_raw: DFF<Bit>,
            q1_last: DFF<Bit>,
            // --- the coded chunks' side information
            g_elems: DFF<Bits<25>>,
            inflight: DFF<Bits<8>>,
            last_in: DFF<Bit>,
            nopen: DFF<Bits<8>>,
            err: DFF<Bit>,
            indec: DFF<Bits<8>>,
            xmiss: DFF<Bits<32>>,
            // --- output register
            omux: Mux2<$w>,
            o_data: EnReg<$w>,
            o_cnt: DFF<Bits<8>>,
            o_end: DFF<Bit>,
            o_last: DFF<Bit>,
            o_valid: DFF<Bit>,
            // --- locals
            free: Signal<Local, Bit>,
            b_done: Signal<Local, Bit>,
            undec: Signal<Local, Bits<8>>,
            xm_base: Signal<Local, Bits<32>>,
            xm_sub: Signal<Local, Bits<32>>,
            xm_left: Signal<Local, Bits<32>>,
            endbeat: Signal<Local, Bit>,
            cnt_now: Signal<Local, Bits<8>>,
            has_bytes: Signal<Local, Bit>,
            zero_chunk: Signal<Local, Bit>,
            head_raw: Signal<Local, Bit>,
            head_coded: Signal<Local, Bit>,
            raw_go: Signal<Local, Bit>,
            g_take: Signal<Local, Bit>,
            beat_take: Signal<Local, Bit>,
            pop: Signal<Local, Bit>,
            push: Signal<Local, Bit>,
            enter: Signal<Local, Bit>,
            s_take: Signal<Local, Bit>,
            s_done: Signal<Local, Bit>,
            closed: Signal<Local, Bit>,
            elems32: Signal<Local, Bits<32>>,
            // --- constants
            n32: Constant<Bits<32>>,
            zero32: Constant<Bits<32>>,
            n8: Constant<Bits<8>>,
            zero8: Constant<Bits<8>>,
            one8: Constant<Bits<8>>,
            two2: Constant<Bits<2>>,
            all_n: Constant<Bits<$n>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    ty: Default::default(),
                    elem: Default::default(),
                    c_stored: Default::default(),
                    c_len: Default::default(),
                    c_raw: Default::default(),
                    c_last: Default::default(),
                    c_valid: Default::default(),
                    c_ready: Default::default(),
                    in_data: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_strb: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    error: Default::default(),
                    err_wait: Default::default(),
                    in_flight: Default::default(),
                    open: Default::default(),
                    gather: Default::default(),
                    blocks: Default::default(),
                    scat: Default::default(),
                    q0_v: Default::default(),
                    q0_rem: Default::default(),
                    q0_len: Default::default(),
                    q0_raw: Default::default(),
                    q0_last: Default::default(),
                    q1_v: Default::default(),
                    q1_rem: Default::default(),
                    q1_len: Default::default(),
                    q1_raw: Default::default(),
                    q1_last: Default::default(),
                    g_elems: Default::default(),
                    inflight: Default::default(),
                    last_in: Default::default(),
                    nopen: Default::default(),
                    err: Default::default(),
                    indec: Default::default(),
                    xmiss: Default::default(),
                    omux: Default::default(),
                    o_data: Default::default(),
                    o_cnt: Default::default(),
                    o_end: Default::default(),
                    o_last: Default::default(),
                    o_valid: Default::default(),
                    free: Default::default(),
                    b_done: Default::default(),
                    undec: Default::default(),
                    xm_base: Default::default(),
                    xm_sub: Default::default(),
                    xm_left: Default::default(),
                    endbeat: Default::default(),
                    cnt_now: Default::default(),
                    has_bytes: Default::default(),
                    zero_chunk: Default::default(),
                    head_raw: Default::default(),
                    head_coded: Default::default(),
                    raw_go: Default::default(),
                    g_take: Default::default(),
                    beat_take: Default::default(),
                    pop: Default::default(),
                    push: Default::default(),
                    enter: Default::default(),
                    s_take: Default::default(),
                    s_done: Default::default(),
                    closed: Default::default(),
                    elems32: Default::default(),
                    n32: Constant::new($n.into()),
                    zero32: Constant::new(0.into()),
                    n8: Constant::new($n.into()),
                    zero8: Constant::new(0.into()),
                    one8: Constant::new(1.into()),
                    two2: Constant::new(2.into()),
                    all_n: Constant::new(Bits::<$n>::mask()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, q0_v, q0_rem, q0_len, q0_raw, q0_last, q1_v, q1_rem, q1_len,
                    q1_raw, q1_last, g_elems, inflight, last_in, nopen, err, indec, xmiss, o_cnt, o_end,
                    o_last, o_valid
                );
                self.o_data.clock.next = self.clock.val();
                self.gather.clock.next = self.clock.val();
                self.blocks.clock.next = self.clock.val();
                self.scat.clock.next = self.clock.val();
                self.gather.rst.next = self.rst.val();
                self.blocks.rst.next = self.rst.val();
                self.scat.rst.next = self.rst.val();
                // ---- the head chunk's next stored beat: N bytes, or the rest on its last
                self.free.next = !self.o_valid.q.val() | self.out_ready.val();
                self.endbeat.next = self.q0_rem.q.val() <= self.n32.val();
                self.cnt_now.next = self.n8.val();
                if self.q0_rem.q.val() < self.n32.val() {
                    self.cnt_now.next = self.q0_rem.q.val().get_bits::<8>(0);
                }
                self.has_bytes.next = self.q0_rem.q.val() != self.zero32.val();
                // A chunk without stored bytes is an error when it reaches the head.
                self.zero_chunk.next =
                    self.q0_v.q.val() & !self.has_bytes.val() & !self.err.q.val();
                self.head_raw.next = self.q0_v.q.val()
                    & self.has_bytes.val()
                    & self.q0_raw.q.val()
                    & !self.err.q.val();
                self.head_coded.next = self.q0_v.q.val()
                    & self.has_bytes.val()
                    & !self.q0_raw.q.val()
                    & !self.err.q.val();
                // Raw beats pass only once every coded chunk before them has left.
                self.raw_go.next = self.head_raw.val()
                    & (self.inflight.q.val() == self.zero8.val())
                    & self.free.val()
                    & self.in_valid.val();
                // ---- the coded path: gather (bytes into words) -> decoder -> scatter
                self.gather.elem.next = self.two2.val();
                self.gather.in_data.next = self.in_data.val();
                self.gather.in_cnt.next = self.cnt_now.val();
                self.gather.in_end.next = self.endbeat.val();
                self.gather.in_valid.next = self.in_valid.val() & self.head_coded.val();
                self.g_take.next =
                    self.in_valid.val() & self.head_coded.val() & self.gather.in_ready.val();
                self.in_ready.next = !self.rst.val()
                    & (self.err.q.val()
                        | (self.head_raw.val()
                            & (self.inflight.q.val() == self.zero8.val())
                            & self.free.val())
                        | (self.head_coded.val() & self.gather.in_ready.val()));
                // The gatherer's output word comes from its latest beat: that beat's chunk
                // gives the word's element count (read by the decoder with a chunk's first
                // word).
                self.elems32.next = self.q0_len.q.val() >> self.elem.val();
                if self.g_take.val() {
                    self.g_elems.d.next = self.elems32.val().get_bits::<25>(0);
                }
                self.blocks.ty.next = self.ty.val();
                self.blocks.elem.next = self.elem.val();
                self.blocks.in_data.next = self.gather.out_data.val();
                self.blocks.in_bytes.next = self.gather.out_bytes.val();
                self.blocks.in_last.next = self.gather.out_end.val();
                self.blocks.in_elems.next = self.g_elems.q.val();
                self.blocks.in_valid.next = self.gather.out_valid.val();
                self.gather.out_ready.next = self.blocks.in_ready.val();
                self.scat.elem.next = self.elem.val();
                self.scat.in_data.next = self.blocks.out_data.val();
                self.scat.in_len.next = self.blocks.out_len.val();
                self.scat.in_end.next = self.blocks.out_last.val();
                self.scat.in_valid.next = self.blocks.out_valid.val();
                self.blocks.out_ready.next = self.scat.in_ready.val();
                // After an error the scatterer's beats are dropped.
                self.scat.out_ready.next = self.free.val() | self.err.q.val();
                self.s_take.next = self.scat.out_valid.val() & self.free.val() & !self.err.q.val();
                self.s_done.next = self.s_take.val() & self.scat.out_end.val();
                // ---- the command queue
                self.beat_take.next = self.raw_go.val() | self.g_take.val();
                self.pop.next = self.q0_v.q.val()
                    & (self.err.q.val()
                        | self.zero_chunk.val()
                        | (self.beat_take.val() & self.endbeat.val()));
                self.enter.next = self.g_take.val() & self.endbeat.val();
                self.c_ready.next = !self.q1_v.q.val() & !self.rst.val();
                self.push.next = self.c_valid.val() & !self.q1_v.q.val() & !self.rst.val();
                if self.beat_take.val() {
                    self.q0_rem.d.next = self.q0_rem.q.val() - self.n32.val();
                }
                if self.pop.val() {
                    self.q0_v.d.next = self.q1_v.q.val();
                    self.q0_rem.d.next = self.q1_rem.q.val();
                    self.q0_len.d.next = self.q1_len.q.val();
                    self.q0_raw.d.next = self.q1_raw.q.val();
                    self.q0_last.d.next = self.q1_last.q.val();
                    self.q1_v.d.next = false;
                }
                // A push finds q1 empty: it goes to the head if that is free by now.
                if self.push.val() {
                    if !self.q0_v.q.val() | self.pop.val() {
                        self.q0_v.d.next = true;
                        self.q0_rem.d.next = self.c_stored.val();
                        self.q0_len.d.next = self.c_len.val();
                        self.q0_raw.d.next = self.c_raw.val();
                        self.q0_last.d.next = self.c_last.val();
                    } else {
                        self.q1_v.d.next = true;
                        self.q1_rem.d.next = self.c_stored.val();
                        self.q1_len.d.next = self.c_len.val();
                        self.q1_raw.d.next = self.c_raw.val();
                        self.q1_last.d.next = self.c_last.val();
                    }
                }
                // ---- coded chunks in flight (their last stored beat in, last data beat not
                // yet out of the scatterer)
                if self.enter.val() & !self.s_done.val() {
                    self.inflight.d.next = self.inflight.q.val() + self.one8.val();
                }
                if !self.enter.val() & self.s_done.val() {
                    self.inflight.d.next = self.inflight.q.val() - self.one8.val();
                }
                if self.enter.val() & self.q0_last.q.val() {
                    self.last_in.d.next = true;
                }
                // ---- output register
                self.omux.sel.next = self.raw_go.val();
                self.omux.a.next = self.in_data.val();
                self.omux.b.next = self.scat.out_data.val();
                self.o_data.d.next = self.omux.y.val();
                self.o_data.en.next = self.raw_go.val() | self.s_take.val();
                self.o_data.clr.next = self.rst.val();
                if self.out_ready.val() {
                    self.o_valid.d.next = false;
                }
                if self.raw_go.val() {
                    self.o_valid.d.next = true;
                    self.o_cnt.d.next = self.cnt_now.val();
                    self.o_end.d.next = self.endbeat.val();
                    self.o_last.d.next = self.endbeat.val() & self.q0_last.q.val();
                }
                if self.s_take.val() {
                    self.o_valid.d.next = true;
                    self.o_cnt.d.next = self.scat.out_cnt.val();
                    self.o_end.d.next = self.scat.out_end.val();
                    // The c_last chunk is the last coded chunk to enter: it is alone in
                    // flight when its end leaves.
                    self.o_last.d.next = self.scat.out_end.val()
                        & self.last_in.q.val()
                        & (self.inflight.q.val() == self.one8.val());
                }
                // ---- open chunks and errors
                self.closed.next = self.o_valid.q.val() & self.out_ready.val() & self.o_end.q.val();
                if self.push.val() & !self.closed.val() {
                    self.nopen.d.next = self.nopen.q.val() + self.one8.val();
                }
                if !self.push.val() & self.closed.val() {
                    self.nopen.d.next = self.nopen.q.val() - self.one8.val();
                }
                if self.zero_chunk.val() | self.blocks.error.val() {
                    self.err.d.next = true;
                }
                // ---- a failing head chunk's stored bytes not yet in (xmiss)
                self.b_done.next = self.blocks.out_valid.val()
                    & self.blocks.out_ready.val()
                    & self.blocks.out_last.val();
                if self.enter.val() & !self.b_done.val() {
                    self.indec.d.next = self.indec.q.val() + self.one8.val();
                }
                if !self.enter.val() & self.b_done.val() {
                    self.indec.d.next = self.indec.q.val() - self.one8.val();
                }
                self.undec.next = self.indec.q.val();
                if self.blocks.out_valid.val() & self.blocks.out_last.val() {
                    self.undec.next = self.indec.q.val() - self.one8.val();
                }
                self.xm_base.next = self.q0_rem.q.val();
                if self.err.q.val() {
                    self.xm_base.next = self.xmiss.q.val();
                }
                self.xm_sub.next = self.zero32.val();
                if self.in_valid.val() & self.in_ready.val() {
                    self.xm_sub.next = self.n32.val();
                }
                self.xm_left.next = self.zero32.val();
                if self.xm_base.val() > self.xm_sub.val() {
                    self.xm_left.next = self.xm_base.val() - self.xm_sub.val();
                }
                if self.err.q.val() {
                    self.xmiss.d.next = self.xm_left.val();
                } else if self.zero_chunk.val() | self.blocks.error.val() {
                    self.xmiss.d.next = self.zero32.val();
                    if !self.zero_chunk.val() & (self.undec.val() == self.zero8.val()) {
                        self.xmiss.d.next = self.xm_left.val();
                    }
                }
                if self.rst.val() {
                    self.indec.d.next = self.zero8.val();
                    self.xmiss.d.next = self.zero32.val();
                    self.q0_v.d.next = false;
                    self.q1_v.d.next = false;
                    self.inflight.d.next = self.zero8.val();
                    self.last_in.d.next = false;
                    self.nopen.d.next = self.zero8.val();
                    self.err.d.next = false;
                    self.o_valid.d.next = false;
                }
                // ---- ports
                self.out_data.next = self.o_data.q.val();
                self.out_strb.next = self.all_n.val();
                if self.o_cnt.q.val() < self.n8.val() {
                    self.out_strb.next = !(self.all_n.val() << self.o_cnt.q.val());
                }
                self.out_last.next = self.o_last.q.val();
                self.out_valid.next = self.o_valid.q.val();
                self.error.next = self.err.q.val() & !self.xmiss.q.val().any();
                self.err_wait.next = self.err.q.val() & self.xmiss.q.val().any();
                self.in_flight.next = self.inflight.q.val() != self.zero8.val();
                self.open.next = (self.nopen.q.val() != self.zero8.val()) & !self.err.q.val();
            }
        }
    };
}

zvcx_dec_path!(
    /// ZVC-X decompress path of a 128-bit bus (16 bytes per beat).
    ZvcxDecPathDw128, n: 16, w: 128
);
zvcx_dec_path!(
    /// ZVC-X decompress path of a 256-bit bus (32 bytes per beat).
    ZvcxDecPathDw256, n: 32, w: 256
);
zvcx_dec_path!(
    /// ZVC-X decompress path of a 512-bit bus (64 bytes per beat).
    ZvcxDecPathDw512, n: 64, w: 512
);
zvcx_dec_path!(
    /// ZVC-X decompress path of a 1024-bit bus (128 bytes per beat).
    ZvcxDecPathDw1024, n: 128, w: 1024
);

/// The path of a `dw`-bit bus emitted standalone as `cdma_dma_zvcx_dec_path_dw{dw}`.
///
/// # Panics
/// For a width other than 128, 256, 512 or 1024.
pub fn zvcx_dec_path_block(dw: usize) -> StandaloneBlock {
    let module = format!("cdma_dma_zvcx_dec_path_dw{dw}");
    let ports = &ZVCX_DEC_PATH_PORTS;
    match dw {
        128 => standalone_block(ZvcxDecPathDw128::default(), &module, ports),
        256 => standalone_block(ZvcxDecPathDw256::default(), &module, ports),
        512 => standalone_block(ZvcxDecPathDw512::default(), &module, ports),
        1024 => standalone_block(ZvcxDecPathDw1024::default(), &module, ports),
        other => panic!("cdma-hdl: unsupported bus width {other} bits"),
    }
}
