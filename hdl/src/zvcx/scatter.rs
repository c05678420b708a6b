//! [`ZvcxScatter`]: ZVC-X blocks (32 element lanes) back into the beats of a chunk on an
//! `N`-byte bus, the inverse of [`super::ZvcxGather`].
//!
//! A block is `B = 32·E/8` bytes. When it fits in a beat (`B ≤ N`) blocks fill the beat slot
//! by slot and the beat leaves when it is full or the chunk ends; when it does not (`B > N`)
//! a block leaves as `B/N` beats, one per cycle (the block is taken with its last beat). A
//! chunk's last block (`in_end`) ends its last beat, which carries only the chunk's bytes.
//! So the scatterer takes one block per cycle when `B ≤ N` and gives one beat per cycle when
//! `B > N`.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::lanes::{block_bytes, LaneBytes, BLOCK_BITS};
use crate::emit::{standalone_block, StandaloneBlock};
use crate::port_docs::PortDocs;
use crate::prims::{EnReg, ZeroExtend};

/// Port documentation of [`ZvcxScatter`], in Verilog port order.
pub static SCATTER_PORTS: PortDocs = PortDocs::new(include_str!("scatter.rs"), "ZvcxScatter");

/// The part of a block's bytes that segment `seg` puts into an `N`-byte beat (`W = 8N`):
/// when `B ≤ N` the block's `B` bytes at slot `seg` of the beat, else the block's bytes
/// `seg·N .. seg·N + N`; zero elsewhere.
pub fn unplace_bytes<const W: usize>(bytes: &Bits<BLOCK_BITS>, seg: usize, elem: u64) -> Bits<W> {
    let n = W / 8;
    let b = block_bytes(elem);
    let mut y = Bits::<W>::default();
    let (dst, src, len) = if b <= n {
        (seg * b, 0, b)
    } else {
        (0, seg * n, n)
    };
    if (b <= n && seg < n / b) || (b > n && seg < b / n) {
        for j in 0..len {
            let v = bytes.get_bits::<8>(8 * (src + j)).to_u64();
            y = y | (Bits::<W>::from(v) << (8 * (dst + j)) as u64);
        }
    }
    y
}

/// The scatterer's data mover: [`unplace_bytes`] as constant part-selects.
#[derive(LogicBlock, Default)]
pub struct BlockUnplace<const N: usize, const W: usize> {
    /// The block's bytes, byte `j` in bits `[8j +: 8]`.
    pub bytes: Signal<In, Bits<BLOCK_BITS>>,
    /// The block slot (`B ≤ N`) or the beat's place in the block (`B > N`).
    pub seg: Signal<In, Bits<3>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits; 3 as 32).
    pub elem: Signal<In, Bits<2>>,
    /// The beat bytes this segment gives, zero elsewhere.
    pub y: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize> Logic for BlockUnplace<N, W> {
    fn update(&mut self) {
        self.y.next = unplace_bytes(
            &self.bytes.val(),
            self.seg.val().to_u64() as usize,
            self.elem.val().to_u64(),
        );
    }
    fn connect(&mut self) {
        assert!(
            W == 8 * N && (16..=128).contains(&N),
            "BlockUnplace: W = 8N, N in 16..=128"
        );
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = format!("always @(*) begin\n    y = {W}'d0;\n    case ({{elem, seg}})\n");
        for elem in 0..4u64 {
            let b = block_bytes(elem);
            let segs = if b <= N { N / b } else { b / N };
            for seg in 0..segs {
                let (dst, src, len) = if b <= N {
                    (seg * b, 0, b)
                } else {
                    (0, seg * N, N)
                };
                v += &format!(
                    "        5'd{}: y[{} +: {}] = bytes[{} +: {}];\n",
                    elem << 3 | seg as u64,
                    8 * dst,
                    8 * len,
                    8 * src,
                    8 * len
                );
            }
        }
        v += "        default: ;\n    endcase\nend\n";
        // On a narrow bus the wide elements' last bytes reach a beat only through later
        // segments; every byte of `bytes` is read by some case, so nothing is unused.
        Verilog::Custom(v)
    }
}

