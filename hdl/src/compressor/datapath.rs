//! The compressor's register-free datapath: the logic between each pair of pipeline
//! registers of [`super`], one child block whose inputs are all registers of the top (so a
//! simulator evaluates it once per clock edge).

/// Declares the datapath of one compressor configuration (see the module doc of
/// [`super`] for the stages).
macro_rules! zvc_compressor_dp {
    ($dp:ident, e: $e:tt, lg: $lg:tt, p: $p:tt, bw: $bw:tt, pw: $pw:tt) => {
        /// The compressor's combinational logic between its pipeline registers (stages in
        /// the module doc of `compressor`): every input is a register of the parent.
        #[derive(LogicBlock)]
        pub struct $dp {
            /// Input register: the raw block.
            pub x1: Signal<In, Bits<$bw>>,
            /// Stage A's zero counts after scan steps 0..2 (3 planes).
            pub ca: Signal<In, Bits<96>>,
            /// Stage B's zero counts after scan steps 0..4 (5 planes).
            pub cb: Signal<In, Bits<160>>,
            /// Stage C's block.
            pub xc: Signal<In, Bits<$bw>>,
            /// Stage C's mask (also the network's valid lanes).
            pub mc: Signal<In, Bits<32>>,
            /// Stage C's per-lane zero counts (5 planes; only the non-zero lanes' are used).
            pub zc: Signal<In, Bits<160>>,
            /// Stage D's block after network stages 0..2.
            pub xd: Signal<In, Bits<$bw>>,
            /// Stage D's remaining counts (planes 2..5).
            pub zd: Signal<In, Bits<96>>,
            /// Stage D's valid lanes.
            pub vd: Signal<In, Bits<32>>,
            /// Stage N's block after network stages 0..4.
            pub xn: Signal<In, Bits<$bw>>,
            /// Stage N's mask.
            pub mn: Signal<In, Bits<32>>,
            /// Stage N's remaining counts (plane 4).
            pub zn: Signal<In, Bits<32>>,
            /// Stage N's valid lanes.
            pub vn: Signal<In, Bits<32>>,
            /// Stage N's number of zero elements.
            pub zeros: Signal<In, Bits<CNT>>,
            /// Stage N's block is the tensor's last.
            pub last: Signal<In, Bit>,
            /// Lanes already packed in the beat being filled when stage N's block arrives
            /// (the offset register, `< P`).
            pub off: Signal<In, Bits<CNT>>,
            /// Stage E's encoded block `{data, mask}`.
            pub enc: Signal<In, Bits<$pw>>,
            /// Bits 0..3 of stage E's offset in lanes.
            pub off_e: Signal<In, Bits<3>>,
            /// Stage F's encoded block rotated up by bits 0..3 of its offset.
            pub sf: Signal<In, Bits<$pw>>,
            /// Stage F's offset in lanes.
            pub off_f: Signal<In, Bits<7>>,
            /// Stage G's encoded block rotated up by its offset: at and above the offset the
            /// lanes that fall in the current beat, below it those of the next beat.
            pub sg: Signal<In, Bits<$pw>>,
            /// Stage G's lanes below the offset.
            pub lt_g: Signal<In, Bits<$p>>,
            /// Stage G holds a block.
            pub valid_g: Signal<In, Bit>,
            /// Stage G's block closes the beat.
            pub emits_g: Signal<In, Bit>,
            /// The holding register: lanes of the beat being filled (zero above them).
            pub h: Signal<In, Bits<$pw>>,
            /// Output buffer slot 0.
            pub b0: Signal<In, Bits<$pw>>,
            /// Output buffer slot 1.
            pub b1: Signal<In, Bits<$pw>>,
            /// The output buffer's head is slot 1.
            pub rd: Signal<In, Bit>,
            /// Next stage A mask.
            pub mask: Signal<Out, Bits<32>>,
            /// Next stage A counts.
            pub ca_next: Signal<Out, Bits<96>>,
            /// Next stage B counts.
            pub cb_next: Signal<Out, Bits<160>>,
            /// Next stage C counts.
            pub zc_next: Signal<Out, Bits<160>>,
            /// Next stage C number of zero elements.
            pub zeros_next: Signal<Out, Bits<CNT>>,
            /// Next stage D block.
            pub xd_next: Signal<Out, Bits<$bw>>,
            /// Next stage D counts.
            pub zd_next: Signal<Out, Bits<96>>,
            /// Next stage D valid lanes.
            pub vd_next: Signal<Out, Bits<32>>,
            /// Next stage N block.
            pub xn_next: Signal<Out, Bits<$bw>>,
            /// Next stage N counts.
            pub zn_next: Signal<Out, Bits<32>>,
            /// Next stage N valid lanes.
            pub vn_next: Signal<Out, Bits<32>>,
            /// Next stage E encoded block.
            pub enc_next: Signal<Out, Bits<$pw>>,
            /// Lanes in the beat after stage N's block: `off + M + popcount`.
            pub total: Signal<Out, Bits<CNT>>,
            /// `total - P` (the lanes left over when `over`).
            pub rem: Signal<Out, Bits<CNT>>,
            /// Stage N's block closes a beat (`total ≥ P` or last).
            pub emits: Signal<Out, Bit>,
            /// `total > P`: lanes are left over after the beat.
            pub over: Signal<Out, Bit>,
            /// The offset after stage N's block.
            pub off_next: Signal<Out, Bits<CNT>>,
            /// Next stage F block.
            pub sf_next: Signal<Out, Bits<$pw>>,
            /// Next stage G block.
            pub sg_next: Signal<Out, Bits<$pw>>,
            /// Next stage G lanes below the offset.
            pub lt_next: Signal<Out, Bits<$p>>,
            /// Next output beat: the holding register OR stage G's low lanes, or the holding
            /// register alone when stage G is empty (the flush beat).
            pub o_next: Signal<Out, Bits<$pw>>,
            /// Next holding register when stage G's block is taken: the high lanes if it
            /// closes a beat, else the holding register OR the low lanes.
            pub h_next: Signal<Out, Bits<$pw>>,
            /// The output buffer's head beat.
            pub beat: Signal<Out, Bits<$pw>>,
            /// Stage N's offset is at least its zero count (`total ≥ P`).
            ge: Signal<Local, Bit>,
            /// Stage G's lanes at and above the offset: those that fill the current beat.
            lo: Signal<Local, Bits<$pw>>,
            /// Stage G's lanes below the offset: those that start the next beat.
            hi: Signal<Local, Bits<$pw>>,
            /// The beat being filled OR stage G's low lanes.
            merged: Signal<Local, Bits<$pw>>,
            any: LaneAny<$e, $bw>,
            scan: ZeroScan,
            net: CompactStages<$e, $bw>,
            cat: Join<32, $bw, $pw>,
            rot: LaneRot<$e, $pw>,
            lt: Thermo<$p, 1, $p>,
            ltm: LaneMask<$p, $e, $pw>,
            zero_cnt: Constant<Bits<CNT>>,
            p_cnt: Constant<Bits<CNT>>,
        }

        impl Default for $dp {
            fn default() -> Self {
                Self {
                    x1: Default::default(),
                    ca: Default::default(),
                    cb: Default::default(),
                    xc: Default::default(),
                    mc: Default::default(),
                    zc: Default::default(),
                    xd: Default::default(),
                    zd: Default::default(),
                    vd: Default::default(),
                    xn: Default::default(),
                    mn: Default::default(),
                    zn: Default::default(),
                    vn: Default::default(),
                    zeros: Default::default(),
                    last: Default::default(),
                    off: Default::default(),
                    enc: Default::default(),
                    off_e: Default::default(),
                    sf: Default::default(),
                    off_f: Default::default(),
                    sg: Default::default(),
                    lt_g: Default::default(),
                    valid_g: Default::default(),
                    emits_g: Default::default(),
                    h: Default::default(),
                    b0: Default::default(),
                    b1: Default::default(),
                    rd: Default::default(),
                    beat: Default::default(),
                    mask: Default::default(),
                    ca_next: Default::default(),
                    cb_next: Default::default(),
                    zc_next: Default::default(),
                    zeros_next: Default::default(),
                    xd_next: Default::default(),
                    zd_next: Default::default(),
                    vd_next: Default::default(),
                    xn_next: Default::default(),
                    zn_next: Default::default(),
                    vn_next: Default::default(),
                    enc_next: Default::default(),
                    total: Default::default(),
                    rem: Default::default(),
                    emits: Default::default(),
                    over: Default::default(),
                    off_next: Default::default(),
                    sf_next: Default::default(),
                    sg_next: Default::default(),
                    lt_next: Default::default(),
                    o_next: Default::default(),
                    h_next: Default::default(),
                    ge: Default::default(),
                    lo: Default::default(),
                    hi: Default::default(),
                    merged: Default::default(),
                    any: Default::default(),
                    scan: Default::default(),
                    net: Default::default(),
                    cat: Default::default(),
                    rot: Default::default(),
                    lt: Default::default(),
                    ltm: Default::default(),
                    zero_cnt: Constant::new(0.into()),
                    p_cnt: Constant::new($p.into()),
                }
            }
        }

        impl Logic for $dp {
            #[hdl_gen]
            fn update(&mut self) {
                // ---- input register → A: the mask, and the zero scan's first steps.
                self.any.x.next = self.x1.val();
                self.mask.next = self.any.y.val();
                self.scan.zero.next = !self.any.y.val();
                self.ca_next.next = self.scan.a.val();
                // ---- A → B, B → C: the rest of the scan.
                self.scan.a_q.next = self.ca.val();
                self.cb_next.next = self.scan.b.val();
                self.scan.b_q.next = self.cb.val();
                self.zc_next.next = self.scan.c.val();
                self.zeros_next.next = self.scan.total.val();
                // ---- C → D: network stages 0..2, counts travelling with the elements.
                self.net.d1.next = self.xc.val();
                self.net.z1.next = self.zc.val();
                self.net.v1.next = self.mc.val();
                self.xd_next.next = self.net.y1.val();
                self.zd_next.next = self.net.zo1.val();
                self.vd_next.next = self.net.vo1.val();
                // ---- D → N: stages 2..4.
                self.net.d2.next = self.xd.val();
                self.net.z2.next = self.zd.val();
                self.net.v2.next = self.vd.val();
                self.xn_next.next = self.net.y2.val();
                self.zn_next.next = self.net.zo2.val();
                self.vn_next.next = self.net.vo2.val();
                // ---- N → E: stage 4, the encoded block `{data, mask}`.
                self.net.d3.next = self.xn.val();
                self.net.z3.next = self.zn.val();
                self.net.v3.next = self.vn.val();
                self.cat.lo.next = self.mn.val();
                self.cat.hi.next = self.net.y3.val();
                self.enc_next.next = self.cat.y.val();
                // ---- N → E, the offset: M + popcount = P - zeros lanes join the beat.
                self.total.next = self.off.val() + self.p_cnt.val() - self.zeros.val();
                self.rem.next = self.off.val() - self.zeros.val();
                self.ge.next = self.off.val() >= self.zeros.val();
                self.emits.next = self.ge.val() | self.last.val();
                self.over.next = self.off.val() > self.zeros.val();
                self.off_next.next = self.total.val();
                if self.ge.val() {
                    self.off_next.next = self.rem.val();
                }
                if self.last.val() {
                    self.off_next.next = self.zero_cnt.val();
                }
                // ---- E → F → G: the block rotated up by the offset, bits 0..3 then 3..6.
                self.rot.x1.next = self.enc.val();
                self.rot.n1.next = self.off_e.val();
                self.sf_next.next = self.rot.y1.val();
                self.rot.x2.next = self.sf.val();
                self.rot.n2.next = self.off_f.val().get_bits::<3>(3);
                self.sg_next.next = self.rot.y2.val();
                self.lt.n.next = self.off_f.val();
                self.lt_next.next = self.lt.y.val();
                // ---- G: split at the offset.
                self.ltm.v.next = self.lt_g.val();
                self.lo.next = self.sg.val() & !self.ltm.y.val();
                self.hi.next = self.sg.val() & self.ltm.y.val();
                // ---- G → output / holding register.
                self.merged.next = self.h.val() | self.lo.val();
                self.o_next.next = self.h.val();
                if self.valid_g.val() {
                    self.o_next.next = self.merged.val();
                }
                self.h_next.next = self.merged.val();
                if self.emits_g.val() {
                    self.h_next.next = self.hi.val();
                }
                // ---- output buffer head.
                self.beat.next = self.b0.val();
                if self.rd.val() {
                    self.beat.next = self.b1.val();
                }
            }
        }
    };
}

pub(crate) use zvc_compressor_dp;
