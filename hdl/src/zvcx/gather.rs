//! [`ZvcxGather`]: the beats of a chunk on an `N`-byte bus as ZVC-X blocks, one per cycle:
//! 32 elements in 32-bit lanes (the block codec's input), their count and the chunk's end.
//!
//! A block is `B = 32·E/8` bytes (32, 64 or 128). When it fits in a beat (`B ≤ N`) a beat
//! holds `N/B` block slots, given out one per cycle (the beat is taken with its last
//! non-empty slot); when it does not (`B > N`) a block is gathered from `B/N` beats, one per
//! cycle, into the block register. Either way a chunk's last beat (`in_end`) closes its last
//! block, which may be partial (fewer than 32 elements; the lanes above are zero). So the
//! gatherer passes one block per cycle when `B ≤ N` and one beat per cycle when `B > N`:
//! the block codec's rate or the bus's, whichever is lower.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::lanes::{block_bytes, ElemLanes, BLOCK_BITS};
use crate::emit::{standalone_block, StandaloneBlock};
use crate::port_docs::PortDocs;
use crate::prims::EnReg;

/// Port documentation of [`ZvcxGather`], in Verilog port order.
pub static GATHER_PORTS: PortDocs = PortDocs::new(include_str!("gather.rs"), "ZvcxGather");

/// The gatherer of a `dw`-bit bus emitted standalone as `cdma_zvcx_gather_dw{dw}`.
///
/// # Panics
/// For a width other than 128, 256, 512 or 1024.
pub fn gather_block(dw: usize) -> StandaloneBlock {
    let module = format!("cdma_zvcx_gather_dw{dw}");
    match dw {
        128 => standalone_block(ZvcxGather::<16, 128>::default(), &module, &GATHER_PORTS),
        256 => standalone_block(ZvcxGather::<32, 256>::default(), &module, &GATHER_PORTS),
        512 => standalone_block(ZvcxGather::<64, 512>::default(), &module, &GATHER_PORTS),
        1024 => standalone_block(ZvcxGather::<128, 1024>::default(), &module, &GATHER_PORTS),
        other => panic!("cdma-hdl: unsupported bus width {other} bits"),
    }
}

/// What an `N`-byte beat of `cnt` valid bytes puts into its block at segment `seg` (the
/// block slot when `B ≤ N`, the beat's place in its block when `B > N`): bytes at their
/// offsets in the block, zero elsewhere and past `cnt`.
pub fn place_bytes<const W: usize>(
    beat: &Bits<W>,
    cnt: usize,
    seg: usize,
    elem: u64,
) -> Bits<BLOCK_BITS> {
    let n = W / 8;
    let b = block_bytes(elem);
    let mut y = Bits::<BLOCK_BITS>::default();
    let byte = |j: usize| {
        if j < cnt && j < n {
            beat.get_bits::<8>(8 * j).to_u64()
        } else {
            0
        }
    };
    if b <= n {
        if seg < n / b {
            for j in 0..b {
                y = y | (Bits::<BLOCK_BITS>::from(byte(seg * b + j)) << (8 * j) as u64);
            }
        }
    } else if seg < b / n {
        for j in 0..n {
            y = y | (Bits::<BLOCK_BITS>::from(byte(j)) << (8 * (seg * n + j)) as u64);
        }
    }
    y
}

/// The gatherer's data mover: [`place_bytes`] as constant part-selects per (width, segment).
#[derive(LogicBlock, Default)]
pub struct BlockPlace<const N: usize, const W: usize> {
    /// The input beat, byte `j` in bits `[8j +: 8]`.
    pub beat: Signal<In, Bits<W>>,
    /// Valid bytes of the beat (1..N); the bytes above are taken as zero.
    pub cnt: Signal<In, Bits<8>>,
    /// The block slot (`B ≤ N`) or the beat's place in its block (`B > N`).
    pub seg: Signal<In, Bits<3>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// The block bytes this beat gives, at their offsets in the block, zero elsewhere.
    pub y: Signal<Out, Bits<BLOCK_BITS>>,
}