/// Scatters ZVC-X blocks into the beats of an `N`-byte bus (`W = 8N` bits).
#[derive(LogicBlock)]
pub struct ZvcxScatter<const N: usize, const W: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: drops the beat being filled.
    pub rst: Signal<In, Bit>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits), stable while a chunk streams.
    pub elem: Signal<In, Bits<2>>,
    /// The block: element `i` in bits `[32i +: 32]` (bits above the width ignored).
    pub in_data: Signal<In, Bits<BLOCK_BITS>>,
    /// Elements in the block, 1..32 (32 except a chunk's last block).
    pub in_len: Signal<In, Bits<6>>,
    /// The chunk's last block.
    pub in_end: Signal<In, Bit>,
    /// Input handshake: valid (the block is held until taken).
    pub in_valid: Signal<In, Bit>,
    /// Input handshake: the block is taken this cycle if `in_valid` (when `B > N`, with its
    /// last beat).
    pub in_ready: Signal<Out, Bit>,
    /// Output beat: byte `j` in bits `[8j +: 8]`, zero past `out_cnt`.
    pub out_data: Signal<Out, Bits<W>>,
    /// Valid bytes of the beat: `N`, or fewer on a chunk's last beat.
    pub out_cnt: Signal<Out, Bits<8>>,
    /// The chunk's last beat.
    pub out_end: Signal<Out, Bit>,
    /// Output handshake: valid.
    pub out_valid: Signal<Out, Bit>,
    /// Output handshake: the beat is taken this cycle if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    bytes: LaneBytes,
    lx: ZeroExtend<6, 8>,
    unplace: BlockUnplace<N, W>,
    acc: EnReg<W>,
    obuf: EnReg<W>,
    seg: DFF<Bits<3>>,
    soff: DFF<Bits<8>>,
    ov: DFF<Bit>,
    oend: DFF<Bit>,
    ocnt: DFF<Bits<8>>,
    e2: Signal<Local, Bits<2>>,
    bsz: Signal<Local, Bits<8>>,
    fits: Signal<Local, Bit>,
    nbytes: Signal<Local, Bits<8>>,
    after: Signal<Local, Bits<8>>,
    rest: Signal<Local, Bits<8>>,
    last_beat: Signal<Local, Bit>,
    complete: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    len8: Signal<Local, Bits<8>>,
    two2: Constant<Bits<2>>,
    three2: Constant<Bits<2>>,
    zero3: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    c32: Constant<Bits<8>>,
    n8: Constant<Bits<8>>,
}

impl<const N: usize, const W: usize> Default for ZvcxScatter<N, W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            elem: Default::default(),
            in_data: Default::default(),
            in_len: Default::default(),
            in_end: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_cnt: Default::default(),
            out_end: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            bytes: Default::default(),
            lx: Default::default(),
            unplace: Default::default(),
            acc: Default::default(),
            obuf: Default::default(),
            seg: Default::default(),
            soff: Default::default(),
            ov: Default::default(),
            oend: Default::default(),
            ocnt: Default::default(),
            e2: Default::default(),
            bsz: Default::default(),
            fits: Default::default(),
            nbytes: Default::default(),
            after: Default::default(),
            rest: Default::default(),
            last_beat: Default::default(),
            complete: Default::default(),
            free: Default::default(),
            take: Default::default(),
            len8: Default::default(),
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

