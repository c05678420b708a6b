//! `ZvcBusDecompressor`: the stored bytes of a frame's chunks (bus beats) and one command per
//! chunk in, bus beats of the data out, one beat per cycle, for every element width in one
//! datapath; checks every ZVC chunk (docs/FORMAT.md rule 17).
//!
//! * **Input buffer** (`L + N` bytes, `L` the lanes of a beat's layout): payload beats are
//!   appended above the held bytes; the bytes a decoded beat used leave at the bottom, so
//!   the window (the bottom `L` bytes) always starts at the next unused byte of the chunk.
//! * **Decode** (one output beat of the chunk per cycle, once the window holds `L` bytes or
//!   the rest of the chunk): the block masks of the beat — from the window by the
//!   [`MaskChain`] when blocks fit in a beat, else the block's mask (read from the window on
//!   its first beat, then held in `kmask`) shifted to the beat's elements — give the keep
//!   flags of the beat's lane layout ([`LaneKeep`], the compressor's layout); the kept lanes
//!   are the bytes used (`c`; they leave the buffer in the same cycle, its one loop). Where a
//!   beat holds at most one block (every element width up to 256 bits), `c` comes from
//!   registers instead: the first beat's count counted a cycle ahead by [`HeadCount`] for every
//!   place the window can start (`fq`), picked by [`CountPick`]; a later beat's from `kcq`,
//!   counted from the block's mask at the beat before. The
//!   window and keep flags are registered (stage M); the next cycle the [`ByteExpand`] network
//!   moves the window's bytes to the kept lanes and [`SlotDrop`] takes the data bytes out into
//!   the output register (stage O); its zero-element check goes with it into stage P, which
//!   drives the output. A raw chunk keeps every byte. The beat's byte count and last-beat
//!   flag are registered (`ocq`, `lbq`), computed when the previous beat or the command left.
//! * **Chunk commands** wait in a two-entry queue (`ckq`); its head opens when no chunk is
//!   open, or as the open chunk's last beat decodes, so back-to-back one-beat chunks still
//!   decode one a cycle.
//! * **Failed beats travel in order**: a beat failing a check at its decode (17a, b, d) goes
//!   on through stages M and O marked (`m_bad`, `o_bad`), its bytes leaving the buffer as a
//!   good beat's do (so the checks stay off the buffer's loop), and nothing more is decoded
//!   (`pz`); the error rises when it reaches stage P (`p_fail`), as for a zero element (17c),
//!   so the beats before it are checked and delivered first; each carries its chunk's missing
//!   bytes (`m_miss`, `o_miss`, `p_miss`, less the input taken while it waits).
//! * **Checks** (sticky until `rst`; afterwards every input is taken and dropped and nothing
//!   more comes out, so the source never hangs): a beat needs more bytes than its chunk has
//!   left (17a); the chunk's last beat leaves stored bytes unused (17d); mask bits past the
//!   chunk's end (17b); a stored element that is zero (17c, checked on stage O's beat,
//!   registered into stage P, whose beat is then not delivered).
//! * **When a check is final**: a chunk's error may show before all its stored bytes have
//!   come in, and a read error on one of those bytes wins over it (docs/DESCRIPTORS.md, step
//!   8). So the failing chunk's missing bytes are counted (`miss`, down as the dropped input
//!   comes in): `error` rises once none are missing, `err_wait` says an error waits for them.
//!   `starve`: the open chunk waits for input, every beat before through its checks.
//!
//! `in_ready` and `ck_ready` depend on registers and `out_ready` only; so do `out_valid` and
//! `error` (on registers alone). Latency: a chunk's first beat decodes two cycles after its
//! command is offered (the queue), and a decoded beat is offered three cycles later (M, O, P).

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::beat_count::BeatCount;
use super::beat_lanes::{LaneKeep, SlotDrop};
use super::block_geom::{slow_elems, BlockGeom};
use super::elem_flags::{ElemFlags, Widen32};
use super::head_count::{CountPick, HeadCount};
use super::mask_chain::MaskChain;
use super::past_end::PastEnd;
use super::unpack_dp::UnpackDatapath;
use crate::port_docs::PortDocs;
use crate::prims::{ByteExpand, EnReg, Join, Mux2, PopCount, RegQueue, ZeroExtend};

/// Port documentation of the bus decompressor, in Verilog port order (the `///` comments of
/// its port fields below).
pub static BUS_DECOMPRESSOR_PORTS: PortDocs =
    PortDocs::new(include_str!("decompressor.rs"), "$name");