impl<const N: usize, const W: usize> Logic for BlockPlace<N, W> {
    fn update(&mut self) {
        self.y.next = place_bytes(
            &self.beat.val(),
            self.cnt.val().to_u64() as usize,
            self.seg.val().to_u64() as usize,
            self.elem.val().to_u64(),
        );
    }
    fn connect(&mut self) {
        assert!(
            W == 8 * N && (16..=128).contains(&N),
            "BlockPlace: W = 8N, N in 16..=128"
        );
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = format!("wire [{}:0] vb;\n", W - 1);
        for j in 0..N {
            v += &format!(
                "assign vb[{} +: 8] = (cnt > 8'd{j}) ? beat[{} +: 8] : 8'd0;\n",
                8 * j,
                8 * j
            );
        }
        v += &format!("always @(*) begin\n    y = {BLOCK_BITS}'d0;\n    case ({{elem, seg}})\n");
        for elem in 0..4u64 {
            let b = block_bytes(elem);
            let segs = if b <= N { N / b } else { b / N };
            for seg in 0..segs {
                let (dst, src, bytes) = if b <= N {
                    (0, seg * b, b)
                } else {
                    (seg * N, 0, N)
                };
                v += &format!(
                    "        5'd{}: y[{} +: {}] = vb[{} +: {}];\n",
                    elem << 3 | seg as u64,
                    8 * dst,
                    8 * bytes,
                    8 * src,
                    8 * bytes
                );
            }
        }
        v += "        default: ;\n    endcase\nend\n";
        Verilog::Custom(v)
    }
}

/// Gathers the beats of an `N`-byte bus (`W = 8N` bits) into ZVC-X blocks.
#[derive(LogicBlock)]
pub struct ZvcxGather<const N: usize, const W: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: drops the block being gathered.
    pub rst: Signal<In, Bit>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits), stable while a chunk streams.
    pub elem: Signal<In, Bits<2>>,
    /// Input beat: byte `j` in bits `[8j +: 8]`.
    pub in_data: Signal<In, Bits<W>>,
    /// Valid bytes of the beat: `N`, or fewer on a chunk's last beat (whole elements).
    pub in_cnt: Signal<In, Bits<8>>,
    /// The chunk's last beat: it closes the chunk's last block.
    pub in_end: Signal<In, Bit>,
    /// Input handshake: valid.
    pub in_valid: Signal<In, Bit>,
    /// Input handshake: the beat is taken this cycle if `in_valid` (when `B ≤ N`, with its
    /// last slot).
    pub in_ready: Signal<Out, Bit>,
    /// The block: element `i` in bits `[32i +: 32]`, zero-extended; zero past `out_len`.
    pub out_data: Signal<Out, Bits<BLOCK_BITS>>,
    /// Elements in the block, 1..32 (32 except a chunk's last block).
    pub out_len: Signal<Out, Bits<6>>,
    /// Bytes of the block (`out_len · E/8`; with `elem` = 32 bits the gatherer also turns a
    /// byte stream of any length into 128-byte words, and this is their byte count).
    pub out_bytes: Signal<Out, Bits<8>>,
    /// The chunk's last block.
    pub out_end: Signal<Out, Bit>,
    /// Output handshake: valid.
    pub out_valid: Signal<Out, Bit>,
    /// Output handshake: the block is taken this cycle if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    place: BlockPlace<N, W>,
    lanes: ElemLanes,
    blk: EnReg<BLOCK_BITS>,
    seg: DFF<Bits<3>>,
    soff: DFF<Bits<8>>,
    ov: DFF<Bit>,
    oend: DFF<Bit>,
    olen: DFF<Bits<6>>,
    obytes: DFF<Bits<8>>,
    e2: Signal<Local, Bits<2>>,
    bsz: Signal<Local, Bits<8>>,
    fits: Signal<Local, Bit>,
    rest: Signal<Local, Bits<8>>,
    last_slot: Signal<Local, Bit>,
    bytes_now: Signal<Local, Bits<8>>,
    complete: Signal<Local, Bit>,
    can_load: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    one2: Constant<Bits<2>>,
    two2: Constant<Bits<2>>,
    three2: Constant<Bits<2>>,
    zero3: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    c32: Constant<Bits<8>>,
    n8: Constant<Bits<8>>,
}