impl<const N: usize, const W: usize> Logic for ZvcxScatter<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, seg, soff, ov, oend, ocnt);
        clock!(self, clock, acc, obuf);
        // ---- geometry (width code 3 as 32 bits) and the block's bytes
        self.e2.next = self.elem.val();
        if self.elem.val() == self.three2.val() {
            self.e2.next = self.two2.val();
        }
        self.bsz.next = self.c32.val() << self.e2.val();
        self.fits.next = self.bsz.val() <= self.n8.val();
        // Block bytes: len · E/8 (len ≤ 32, so at most 128).
        self.lx.x.next = self.in_len.val();
        self.len8.next = self.lx.y.val();
        self.nbytes.next = self.len8.val() << self.e2.val();
        // B ≤ N: the beat's bytes after this block; B > N: the block's bytes left.
        self.after.next = self.soff.q.val() + self.nbytes.val();
        self.rest.next = self.nbytes.val() - self.soff.q.val();
        self.last_beat.next = self.rest.val() <= self.n8.val();
        self.complete.next = (self.after.val() == self.n8.val()) | self.in_end.val();
        self.free.next = (!self.ov.q.val() | self.out_ready.val()) & !self.rst.val();
        self.take.next = self.in_valid.val() & self.free.val();
        self.in_ready.next = self.free.val() & (self.fits.val() | self.last_beat.val());
        // ---- the data
        self.bytes.x.next = self.in_data.val();
        self.bytes.elem.next = self.elem.val();
        self.unplace.bytes.next = self.bytes.y.val();
        self.unplace.seg.next = self.seg.q.val();
        self.unplace.elem.next = self.elem.val();
        self.acc.d.next = self.acc.q.val() | self.unplace.y.val();
        self.acc.en.next = false;
        self.acc.clr.next = self.rst.val();
        self.obuf.d.next = self.unplace.y.val();
        self.obuf.en.next = false;
        self.obuf.clr.next = self.rst.val();
        // ---- state
        self.ov.d.next = self.ov.q.val() & !self.out_ready.val();
        if self.take.val() {
            self.seg.d.next = self.seg.q.val() + self.one3.val();
            if self.fits.val() {
                self.soff.d.next = self.after.val();
                if self.complete.val() {
                    // The beat leaves with this block; the next block starts a new one.
                    self.obuf.d.next = self.acc.q.val() | self.unplace.y.val();
                    self.obuf.en.next = true;
                    self.acc.clr.next = true;
                    self.ov.d.next = true;
                    self.ocnt.d.next = self.after.val();
                    self.oend.d.next = self.in_end.val();
                    self.seg.d.next = self.zero3.val();
                    self.soff.d.next = self.zero8.val();
                } else {
                    self.acc.en.next = true;
                }
            } else {
                self.soff.d.next = self.soff.q.val() + self.n8.val();
                self.obuf.en.next = true;
                self.ov.d.next = true;
                self.ocnt.d.next = self.n8.val();
                self.oend.d.next = false;
                if self.last_beat.val() {
                    self.ocnt.d.next = self.rest.val();
                    self.oend.d.next = self.in_end.val();
                    self.seg.d.next = self.zero3.val();
                    self.soff.d.next = self.zero8.val();
                }
            }
        }
        if self.rst.val() {
            self.seg.d.next = self.zero3.val();
            self.soff.d.next = self.zero8.val();
            self.ov.d.next = false;
        }
        self.out_data.next = self.obuf.q.val();
        self.out_cnt.next = self.ocnt.q.val();
        self.out_end.next = self.oend.q.val();
        self.out_valid.next = self.ov.q.val();
    }
}

/// The scatterer of a `dw`-bit bus emitted standalone as `cdma_zvcx_scatter_dw{dw}`.
///
/// # Panics
/// For a width other than 128, 256, 512 or 1024.
pub fn scatter_block(dw: usize) -> StandaloneBlock {
    let module = format!("cdma_zvcx_scatter_dw{dw}");
    match dw {
        128 => standalone_block(ZvcxScatter::<16, 128>::default(), &module, &SCATTER_PORTS),
        256 => standalone_block(ZvcxScatter::<32, 256>::default(), &module, &SCATTER_PORTS),
        512 => standalone_block(ZvcxScatter::<64, 512>::default(), &module, &SCATTER_PORTS),
        1024 => standalone_block(ZvcxScatter::<128, 1024>::default(), &module, &SCATTER_PORTS),
        other => panic!("cdma-hdl: unsupported bus width {other} bits"),
    }
}