macro_rules! bus_decompressor {
    (
        $(#[$doc:meta])*
        $name:ident, n: $n:tt, w: $w:tt, l: $l:tt, wl: $wl:tt, fw: $fw:tt, fp: $fp:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high: drops everything held, clears `error`.
            pub rst: Signal<In, Bit>,
            /// Element width code of the stream (0 = 8, 1 = 16, 2 = 32 bits), held stable while a
            /// stream is in flight.
            pub elem: Signal<In, Bits<2>>,
            /// Chunk command: bytes the chunk takes in the input (its stored size).
            pub ck_stored: Signal<In, Bits<32>>,
            /// Chunk command: bytes the chunk decodes to (a multiple of N except for the last
            /// chunk; at least 1).
            pub ck_len: Signal<In, Bits<32>>,
            /// Chunk command: stored raw (else ZVC).
            pub ck_raw: Signal<In, Bit>,
            /// Chunk command: the stream's last chunk (its last beat carries `out_last`).
            pub ck_last: Signal<In, Bit>,
            /// Chunk command handshake: valid.
            pub ck_valid: Signal<In, Bit>,
            /// Chunk command handshake: taken this cycle if `ck_valid`.
            pub ck_ready: Signal<Out, Bit>,
            /// Input beat: the chunks' stored bytes back to back, byte `j` in bits `[8j +: 8]`.
            pub in_data: Signal<In, Bits<$w>>,
            /// Valid bytes of the input beat (N except on the stream's final beat).
            pub in_cnt: Signal<In, Bits<8>>,
            /// Input handshake: valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Output beat: the data, byte `j` in bits `[8j +: 8]` (bytes without a strobe zero).
            pub out_data: Signal<Out, Bits<$w>>,
            /// Byte strobes: all ones except on the stream's final partial beat.
            pub out_strb: Signal<Out, Bits<$n>>,
            /// The stream's last output beat.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            /// Sticky until `rst`: a ZVC chunk broke docs/FORMAT.md rule 17, or a chunk's
            /// stored bytes did not match its command (BAD_PAYLOAD); raised once all that
            /// chunk's stored bytes have come in (`err_wait` until then).
            pub error: Signal<Out, Bit>,
            /// A chunk command is open (taken, its last beat not yet through stage P's checks,
            /// no error): low once every chunk commanded has been checked, `error` settled.
            pub ck_open: Signal<Out, Bit>,
            /// A chunk failed a check but some of its stored bytes have not come in (`error`
            /// rises when they have; a read error on one of them is the chunk's error).
            pub err_wait: Signal<Out, Bit>,
            /// From registers: a chunk is open, without error, its next stored byte has not
            /// come in, and every beat decoded has passed its checks (so every chunk before it
            /// is decided).
            pub starve: Signal<Out, Bit>,
            // ---- input buffer
            sbuf: EnReg<$fw>,
            b: DFF<Bits<12>>,
            udp: UnpackDatapath<$n, $w, $fw>,
            hc: HeadCount<$n, $w, $fw, $fp>,
            fq: DFF<Bits<$fp>>,
            cq: DFF<Bits<12>>,
            goq: DFF<Bit>,
            pick: CountPick<$fp>,
            // ---- the chunk being decoded
            act: DFF<Bit>,
            srem: DFF<Bits<32>>,
            orem: DFF<Bits<32>>,
            craw: DFF<Bit>,
            clast: DFF<Bit>,
            bpos: DFF<Bits<3>>,
            boff: DFF<Bits<5>>,
            kmask: DFF<Bits<32>>,
            kone: DFF<Bit>,
            kcq: DFF<Bits<12>>,
            ocq: DFF<Bits<8>>,
            lbq: DFF<Bit>,
            pz: DFF<Bit>,
            // ---- decode
            oc: BeatCount<$n>,
            ock: BeatCount<$n>,
            pc: PopCount<$l, 12, true>,
            kpc: PopCount<32, 12, true>,
            chain: MaskChain<$n, $wl>,
            msel: Mux2<32>,
            wid: Widen32<$n>,
            esel: Mux2<$n>,
            keep: LaneKeep<$n, $l>,
            exp: ByteExpand<$l, $wl>,
            drop: SlotDrop<$n, $w, $l, $wl>,
            bx: ZeroExtend<12, 32>,
            cx: ZeroExtend<12, 32>,
            kcx: ZeroExtend<12, 32>,
            cfx: ZeroExtend<12, 32>,
            pe: PastEnd<$n>,
            er: DFF<Bits<2>>,
            ox: ZeroExtend<8, 32>,
            ic12: ZeroExtend<8, 12>,
            // ---- the decoded beat's window and keep flags (stage M), expanded into o_data
            m_win: EnReg<$wl>,
            m_keep: DFF<Bits<$l>>,
            m_valid: DFF<Bit>,
            m_cnt: DFF<Bits<8>>,
            m_last: DFF<Bit>,
            m_ef: DFF<Bits<$n>>,
            m_bad: DFF<Bit>,
            m_miss: DFF<Bits<32>>,
            // ---- stage O: the expanded beat and its element check
            o_data: EnReg<$w>,
            o_bad: DFF<Bit>,
            o_cnt: DFF<Bits<8>>,
            o_last: DFF<Bit>,
            o_valid: DFF<Bit>,
            o_ef: DFF<Bits<$n>>,
            ofl: ElemFlags<$n, $w>,
            // ---- stage P: the output beat, its checks registered (`p_fail`)
            p_data: EnReg<$w>,
            p_cnt: DFF<Bits<8>>,
            p_last: DFF<Bit>,
            p_valid: DFF<Bit>,
            p_fail: DFF<Bit>,
            p_miss: DFF<Bits<32>>,
            // ---- chunk commands, queued: `ck_ready` from registers
            ckq: RegQueue<64, 2, 2>,
            ckj: Join<32, 32, 64>,
            ckt: Join<1, 1, 2>,
            err: DFF<Bit>,
            miss: DFF<Bits<32>>,
            o_miss: DFF<Bits<32>>,
            ic32: ZeroExtend<8, 32>,
            geom: BlockGeom<$n>,
            // ---- locals
            km1: Signal<Local, Bits<3>>,
            g: Signal<Local, Bits<5>>,
            lastb: Signal<Local, Bit>,
            first: Signal<Local, Bit>,
            need: Signal<Local, Bits<12>>,
            avail: Signal<Local, Bits<12>>,
            zbad: Signal<Local, Bit>,
            ofree: Signal<Local, Bit>,
            dec: Signal<Local, Bit>,
            bad: Signal<Local, Bit>,
            pbad: Signal<Local, Bit>,
            c32: Signal<Local, Bits<32>>,
            ok: Signal<Local, Bit>,
            take: Signal<Local, Bit>,
            pvalid: Signal<Local, Bit>,
            pfree: Signal<Local, Bit>,
            ogo: Signal<Local, Bit>,
            start: Signal<Local, Bit>,
            m_now: Signal<Local, Bits<32>>,
            m_left: Signal<Local, Bits<32>>,
            mfree: Signal<Local, Bit>,
            unused_n: Signal<Local, Bits<12>>,
            mv: Signal<Local, Bit>,
            orn: Signal<Local, Bits<32>>,
            c: Signal<Local, Bits<12>>,
            fast: Signal<Local, Bit>,
            esh: Signal<Local, Bits<2>>,
            bml: Signal<Local, Bits<12>>,
            bi: Signal<Local, Bits<12>>,
            tin: Signal<Local, Bit>,
            cons: Signal<Local, Bits<12>>,
            m_sub: Signal<Local, Bits<32>>,
            mm_sub: Signal<Local, Bits<32>>,
            om_sub: Signal<Local, Bits<32>>,
            pm_sub: Signal<Local, Bits<32>>,
            // ---- constants
            n8: Constant<Bits<8>>,
            n32: Constant<Bits<32>>,
            l32: Constant<Bits<32>>,
            l12: Constant<Bits<12>>,
            slow_m: Constant<Bits<4>>,
            one4: Constant<Bits<4>>,
            two4: Constant<Bits<4>>,
            two2: Constant<Bits<2>>,
            three2: Constant<Bits<2>>,
            all_n: Constant<Bits<$n>>,
            all32: Constant<Bits<32>>,
            zero_n: Constant<Bits<$n>>,
            zero3: Constant<Bits<3>>,
            one3: Constant<Bits<3>>,
            zero5: Constant<Bits<5>>,
            zero12: Constant<Bits<12>>,
            zero32: Constant<Bits<32>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    elem: Default::default(),
                    ck_stored: Default::default(),
                    ck_len: Default::default(),
                    ck_raw: Default::default(),
                    ck_last: Default::default(),
                    ck_valid: Default::default(),
                    ck_ready: Default::default(),
                    in_data: Default::default(),
                    in_cnt: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_strb: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    error: Default::default(),
                    ck_open: Default::default(),
                    err_wait: Default::default(),
                    starve: Default::default(),
                    sbuf: Default::default(),
                    b: Default::default(),
                    udp: Default::default(),
                    hc: Default::default(),
                    fq: Default::default(),
                    cq: Default::default(),
                    goq: Default::default(),
                    pick: Default::default(),
                    act: Default::default(),
                    srem: Default::default(),
                    orem: Default::default(),
                    craw: Default::default(),
                    clast: Default::default(),
                    bpos: Default::default(),
                    boff: Default::default(),
                    kmask: Default::default(),
                    kone: Default::default(),
                    kcq: Default::default(),
                    ocq: Default::default(),
                    lbq: Default::default(),
                    pz: Default::default(),
                    oc: Default::default(),
                    ock: Default::default(),
                    pc: Default::default(),
                    kpc: Default::default(),
                    chain: Default::default(),
                    msel: Default::default(),
                    wid: Default::default(),
                    esel: Default::default(),
                    keep: Default::default(),
                    exp: Default::default(),
                    drop: Default::default(),
                    bx: Default::default(),
                    cx: Default::default(),
                    kcx: Default::default(),
                    cfx: Default::default(),
                    pe: Default::default(),
                    er: Default::default(),
                    ox: Default::default(),
                    ic12: Default::default(),
                    m_win: Default::default(),
                    m_keep: Default::default(),
                    m_valid: Default::default(),
                    m_cnt: Default::default(),
                    m_last: Default::default(),
                    m_ef: Default::default(),
                    m_bad: Default::default(),
                    m_miss: Default::default(),
                    o_data: Default::default(),
                    o_bad: Default::default(),
                    o_cnt: Default::default(),
                    o_last: Default::default(),
                    o_valid: Default::default(),
                    o_ef: Default::default(),
                    ofl: Default::default(),
                    p_data: Default::default(),
                    p_cnt: Default::default(),
                    p_last: Default::default(),
                    p_valid: Default::default(),
                    p_fail: Default::default(),
                    p_miss: Default::default(),
                    ckq: Default::default(),
                    ckj: Default::default(),
                    ckt: Default::default(),
                    err: Default::default(),
                    miss: Default::default(),
                    o_miss: Default::default(),
                    ic32: Default::default(),
                    geom: Default::default(),
                    km1: Default::default(),
                    g: Default::default(),
                    lastb: Default::default(),
                    first: Default::default(),
                    need: Default::default(),
                    avail: Default::default(),
                    zbad: Default::default(),
                    ofree: Default::default(),
                    dec: Default::default(),
                    bad: Default::default(),
                    pbad: Default::default(),
                    c32: Default::default(),
                    ok: Default::default(),
                    take: Default::default(),
                    pvalid: Default::default(),
                    pfree: Default::default(),
                    ogo: Default::default(),
                    start: Default::default(),
                    m_now: Default::default(),
                    m_left: Default::default(),
                    mfree: Default::default(),
                    unused_n: Default::default(),
                    mv: Default::default(),
                    orn: Default::default(),
                    c: Default::default(),
                    fast: Default::default(),
                    esh: Default::default(),
                    bml: Default::default(),
                    bi: Default::default(),
                    tin: Default::default(),
                    cons: Default::default(),
                    m_sub: Default::default(),
                    mm_sub: Default::default(),
                    om_sub: Default::default(),
                    pm_sub: Default::default(),
                    n8: Constant::new($n.into()),
                    n32: Constant::new($n.into()),
                    l32: Constant::new($l.into()),
                    l12: Constant::new($l.into()),
                    slow_m: Constant::new(slow_elems($n).into()),
                    one4: Constant::new(1.into()),
                    two4: Constant::new(2.into()),
                    two2: Constant::new(2.into()),
                    three2: Constant::new(3.into()),
                    all_n: Constant::new(Bits::<$n>::mask()),
                    all32: Constant::new(0xFFFF_FFFFu64.into()),
                    zero_n: Constant::new(0.into()),
                    zero3: Constant::new(0.into()),
                    one3: Constant::new(1.into()),
                    zero5: Constant::new(0.into()),
                    zero12: Constant::new(0.into()),
                    zero32: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, er, b, act, srem, orem, craw, clast, bpos, boff, kmask, kone, fq, cq, goq, kcq, ocq,
                    lbq, pz, m_keep, m_valid, m_cnt, m_last, m_ef, m_bad, m_miss, o_bad, o_cnt,
                    o_last, o_valid, o_ef, err, miss, o_miss, p_cnt, p_last, p_valid, p_fail, p_miss
                );
                clock!(self, clock, sbuf, m_win, o_data, p_data, ckq);
                self.ckq.rst.next = self.rst.val();
                // ---- the element width (BlockGeom, as in the compressor), registered: stable
                // from before a stream's first command, which opens two cycles later at least
                self.er.d.next = self.elem.val();
                self.geom.elem.next = self.er.q.val();
                self.km1.next = self.geom.km1.val();
                self.g.next = self.geom.g.val();
                // Blocks fit in a beat (k = 1). Registered: `elem` is stable a cycle before a
                // stream, and the combinational children then read a register, not a local.
                self.kone.d.next = self.km1.val() == self.zero3.val();
                // ---- stage O, the expanded beat: its zero-element check (rule 17c) goes into
                // stage P with it, with a failed decode's mark (`p_fail`), so the error and the
                // handshakes come from registers; a failed beat in P raises the error
                self.ofl.d.next = self.o_data.q.val();
                self.ofl.cnt.next = self.o_cnt.q.val();
                self.ofl.elem.next = self.er.q.val();
                self.zbad.next = self.p_valid.q.val() & self.p_fail.q.val();
                self.pvalid.next = self.p_valid.q.val() & !self.zbad.val() & !self.err.q.val();
                self.pfree.next = !self.p_valid.q.val() | (self.pvalid.val() & self.out_ready.val());
                self.ogo.next = self.o_valid.q.val() & self.pfree.val();
                self.ofree.next = !self.o_valid.q.val() | self.pfree.val();
                self.p_data.d.next = self.o_data.q.val();
                self.p_data.en.next = self.ogo.val();
                self.p_data.clr.next = self.rst.val();
                if self.ogo.val() {
                    self.p_cnt.d.next = self.o_cnt.q.val();
                    self.p_last.d.next = self.o_last.q.val();
                    self.p_fail.d.next =
                        self.o_bad.q.val() | (self.o_ef.q.val() & !self.ofl.ef.val()).any();
                }
                // ---- stage M: the decoded beat's window and keep flags, expanded into o_data
                self.mv.next = self.m_valid.q.val() & self.ofree.val();
                self.mfree.next = !self.m_valid.q.val() | self.ofree.val();
                self.exp.d.next = self.m_win.q.val();
                self.exp.keep.next = self.m_keep.q.val();
                self.drop.y.next = self.exp.y.val();
                // The bytes used were counted at the decode (Verilator ignores `*unused*`).
                self.unused_n.next = self.exp.n.val();
                self.o_data.d.next = self.drop.d.val();
                self.o_data.en.next = self.mv.val();
                self.o_data.clr.next = self.rst.val();
                if self.mv.val() {
                    self.o_cnt.d.next = self.m_cnt.q.val();
                    self.o_last.d.next = self.m_last.q.val();
                    self.o_ef.d.next = self.m_ef.q.val();
                    self.o_bad.d.next = self.m_bad.q.val();
                }
                // ---- the beat to decode (its byte count and last-beat flag registered)
                self.lastb.next = self.lbq.q.val();
                self.first.next = self.bpos.q.val() == self.zero3.val();
                self.msel.sel.next = self.bpos.q.val() == self.zero3.val();
                self.msel.a.next = self.sbuf.q.val().get_bits::<32>(0);
                self.msel.b.next = self.kmask.q.val();
                self.chain.win.next = self.sbuf.q.val().get_bits::<$wl>(0);
                self.chain.elem.next = self.er.q.val();
                self.wid.x.next = self.msel.y.val() >> self.boff.q.val();
                self.esel.sel.next = self.kone.q.val();
                self.esel.a.next = self.chain.ef.val();
                self.esel.b.next = self.wid.y.val();
                self.keep.ef.next = self.esel.y.val();
                self.keep.cnt.next = self.ocq.q.val();
                self.keep.elem.next = self.er.q.val();
                self.keep.raw.next = self.craw.q.val();
                self.keep.first.next = self.bpos.q.val() == self.zero3.val();
                self.pc.x.next = self.keep.ykeep.val();
                self.fast.next = !(self.slow_m.val() & (self.one4.val() << self.er.q.val())).any();
                // The next beat of a block spanning beats: its mask bits' count, times E/8.
                // (From registers and children, not locals: a child input read from a local
                // makes Verilator see a combinational cycle through the child, UNOPTFLAT.)
                self.kpc.x.next = (self.msel.y.val() >> (self.boff.q.val() + self.geom.g.val()))
                    & !(self.all32.val() << self.geom.g.val());
                self.esh.next = self.er.q.val();
                if self.er.q.val() == self.three2.val() {
                    self.esh.next = self.two2.val();
                }
                // ---- enough bytes: the window's L, or the rest of the chunk
                self.need.next = self.l12.val();
                if self.srem.q.val() < self.l32.val() {
                    self.need.next = self.srem.q.val().get_bits::<12>(0);
                }
                self.bx.x.next = self.b.q.val();
                self.avail.next = self.b.q.val();
                if self.srem.q.val() < self.bx.y.val() {
                    self.avail.next = self.srem.q.val().get_bits::<12>(0);
                }
                // ---- mask bits past the chunk's end (rule 17b), on its last beat
                self.pe.cnt.next = self.ocq.q.val();
                self.pe.elem.next = self.er.q.val();
                self.pe.kone.next = self.kone.q.val();
                self.pe.ef.next = self.esel.y.val();
                self.pe.mask.next = self.msel.y.val();
                self.pe.boff.next = self.boff.q.val();
                // ---- decode, check; a failed beat goes on to stage P marked
                // (`m_bad`), after the beats before it, and nothing more is decoded (`pz`)
                self.dec.next = self.act.q.val()
                    & !self.err.q.val()
                    & !self.pz.q.val()
                    & !self.zbad.val()
                    & self.mfree.val()
                    & (self.b.q.val() >= self.need.val());
                // The bytes the beat uses (`c32`, and `c` its low 12 bits): its kept lanes
                // (`pc`), or, where a beat holds at most one block (`fast`: every width up to
                // 256 bits), the same count from registers: the first beat's picked from `fq`
                // (counted a cycle before, for every place the window could start), a later
                // beat's from `kcq` (counted at the beat before), a raw beat's its byte count.
                // They differ only on a beat with mask bits past its chunk's end, which fails
                // rule 17b either way. The loop through the buffer is then registers -> `c` ->
                // the shift -> registers. The sources are widened by children fed from
                // registers and children (`cx`, `kcx`, `cfx`, `ox`): widening the local `c`
                // instead would make Verilator see a combinational cycle (UNOPTFLAT).
                self.cx.x.next = self.pc.y.val();
                self.kcx.x.next = self.kcq.q.val();
                self.cfx.x.next = self.pick.cnt.val();
                self.c32.next = self.cx.y.val();
                if self.fast.val() {
                    self.c32.next = self.kcx.y.val();
                    if self.first.val() {
                        self.c32.next = self.cfx.y.val();
                    }
                }
                if self.craw.q.val() {
                    self.c32.next = self.ox.y.val();
                }
                self.c.next = self.c32.val().get_bits::<12>(0);
                // Rules 17a and 17d decide whether the chunk goes on (`ok`); 17b (`pbad`, from
                // the masks) only marks the beat and stops the decode: the chunk's bytes are
                // all used either way, and its error comes in stage P.
                self.bad.next = self.dec.val()
                    & ((self.c.val() > self.avail.val())
                        | (self.lastb.val() & (self.c32.val() != self.srem.q.val())));
                self.pbad.next = self.dec.val() & self.lastb.val() & !self.craw.q.val() & self.pe.past.val();
                self.ok.next = self.dec.val() & !self.bad.val();
                if self.zbad.val() {
                    self.err.d.next = true;
                }
                if self.bad.val() | self.pbad.val() {
                    self.pz.d.next = true;
                }
                self.m_win.d.next = self.sbuf.q.val().get_bits::<$wl>(0);
                self.m_win.en.next = self.dec.val();
                self.m_win.clr.next = self.rst.val();
                if self.dec.val() {
                    self.m_bad.d.next = self.bad.val() | self.pbad.val();
                }
                // The beat count after this beat (registered for the next one).
                self.ox.x.next = self.ocq.q.val();
                self.orn.next = self.orem.q.val() - self.ox.y.val();
                // Written out again, not `orn`: a child input read from a local of this block
                // makes Verilator see a combinational cycle through `oc` (UNOPTFLAT).
                self.oc.x.next = self.orem.q.val() - self.ox.y.val();
                self.ock.x.next = self.ckq.q.val().get_bits::<32>(32);
                // A decoded beat moves on and its bytes leave the buffer whether or not it
                // failed a check: the checks (`bad`) stay off the buffer's loop (for timing),
                // and after a failed beat (`pz`) nothing more is decoded, so what it leaves
                // in the counters is never read. Only the chunk's end waits for a good beat.
                if self.ok.val() & self.lastb.val() {
                    self.act.d.next = false;
                }
                if self.dec.val() {
                    self.kcq.d.next = self.kpc.y.val() << self.esh.val();
                    self.m_keep.d.next = self.keep.ykeep.val();
                    self.m_cnt.d.next = self.ocq.q.val();
                    self.m_last.d.next = self.clast.q.val() & self.lastb.val();
                    self.m_ef.d.next = self.zero_n.val();
                    if !self.craw.q.val() {
                        self.m_ef.d.next = self.esel.y.val() & self.pe.t_lo.val();
                    }
                    self.srem.d.next = self.srem.q.val() - self.c32.val();
                    self.orem.d.next = self.orn.val();
                    self.ocq.d.next = self.oc.y.val();
                    self.lbq.d.next = self.orn.val() <= self.n32.val();
                    if !self.craw.q.val() & !self.kone.q.val() {
                        if self.first.val() {
                            self.kmask.d.next = self.msel.y.val();
                        }
                        self.bpos.d.next = self.bpos.q.val() + self.one3.val();
                        self.boff.d.next = self.boff.q.val() + self.g.val();
                        if self.lastb.val() | (self.bpos.q.val() == self.km1.val()) {
                            self.bpos.d.next = self.zero3.val();
                            self.boff.d.next = self.zero5.val();
                        }
                    }
                }
                self.m_valid.d.next = self.dec.val() | (self.m_valid.q.val() & !self.ofree.val());
                self.o_valid.d.next = self.mv.val() | (self.o_valid.q.val() & !self.ogo.val());
                self.p_valid.d.next =
                    self.ogo.val() | (self.p_valid.q.val() & !(self.pvalid.val() & self.out_ready.val()));
                // ---- chunk commands: into a two-entry queue while it has room (so
                // `ck_ready` is from registers, and a command a cycle keeps one chunk a cycle);
                // the head opens when no chunk is, or as the open one's last beat decodes
                self.ckj.lo.next = self.ck_stored.val();
                self.ckj.hi.next = self.ck_len.val();
                self.ckt.lo.next = self.ck_raw.val().into();
                self.ckt.hi.next = self.ck_last.val().into();
                self.ckq.d.next = self.ckj.y.val();
                self.ckq.t.next = self.ckt.y.val();
                self.ck_ready.next = (self.ckq.count.val() < self.two4.val())
                    & !self.err.q.val()
                    & !self.pz.q.val()
                    & !self.rst.val();
                self.ckq.push.next = self.ck_valid.val() & self.ck_ready.val();
                self.start.next = self.ckq.count.val().any()
                    & !self.err.q.val()
                    & !self.pz.q.val()
                    & !self.rst.val()
                    & (!self.act.q.val() | (self.ok.val() & self.lastb.val()));
                self.ckq.pop.next = self.start.val();
                if self.start.val() {
                    self.act.d.next = true;
                    self.srem.d.next = self.ckq.q.val().get_bits::<32>(0);
                    self.orem.d.next = self.ckq.q.val().get_bits::<32>(32);
                    self.ocq.d.next = self.ock.y.val();
                    self.lbq.d.next = self.ckq.q.val().get_bits::<32>(32) <= self.n32.val();
                    self.craw.d.next = self.ckq.qt.val().get_bit(0);
                    self.clast.d.next = self.ckq.qt.val().get_bit(1);
                    self.bpos.d.next = self.zero3.val();
                    self.boff.d.next = self.zero5.val();
                }
                // ---- the input buffer
                // A beat fits when at most L of the buffer's L + N bytes stay held: the held
                // bytes less the decoded beat's (at most `b`), compared without subtracting.
                self.bml.next = self.b.q.val() - self.l12.val();
                self.in_ready.next = !self.rst.val()
                    & (self.err.q.val()
                        | (self.b.q.val() <= self.l12.val())
                        | (self.dec.val() & (self.c.val() >= self.bml.val())));
                self.tin.next = self.in_valid.val() & self.in_ready.val();
                self.take.next = self.tin.val() & !self.err.q.val();
                self.udp.sbuf.next = self.sbuf.q.val();
                self.udp.held.next = self.b.q.val();
                self.udp.c.next = self.c.val();
                self.udp.go.next = self.dec.val();
                self.udp.in_data.next = self.in_data.val();
                // Loaded every cycle: with no beat decoded and none taken, the held bytes stay
                // and what lands above them is never read.
                self.sbuf.d.next = self.udp.nxt.val();
                self.sbuf.en.next = true;
                // The next window's first-beat count: every start's registered (`fq`) with the
                // bytes consumed and `dec`, picked next cycle (the window in `sbuf`, always).
                self.hc.sbuf.next = self.sbuf.q.val();
                self.hc.held.next = self.b.q.val();
                self.hc.in_data.next = self.in_data.val();
                self.hc.elem.next = self.er.q.val();
                self.fq.d.next = self.hc.f.val();
                self.cq.d.next = self.c.val();
                self.goq.d.next = self.dec.val();
                self.pick.f.next = self.fq.q.val();
                self.pick.c.next = self.cq.q.val();
                self.pick.go.next = self.goq.q.val();
                self.cons.next = self.zero12.val();
                if self.dec.val() {
                    self.cons.next = self.c.val();
                }
                self.sbuf.clr.next = self.rst.val();
                self.ic12.x.next = self.in_cnt.val();
                self.bi.next = self.b.q.val() + self.ic12.y.val();
                self.b.d.next = self.b.q.val() - self.cons.val();
                if self.take.val() {
                    self.b.d.next = self.bi.val() - self.cons.val();
                }
                // ---- a failed chunk's stored bytes not yet in (`miss`: its error waits)
                self.ic32.x.next = self.in_cnt.val();
                // The open chunk's missing bytes; a decoded beat keeps them (srem and b both
                // lose its bytes), less the input that comes while it waits in stages M, O and
                // P, for its checks there.
                self.m_now.next = self.zero32.val();
                if self.srem.q.val() > self.bx.y.val() {
                    self.m_now.next = self.srem.q.val() - self.bx.y.val();
                }
                if self.zbad.val() {
                    self.m_now.next = self.p_miss.q.val();
                }
                if self.err.q.val() {
                    self.m_now.next = self.miss.q.val();
                }
                // Less an input beat taken this cycle: both ways computed, the late handshake
                // only selects.
                self.m_sub.next = self.zero32.val();
                if self.m_now.val() > self.ic32.y.val() {
                    self.m_sub.next = self.m_now.val() - self.ic32.y.val();
                }
                self.mm_sub.next = self.zero32.val();
                if self.m_miss.q.val() > self.ic32.y.val() {
                    self.mm_sub.next = self.m_miss.q.val() - self.ic32.y.val();
                }
                self.om_sub.next = self.zero32.val();
                if self.o_miss.q.val() > self.ic32.y.val() {
                    self.om_sub.next = self.o_miss.q.val() - self.ic32.y.val();
                }
                self.pm_sub.next = self.zero32.val();
                if self.p_miss.q.val() > self.ic32.y.val() {
                    self.pm_sub.next = self.p_miss.q.val() - self.ic32.y.val();
                }
                self.m_left.next = self.m_now.val();
                if self.tin.val() {
                    self.m_left.next = self.m_sub.val();
                    self.m_miss.d.next = self.mm_sub.val();
                    self.o_miss.d.next = self.om_sub.val();
                    self.p_miss.d.next = self.pm_sub.val();
                }
                if self.mv.val() {
                    self.o_miss.d.next = self.m_miss.q.val();
                    if self.tin.val() {
                        self.o_miss.d.next = self.mm_sub.val();
                    }
                }
                if self.ogo.val() {
                    self.p_miss.d.next = self.o_miss.q.val();
                    if self.tin.val() {
                        self.p_miss.d.next = self.om_sub.val();
                    }
                }
                if self.dec.val() {
                    self.m_miss.d.next = self.m_left.val();
                }
                if self.zbad.val() | self.err.q.val() {
                    self.miss.d.next = self.m_left.val();
                }
                // Every decoded beat through its checks first: an earlier chunk's error must
                // win over a read error on the input this one waits for.
                self.starve.next = self.act.q.val()
                    & !self.err.q.val()
                    & !self.pz.q.val()
                    & !self.m_valid.q.val()
                    & !self.o_valid.q.val()
                    & !self.p_valid.q.val()
                    & (self.b.q.val() < self.need.val());
                if self.rst.val() {
                    self.miss.d.next = self.zero32.val();
                    self.b.d.next = self.zero12.val();
                    self.act.d.next = false;
                    self.pz.d.next = false;
                    self.m_valid.d.next = false;
                    self.o_valid.d.next = false;
                    self.p_valid.d.next = false;
                    self.err.d.next = false;
                    self.bpos.d.next = self.zero3.val();
                    self.boff.d.next = self.zero5.val();
                }
                // ---- ports
                self.out_data.next = self.p_data.q.val();
                self.out_strb.next = self.all_n.val();
                if self.p_cnt.q.val() < self.n8.val() {
                    self.out_strb.next = !(self.all_n.val() << self.p_cnt.q.val());
                }
                self.out_last.next = self.p_last.q.val();
                self.out_valid.next = self.pvalid.val();
                self.error.next = self.err.q.val() & !self.miss.q.val().any();
                self.err_wait.next = self.err.q.val() & self.miss.q.val().any();
                // Until the last beat commanded has passed its checks in stage P.
                self.ck_open.next = (self.act.q.val()
                    | self.ckq.count.val().any()
                    | self.m_valid.q.val()
                    | self.o_valid.q.val()
                    | self.p_valid.q.val())
                    & !self.err.q.val();
            }
        }
    };
}

bus_decompressor!(
    /// Bus decompressor for a 128-bit bus (16 bytes per beat).
    ZvcBusDecompressorDw128, n: 16, w: 128, l: 20, wl: 160, fw: 288, fp: 168
);
bus_decompressor!(
    /// Bus decompressor for a 256-bit bus (32 bytes per beat).
    ZvcBusDecompressorDw256, n: 32, w: 256, l: 36, wl: 288, fw: 544, fp: 296
);
bus_decompressor!(
    /// Bus decompressor for a 512-bit bus (64 bytes per beat).
    ZvcBusDecompressorDw512, n: 64, w: 512, l: 72, wl: 576, fw: 1088, fp: 584
);
bus_decompressor!(
    /// Bus decompressor for a 1024-bit bus (128 bytes per beat).
    ZvcBusDecompressorDw1024, n: 128, w: 1024, l: 144, wl: 1152, fw: 2176, fp: 1160
);