impl<const N: usize, const W: usize> Default for ZvcxGather<N, W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            elem: Default::default(),
            in_data: Default::default(),
            in_cnt: Default::default(),
            in_end: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_len: Default::default(),
            out_bytes: Default::default(),
            out_end: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            place: Default::default(),
            lanes: Default::default(),
            blk: Default::default(),
            seg: Default::default(),
            soff: Default::default(),
            ov: Default::default(),
            oend: Default::default(),
            olen: Default::default(),
            obytes: Default::default(),
            e2: Default::default(),
            bsz: Default::default(),
            fits: Default::default(),
            rest: Default::default(),
            last_slot: Default::default(),
            bytes_now: Default::default(),
            complete: Default::default(),
            can_load: Default::default(),
            take: Default::default(),
            one2: Constant::new(1.into()),
            two2: Constant::new(2.into()),
            three2: Constant::new(3.into()),
            zero3: Constant::new(0.into()),
            one3: Constant::new(1.into()),
            zero8: Constant::new(0.into()),
            c32: Constant::new(32.into()),
            n8: Constant::new((N as u64).into()),
        }
    }
}

impl<const N: usize, const W: usize> Logic for ZvcxGather<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, seg, soff, ov, oend, olen, obytes);
        clock!(self, clock, blk);
        // ---- the block's geometry: B = 32·E/8 bytes (width code 3 as 32 bits)
        self.e2.next = self.elem.val();
        if self.elem.val() == self.three2.val() {
            self.e2.next = self.two2.val();
        }
        self.bsz.next = self.c32.val() << self.e2.val();
        self.fits.next = self.bsz.val() <= self.n8.val();
        // ---- what this cycle's segment holds
        self.rest.next = self.in_cnt.val() - self.soff.q.val();
        self.last_slot.next = self.rest.val() <= self.bsz.val();
        if self.fits.val() {
            self.bytes_now.next = self.bsz.val();
            if self.last_slot.val() {
                self.bytes_now.next = self.rest.val();
            }
            self.complete.next = true;
        } else {
            self.bytes_now.next = self.soff.q.val() + self.in_cnt.val();
            self.complete.next = (self.bytes_now.val() == self.bsz.val()) | self.in_end.val();
        }
        self.can_load.next = (!self.ov.q.val() | self.out_ready.val()) & !self.rst.val();
        self.take.next = self.in_valid.val() & self.can_load.val();
        self.in_ready.next = self.can_load.val() & (!self.fits.val() | self.last_slot.val());
        // ---- the data
        self.place.beat.next = self.in_data.val();
        self.place.cnt.next = self.in_cnt.val();
        self.place.seg.next = self.seg.q.val();
        self.place.elem.next = self.elem.val();
        // A block over several beats accumulates; its first beat starts it afresh.
        self.blk.d.next = self.place.y.val();
        if !self.fits.val() & (self.seg.q.val() != self.zero3.val()) {
            self.blk.d.next = self.blk.q.val() | self.place.y.val();
        }
        self.blk.en.next = self.take.val();
        self.blk.clr.next = self.rst.val();
        // ---- state
        self.ov.d.next = self.ov.q.val() & !self.out_ready.val();
        if self.take.val() {
            self.seg.d.next = self.seg.q.val() + self.one3.val();
            if self.fits.val() {
                self.soff.d.next = self.soff.q.val() + self.bsz.val();
            } else {
                self.soff.d.next = self.soff.q.val() + self.n8.val();
            }
            if (self.fits.val() & self.last_slot.val()) | (!self.fits.val() & self.complete.val()) {
                self.seg.d.next = self.zero3.val();
                self.soff.d.next = self.zero8.val();
            }
            if self.complete.val() {
                self.ov.d.next = true;
                self.oend.d.next = self.in_end.val() & (!self.fits.val() | self.last_slot.val());
                self.obytes.d.next = self.bytes_now.val();
                // Elements: bytes / (E/8), at most 32.
                self.olen.d.next = self.bytes_now.val().get_bits::<6>(0);
                if self.e2.val() == self.one2.val() {
                    self.olen.d.next = self.bytes_now.val().get_bits::<6>(1);
                }
                if self.e2.val() == self.two2.val() {
                    self.olen.d.next = self.bytes_now.val().get_bits::<6>(2);
                }
            }
        }
        if self.rst.val() {
            self.seg.d.next = self.zero3.val();
            self.soff.d.next = self.zero8.val();
            self.ov.d.next = false;
        }
        // ---- the output
        self.lanes.x.next = self.blk.q.val();
        self.lanes.elem.next = self.elem.val();
        self.out_data.next = self.lanes.y.val();
        self.out_len.next = self.olen.q.val();
        self.out_bytes.next = self.obytes.q.val();
        self.out_end.next = self.oend.q.val();
        self.out_valid.next = self.ov.q.val();
    }
}
