//! `ZvcxEncPath` (COMPRESS, codec ZVC-X): the source beats of a chunk in, the chunk's
//! decision (raw or coded, stored bytes) and its coded beats out, per bus width
//! ([`ZvcxEncPathDw128`] … [`ZvcxEncPathDw1024`]).
//!
//! Chain: [`ZvcxGather`] (beats → 32-element blocks) → [`ZvcxCompressor`] (blocks → the
//! chunk's payload in 128-byte words) → [`WordToBeats`] (words → `N`-byte beats) → the
//! bounding stage → a [`ChunkFifo`](super::chunk_fifo::ChunkFifo) of the width
//! (`ChunkFifoDwX`, two 4 KiB chunks of beats `{last = 0, chunk_end, bytes, data}`).
//!
//! Contract with the datapath:
//! * The datapath forks each source beat to its raw chunk FIFO and to this block and takes
//!   it only when both accept. `in_ready` does not depend on `in_valid` (nor on `out_ready`
//!   or `dec_ready`): it comes from registers through the children's flow control and
//!   `in_cnt`. `in_valid`, once high, must hold (with the beat) until the beat is taken —
//!   when blocks are smaller than a beat the gatherer hands out the beat's blocks over
//!   several cycles and takes the beat with its last one. The datapath's fork
//!   (`in_valid = source valid & raw FIFO ready`) holds it: the raw FIFO only fills by taking
//!   this very beat.
//! * Per chunk the input counts its bytes (`in_cnt`) into a queue of chunk lengths
//!   ([`LENQ_DEPTH`] chunks in flight; the input stalls when it is full). The bounding stage
//!   adds up the chunk's encoded beats. Once the chunk's length is known (its end beat passed
//!   the input) and the total reaches it, the chunk is raw: its later beats are dropped and
//!   only an end beat (`out_cnt` 0, `out_end`) goes in. Before its length is known the stage
//!   pushes every beat: waiting for the length could deadlock, the chunk's end beat being
//!   behind the waiting beat in the pipeline. A coded chunk's beats are its payload
//!   (`cdma_model::zvcx::encode`), `N` bytes each but the last, which has `out_end`. So a
//!   chunk takes at most its source beats when its length is known before its payload
//!   reaches it (the usual case: the pipeline lags the input by blocks), and at most its
//!   payload's beats otherwise — a raw ZVC-X block is its bytes plus an 8-bit code, so at
//!   most `ceil((bytes + bytes/B + 1) / N)`, well inside the FIFO's two 4 KiB chunks.
//! * With a chunk's end beat a decision enters the decision queue ([`DECQ_DEPTH`] entries):
//!   `dec_raw = !(encoded < chunk bytes)`, `dec_stored_len` = encoded bytes if coded, else the
//!   chunk's bytes (`cdma_model::frame::encode_chunk_with`'s index entry). So a decision is
//!   valid only once its chunk's end beat is in the FIFO; when the queue is full the bounding
//!   stage stalls (nothing is dropped). The consumer holds a decision while it drains that
//!   chunk and takes it with the chunk's end beat.
//! * `rst` (synchronous, the datapath pulses it at every operation start and abort) empties
//!   every stage and queue; `ty` and `elem` are stable from `rst` low on.
//!
//! Rate, with `out_ready` and `dec_ready` high: the gatherer's — one block per cycle when a
//! `B`-byte block fits a beat (a beat taken with its last block, `N/B` cycles a beat), one
//! beat per cycle otherwise. Back-pressure on either output only stalls.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::chunk_fifo::{ChunkFifoDw1024, ChunkFifoDw128, ChunkFifoDw256, ChunkFifoDw512};
use crate::port_docs::PortDocs;
use crate::prims::{Join, RegQueue, ZeroExtend};
use crate::zvcx::{WordToBeats, ZvcxCompressor, ZvcxGather};

/// Chunk lengths queued between the input and the bounding stage: as many as the chunks the
/// pipeline (gatherer, compressor, gearbox) holds, so one-beat chunks stream at full rate
/// (measured on 128-byte f32 chunks at 1024 bits: 1.000 beats/cycle at 8, 0.870 at 6,
/// 0.597 at 4).
pub const LENQ_DEPTH: usize = 8;

/// Decisions queued for the consumer: the one it drains plus those whose end beats are
/// already in the FIFO behind it.
pub const DECQ_DEPTH: usize = 4;

