//! [`PastEnd`]: the bus decompressor's rule 17b check (no mask bit past the chunk's end, on
//! its last beat) and the beat's element range, from registers only.

use rust_hdl::core::prelude::*;

use crate::prims::ZeroExtend;

/// For an `N`-byte beat holding `cnt` bytes of the chunk: which elements it holds (`t_lo`),
/// and whether the block masks flag an element past them (`past`). A beat holding at most one
/// block (`kone`) is checked on its element flags up to the end of the 32-element block that
/// holds the chunk's last element; a block spanning beats on its 32-bit mask from the beat's
/// first element (`boff`) on.
#[derive(LogicBlock)]
pub struct PastEnd<const N: usize> {
    /// Bytes of the chunk in the beat (`1..=N`).
    pub cnt: Signal<In, Bits<8>>,
    /// Element width code (0 = 8, 1 = 16, 2 = 32 bits).
    pub elem: Signal<In, Bits<2>>,
    /// A block fits in a beat (else a block spans several beats).
    pub kone: Signal<In, Bit>,
    /// The beat's element flags from its block masks (`kone`), element `i` in bit `i`.
    pub ef: Signal<In, Bits<N>>,
    /// The mask of the block the beat is part of (blocks spanning beats).
    pub mask: Signal<In, Bits<32>>,
    /// The beat's first element in that mask (blocks spanning beats).
    pub boff: Signal<In, Bits<5>>,
    /// The elements the beat holds: bit `i` set for `i < cnt / (E/8)`.
    pub t_lo: Signal<Out, Bits<N>>,
    /// A mask bit flags an element past the beat's last (rule 17b, if this is the chunk's
    /// last beat).
    pub past: Signal<Out, Bit>,
    bo8: ZeroExtend<5, 8>,
    lo: Signal<Local, Bits<8>>,
    hi: Signal<Local, Bits<8>>,
    cut: Signal<Local, Bits<8>>,
    t_hi: Signal<Local, Bits<N>>,
    t_cut: Signal<Local, Bits<32>>,
    n8: Constant<Bits<8>>,
    b32_8: Constant<Bits<8>>,
    r31: Constant<Bits<8>>,
    rmask: Constant<Bits<8>>,
    all_n: Constant<Bits<N>>,
    all32: Constant<Bits<32>>,
}

impl<const N: usize> Default for PastEnd<N> {
    fn default() -> Self {
        Self {
            cnt: Default::default(),
            elem: Default::default(),
            kone: Default::default(),
            ef: Default::default(),
            mask: Default::default(),
            boff: Default::default(),
            t_lo: Default::default(),
            past: Default::default(),
            bo8: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            cut: Default::default(),
            t_hi: Default::default(),
            t_cut: Default::default(),
            n8: Constant::new((N as u64).into()),
            b32_8: Constant::new(32.into()),
            r31: Constant::new(31.into()),
            rmask: Constant::new(0xE0.into()),
            all_n: Constant::new(Bits::<N>::mask()),
            all32: Constant::new(0xFFFF_FFFFu64.into()),
        }
    }
}

impl<const N: usize> Logic for PastEnd<N> {
    #[hdl_gen]
    fn update(&mut self) {
        // Elements in the beat, and that rounded up to a whole block.
        self.lo.next = self.cnt.val() >> self.elem.val();
        self.hi.next = (self.lo.val() + self.r31.val()) & self.rmask.val();
        self.t_lo.next = self.all_n.val();
        if self.lo.val() < self.n8.val() {
            self.t_lo.next = !(self.all_n.val() << self.lo.val());
        }
        self.t_hi.next = self.all_n.val();
        if self.hi.val() < self.n8.val() {
            self.t_hi.next = !(self.all_n.val() << self.hi.val());
        }
        self.bo8.x.next = self.boff.val();
        self.cut.next = self.lo.val() + self.bo8.y.val();
        self.t_cut.next = self.all32.val();
        if self.cut.val() < self.b32_8.val() {
            self.t_cut.next = !(self.all32.val() << self.cut.val());
        }
        self.past.next = (self.ef.val() & self.t_hi.val() & !self.t_lo.val()).any();
        if !self.kone.val() {
            self.past.next = (self.mask.val() & !self.t_cut.val()).any();
        }
    }
}