/// Port documentation of the ZVC-X encode path, in Verilog port order (the `///` comments
/// of its port fields below).
pub static ZVCX_ENC_PORTS: PortDocs = PortDocs::new(include_str!("zvcx_enc.rs"), "$name");

macro_rules! zvcx_enc_path {
    (
        $(#[$doc:meta])*
        $name:ident, $fifo:ty, n: $n:tt, bw: $bw:tt, fw: $fw:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: empties every stage, queue and the FIFO.
            pub rst: Signal<In, Bit>,
            /// Element type code (docs/FORMAT.md `elem_type`: 0 raw, 1 f32, 2 bf16, 3 f16,
            /// 4 e4m3, 5 e5m2), stable from `rst` low on.
            pub ty: Signal<In, Bits<3>>,
            /// Element width code (0 = 8, 1 = 16, 2 = 32 bits), stable from `rst` low on.
            pub elem: Signal<In, Bits<2>>,
            /// Source beat, byte `j` in bits `[8j +: 8]`.
            pub in_data: Signal<In, Bits<$bw>>,
            /// Valid bytes of the beat from byte 0: N, fewer only on a chunk's last beat
            /// (whole elements, at least 1).
            pub in_cnt: Signal<In, Bits<8>>,
            /// The beat ends its chunk.
            pub in_end: Signal<In, Bit>,
            /// Input handshake: valid; once high it holds with the beat until taken.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`; independent of
            /// `in_valid`, `out_ready` and `dec_ready`.
            pub in_ready: Signal<Out, Bit>,
            /// Decision of the oldest undecided chunk: its stored bytes (the ZVC-X payload's
            /// bytes if coded, the chunk's bytes if raw).
            pub dec_stored_len: Signal<Out, Bits<32>>,
            /// Decision: 1 = store the chunk raw (payload not smaller than the chunk),
            /// 0 = store its ZVC-X payload (the coded beats).
            pub dec_raw: Signal<Out, Bit>,
            /// Decision valid: one per chunk in chunk order, raised only once the chunk's end
            /// beat is in the output FIFO.
            pub dec_valid: Signal<Out, Bit>,
            /// Decision handshake: the decision is taken this cycle if `dec_valid` (with the
            /// chunk's end beat).
            pub dec_ready: Signal<In, Bit>,
            /// Coded beat, byte `j` in bits `[8j +: 8]`.
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Valid bytes of the coded beat: N, the chunk's last ≤ N; 0 on a raw chunk's end
            /// beat.
            pub out_cnt: Signal<Out, Bits<8>>,
            /// The beat ends its chunk (a raw chunk's beats, this one included, are dropped
            /// by the consumer).
            pub out_end: Signal<Out, Bit>,
            /// Output handshake: valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // children
            gat: ZvcxGather<$n, $bw>,
            enc: ZvcxCompressor,
            gear: WordToBeats<$n, $bw>,
            /// The coded-beat FIFO (visible to the tests, which count the end beats going in).
            pub(super) fifo: $fifo,
            lenq: RegQueue<31, 1, LENQ_DEPTH>,
            j_len: Join<31, 1, 32>,
            decq: RegQueue<32, 1, DECQ_DEPTH>,
            z_in: ZeroExtend<8, 32>,
            z_out: ZeroExtend<8, 32>,
            j_flags: Join<1, 1, 2>,
            j_hi: Join<8, 2, 10>,
            j_word: Join<$bw, 10, $fw>,
            // registers: the input chunk's bytes so far; the bounding stage's encoded bytes
            // so far and whether the chunk already proved raw
            acc: DFF<Bits<32>>,
            enc_n: DFF<Bits<32>>,
            over: DFF<Bit>,
            // locals
            lenq_ok: Signal<Local, Bit>,
            len_known: Signal<Local, Bit>,
            take_in: Signal<Local, Bit>,
            chunk_n: Signal<Local, Bits<32>>,
            go: Signal<Local, Bit>,
            tot: Signal<Local, Bits<32>>,
            raw_now: Signal<Local, Bit>,
            stored: Signal<Local, Bits<32>>,
            cnt_q: Signal<Local, Bits<8>>,
            lenq_full: Constant<Bits<4>>,
            decq_full: Constant<Bits<4>>,
            zero1: Constant<Bits<1>>,
            zero4: Constant<Bits<4>>,
            zero8: Constant<Bits<8>>,
            zero32: Constant<Bits<32>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    ty: Default::default(),
                    elem: Default::default(),
                    in_data: Default::default(),
                    in_cnt: Default::default(),
                    in_end: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    dec_stored_len: Default::default(),
                    dec_raw: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    out_data: Default::default(),
                    out_cnt: Default::default(),
                    out_end: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    gat: Default::default(),
                    enc: Default::default(),
                    gear: Default::default(),
                    fifo: Default::default(),
                    lenq: Default::default(),
                    j_len: Default::default(),
                    decq: Default::default(),
                    z_in: Default::default(),
                    z_out: Default::default(),
                    j_flags: Default::default(),
                    j_hi: Default::default(),
                    j_word: Default::default(),
                    acc: Default::default(),
                    enc_n: Default::default(),
                    over: Default::default(),
                    lenq_ok: Default::default(),
                    len_known: Default::default(),
                    take_in: Default::default(),
                    chunk_n: Default::default(),
                    go: Default::default(),
                    tot: Default::default(),
                    raw_now: Default::default(),
                    stored: Default::default(),
                    cnt_q: Default::default(),
                    lenq_full: Constant::new((LENQ_DEPTH as u64).into()),
                    decq_full: Constant::new((DECQ_DEPTH as u64).into()),
                    zero1: Constant::new(0u64.into()),
                    zero4: Constant::new(0u64.into()),
                    zero8: Constant::new(0u64.into()),
                    zero32: Constant::new(0u64.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, acc, enc_n, over);
                self.gat.clock.next = self.clock.val();
                self.enc.clock.next = self.clock.val();
                self.gear.clock.next = self.clock.val();
                self.fifo.clock.next = self.clock.val();
                self.lenq.clock.next = self.clock.val();
                self.decq.clock.next = self.clock.val();
                self.gat.rst.next = self.rst.val();
                self.enc.rst.next = self.rst.val();
                self.gear.rst.next = self.rst.val();
                self.fifo.rst.next = self.rst.val();
                self.lenq.rst.next = self.rst.val();
                self.decq.rst.next = self.rst.val();
                // ---- input: the gatherer, gated by room for the chunk's length (a register
                // count), so the gatherer hands out slots only of a beat that can be taken
                self.lenq_ok.next = self.lenq.count.val() != self.lenq_full.val();
                self.gat.elem.next = self.elem.val();
                self.gat.in_data.next = self.in_data.val();
                self.gat.in_cnt.next = self.in_cnt.val();
                self.gat.in_end.next = self.in_end.val();
                self.gat.in_valid.next = self.in_valid.val() & self.lenq_ok.val();
                self.in_ready.next = self.gat.in_ready.val() & self.lenq_ok.val();
                self.take_in.next = self.in_valid.val() & self.in_ready.val();
                // The chunk's bytes: counted per beat taken, queued with its end beat.
                self.z_in.x.next = self.in_cnt.val();
                self.chunk_n.next = self.acc.q.val() + self.z_in.y.val();
                // (Bits 0..31 as the entry, bit 31 as its tag: every bit is read back.)
                self.lenq.d.next = self.chunk_n.val().get_bits::<31>(0);
                self.lenq.t.next = self.chunk_n.val().get_bits::<1>(31);
                self.j_len.lo.next = self.lenq.q.val();
                self.j_len.hi.next = self.lenq.qt.val();
                self.lenq.push.next = self.take_in.val() & self.in_end.val();
                if self.take_in.val() {
                    self.acc.d.next = self.chunk_n.val();
                    if self.in_end.val() {
                        self.acc.d.next = self.zero32.val();
                    }
                }
                // ---- blocks -> payload words -> beats
                self.enc.ty.next = self.ty.val();
                self.enc.elem.next = self.elem.val();
                self.enc.in_data.next = self.gat.out_data.val();
                self.enc.in_len.next = self.gat.out_len.val();
                self.enc.in_last.next = self.gat.out_end.val();
                self.enc.in_valid.next = self.gat.out_valid.val();
                self.gat.out_ready.next = self.enc.in_ready.val();
                self.gear.in_data.next = self.enc.out_data.val();
                self.gear.in_bytes.next = self.enc.out_bytes.val();
                self.gear.in_last.next = self.enc.out_last.val();
                self.gear.in_valid.next = self.enc.out_valid.val();
                self.enc.out_ready.next = self.gear.in_ready.val();
                // ---- bounding stage: a beat moves when the FIFO and the decision queue have
                // room and, for a chunk's last beat, its length is known (all registers). The
                // length is known once the chunk's end beat passed the input (the queue's head
                // is the chunk here); before that the stage must not wait for it (the chunk's
                // end beat may still be behind this beat in the pipeline), so it pushes.
                self.len_known.next = self.lenq.count.val() != self.zero4.val();
                self.gear.out_ready.next = (self.len_known.val() | !self.gear.out_last.val())
                    & self.fifo.in_ready.val()
                    & (self.decq.count.val() != self.decq_full.val());
                self.go.next = self.gear.out_valid.val() & self.gear.out_ready.val();
                self.z_out.x.next = self.gear.out_cnt.val();
                self.tot.next = self.enc_n.q.val() + self.z_out.y.val();
                // Raw once the encoded bytes reach the chunk's: no beat of it after that.
                self.raw_now.next = self.over.q.val()
                    | (self.len_known.val() & (self.tot.val() >= self.j_len.y.val()));
                self.stored.next = self.tot.val();
                if self.raw_now.val() {
                    self.stored.next = self.j_len.y.val();
                }
                self.cnt_q.next = self.gear.out_cnt.val();
                if self.raw_now.val() {
                    self.cnt_q.next = self.zero8.val();
                }
                self.j_flags.lo.next = self.gear.out_last.val().into();
                self.j_flags.hi.next = self.zero1.val();
                self.j_hi.lo.next = self.cnt_q.val();
                self.j_hi.hi.next = self.j_flags.y.val();
                self.j_word.lo.next = self.gear.out_data.val();
                self.j_word.hi.next = self.j_hi.y.val();
                self.fifo.in_data.next = self.j_word.y.val();
                self.fifo.in_valid.next =
                    self.go.val() & (self.gear.out_last.val() | !self.raw_now.val());
                // The chunk's end: its decision in, its length out.
                self.decq.d.next = self.stored.val();
                self.decq.t.next = self.raw_now.val().into();
                self.decq.push.next = self.go.val() & self.gear.out_last.val();
                self.lenq.pop.next = self.go.val() & self.gear.out_last.val();
                if self.go.val() {
                    self.enc_n.d.next = self.tot.val();
                    self.over.d.next = self.raw_now.val();
                    if self.gear.out_last.val() {
                        self.enc_n.d.next = self.zero32.val();
                        self.over.d.next = false;
                    }
                }
                if self.rst.val() {
                    self.acc.d.next = self.zero32.val();
                    self.enc_n.d.next = self.zero32.val();
                    self.over.d.next = false;
                }
                // ---- outputs
                self.out_data.next = self.fifo.out_data.val().get_bits::<$bw>(0);
                self.out_cnt.next = self.fifo.out_data.val().get_bits::<8>($bw);
                self.out_end.next = self.fifo.out_data.val().get_bit($bw + 8);
                self.out_valid.next = self.fifo.out_valid.val();
                self.fifo.out_ready.next = self.out_ready.val();
                // (Zero while no decision: the queue's stale head is not a defined value.)
                self.dec_valid.next = self.decq.count.val() != self.zero4.val();
                self.dec_stored_len.next = self.zero32.val();
                self.dec_raw.next = false;
                if self.dec_valid.val() {
                    self.dec_stored_len.next = self.decq.q.val();
                    self.dec_raw.next = self.decq.qt.val() != self.zero1.val();
                }
                self.decq.pop.next = self.dec_valid.val() & self.dec_ready.val();
            }
        }
    };
}

zvcx_enc_path!(
    /// ZVC-X encode path of a 128-bit bus (16 bytes per beat).
    ZvcxEncPathDw128, ChunkFifoDw128, n: 16, bw: 128, fw: 138
);
zvcx_enc_path!(
    /// ZVC-X encode path of a 256-bit bus (32 bytes per beat).
    ZvcxEncPathDw256, ChunkFifoDw256, n: 32, bw: 256, fw: 266
);
zvcx_enc_path!(
    /// ZVC-X encode path of a 512-bit bus (64 bytes per beat).
    ZvcxEncPathDw512, ChunkFifoDw512, n: 64, bw: 512, fw: 522
);
zvcx_enc_path!(
    /// ZVC-X encode path of a 1024-bit bus (128 bytes per beat).
    ZvcxEncPathDw1024, ChunkFifoDw1024, n: 128, bw: 1024, fw: 1034
);
