//! The decompressor top: its ports, the block pipeline's registers, the output buffer and
//! the error rules (the stages are described in the module doc of [`super`]).

/// Declares one decompressor configuration `$name`.
macro_rules! zvc_decompressor_top {
    (
        $(#[$doc:meta])*
        $name:ident, e: $e:tt, p: $p:tt, bw: $bw:tt, pw: $pw:tt, bpw: $bpw:tt, sw: $sw:tt,
        tw: $tw:tt, ww: $ww:tt, hw: $hw:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high; clears `error`.
            pub rst: Signal<In, Bit>,
            /// Packed payload beat (same lane order as the compressor's `out_data`).
            pub in_data: Signal<In, Bits<$pw>>,
            /// Valid lanes in this beat (1..P); lanes at and above in_count are ignored.
            pub in_count: Signal<In, Bits<7>>,
            /// Last beat of the payload.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_data`/`in_count`/`in_last` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the beat is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// One decoded block, element i in lane i (a partial final block comes out
            /// zero-padded).
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Last block of the payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the block is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            /// Sticky until rst: the payload ended inside a block (truncated) or in_count was 0 or
            /// above P; input is then dropped with in_ready high. Rises once the blocks before
            /// the fault are out but the one on the outputs.
            pub error: Signal<Out, Bit>,
            // --- input side: full beats, the block loop
            rpk: Repack<$p, $e, $pw>,
            /// Full beats, the block loop and X0 (the block's two beats, start and end).
            win: Window<$p, $e, $pw, $bpw, $sw, $tw, $ww>,
            // --- X1: its mask, its lanes roughly aligned
            ext: BlockExtract<$p, $e, $ww, $hw, $bw>,
            mk1: DFF<Bits<32>>,
            dh1: EnReg<$hw>,
            slo1: DFF<Bits<3>>,
            f1: DFF<Bit>,
            v1: DFF<Bit>,
            // --- X2..X4: the stored elements wait while the zero counts are scanned
            scan: ZeroScan,
            xd2: EnReg<$bw>,
            m2: DFF<Bits<32>>,
            a2: EnReg<96>,
            f2: DFF<Bit>,
            v2: DFF<Bit>,
            nzx: LaneAny<$e, $bw>,
            xd3: EnReg<$bw>,
            m3: DFF<Bits<32>>,
            b3: EnReg<160>,
            nz3: DFF<Bits<32>>,
            f3: DFF<Bit>,
            v3: DFF<Bit>,
            xd4: EnReg<$bw>,
            m4: DFF<Bits<32>>,
            c4: EnReg<160>,
            tot4: DFF<Bits<CNT>>,
            nz4: DFF<Bits<32>>,
            f4: DFF<Bit>,
            v4: DFF<Bit>,
            // --- X5, X6: each stored element's distance (the counts compacted)
            steer: ExpandSteer,
            zth: Thermo<32, 1, 32>,
            xd5: EnReg<$bw>,
            z5: EnReg<160>,
            vv5: DFF<Bits<32>>,
            zf5: DFF<Bit>,
            f5: DFF<Bit>,
            v5: DFF<Bit>,
            xd6: EnReg<$bw>,
            d6: EnReg<160>,
            vd6: DFF<Bits<32>>,
            zf6: DFF<Bit>,
            f6: DFF<Bit>,
            v6: DFF<Bit>,
            // --- X7: expansion stages 4..3; then stages 2..0 into the output buffer
            net: ExpandStages<$e, $bw>,
            y7: EnReg<$bw>,
            do7: EnReg<96>,
            vo7: DFF<Bits<32>>,
            zf7: DFF<Bit>,
            f7: DFF<Bit>,
            v7: DFF<Bit>,
            // --- output buffer: two block slots, written at `wr`, read at `rd`
            b0: EnReg<$bw>,
            b1: EnReg<$bw>,
            e0: DFF<Bit>,
            e1: DFF<Bit>,
            wr: DFF<Bit>,
            rd: DFF<Bit>,
            /// Blocks in the buffer (0..=2); the block pipeline stalls while it holds 2.
            cnt: DFF<Bits<2>>,
            omux: Mux2<$bw>,
            err: DFF<Bit>,
            /// The block pipeline moves on this cycle.
            adv: Signal<Local, Bit>,
            /// X0's block ends past its stream (or its mask does).
            trunc: Signal<Local, Bit>,
            /// X0's block is its tensor's last.
            fin: Signal<Local, Bit>,
            /// A block enters the output buffer / leaves it.
            put: Signal<Local, Bit>,
            take: Signal<Local, Bit>,
            /// A block with a zero stored element enters the buffer (`with_zero_check`).
            zkill: Signal<Local, Bit>,
            /// X4's block has a zero stored element.
            zbad: Signal<Local, Bit>,
            /// The beat handshake completes / the beat's count is out of range.
            fire: Signal<Local, Bit>,
            bad: Signal<Local, Bit>,
            /// Reset or error: the input side is cleared.
            clr: Signal<Local, Bit>,
            /// Blocks ahead of the output buffer's head are still on their way.
            busy: Signal<Local, Bit>,
            zcheck: Constant<Bit>,
            p7: Constant<Bits<7>>,
            c32: Constant<Bits<7>>,
            zero7: Constant<Bits<7>>,
            one2: Constant<Bits<2>>,
            zero2: Constant<Bits<2>>,
            zero32: Constant<Bits<32>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    in_data: Default::default(),
                    in_count: Default::default(),
                    in_last: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    error: Default::default(),
                    rpk: Default::default(),
                    win: Default::default(),
                    ext: Default::default(),
                    mk1: Default::default(),
                    dh1: Default::default(),
                    slo1: Default::default(),
                    f1: Default::default(),
                    v1: Default::default(),
                    scan: Default::default(),
                    xd2: Default::default(),
                    m2: Default::default(),
                    a2: Default::default(),
                    f2: Default::default(),
                    v2: Default::default(),
                    nzx: Default::default(),
                    xd3: Default::default(),
                    m3: Default::default(),
                    b3: Default::default(),
                    nz3: Default::default(),
                    f3: Default::default(),
                    v3: Default::default(),
                    xd4: Default::default(),
                    m4: Default::default(),
                    c4: Default::default(),
                    tot4: Default::default(),
                    nz4: Default::default(),
                    f4: Default::default(),
                    v4: Default::default(),
                    steer: Default::default(),
                    zth: Default::default(),
                    xd5: Default::default(),
                    z5: Default::default(),
                    vv5: Default::default(),
                    zf5: Default::default(),
                    f5: Default::default(),
                    v5: Default::default(),
                    xd6: Default::default(),
                    d6: Default::default(),
                    vd6: Default::default(),
                    zf6: Default::default(),
                    f6: Default::default(),
                    v6: Default::default(),
                    net: Default::default(),
                    y7: Default::default(),
                    do7: Default::default(),
                    vo7: Default::default(),
                    zf7: Default::default(),
                    f7: Default::default(),
                    v7: Default::default(),
                    b0: Default::default(),
                    b1: Default::default(),
                    e0: Default::default(),
                    e1: Default::default(),
                    wr: Default::default(),
                    rd: Default::default(),
                    cnt: Default::default(),
                    omux: Default::default(),
                    err: Default::default(),
                    adv: Default::default(),
                    trunc: Default::default(),
                    fin: Default::default(),
                    put: Default::default(),
                    take: Default::default(),
                    zkill: Default::default(),
                    zbad: Default::default(),
                    fire: Default::default(),
                    bad: Default::default(),
                    clr: Default::default(),
                    busy: Default::default(),
                    zcheck: Constant::new(false),
                    p7: Constant::new($p.into()),
                    c32: Constant::new(32.into()),
                    zero7: Constant::new(0.into()),
                    one2: Constant::new(1.into()),
                    zero2: Constant::new(0.into()),
                    zero32: Constant::new(0.into()),
                }
            }
        }

        impl $name {
            /// The decompressor that also enforces the canonical-encoding rule (docs/FORMAT.md
            /// rule 17c): a block whose mask has a bit set for a zero element raises `error`
            /// when it enters the output buffer; it is still delivered, no block after it
            /// is. The standalone decompressor (`Default`) does not check.
            pub fn with_zero_check() -> Self {
                Self {
                    zcheck: Constant::new(true),
                    ..Default::default()
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, mk1, slo1, f1, v1, m2, f2, v2,
                    m3, nz3, f3, v3, m4, tot4, nz4, f4, v4, vv5, zf5, f5, v5, vd6, zf6, f6, v6,
                    vo7, zf7, f7, v7, e0, e1, wr, rd, cnt, err
                );
                self.dh1.clock.next = self.clock.val();
                self.xd2.clock.next = self.clock.val();
                self.a2.clock.next = self.clock.val();
                self.xd3.clock.next = self.clock.val();
                self.b3.clock.next = self.clock.val();
                self.xd4.clock.next = self.clock.val();
                self.c4.clock.next = self.clock.val();
                self.xd5.clock.next = self.clock.val();
                self.z5.clock.next = self.clock.val();
                self.xd6.clock.next = self.clock.val();
                self.d6.clock.next = self.clock.val();
                self.y7.clock.next = self.clock.val();
                self.do7.clock.next = self.clock.val();
                self.b0.clock.next = self.clock.val();
                self.b1.clock.next = self.clock.val();
                self.rpk.clock.next = self.clock.val();
                self.win.clock.next = self.clock.val();
                // ---- control: the block pipeline moves while the buffer has a free slot
                self.adv.next = !self.cnt.q.val().get_bit(1);
                self.take.next = self.cnt.q.val().any() & self.out_ready.val();
                self.put.next = self.adv.val() & self.v7.q.val();
                self.zkill.next = self.put.val() & self.zf7.q.val();
                self.clr.next = self.rst.val() | self.err.q.val();
                // ---- input side
                self.in_ready.next = !self.rst.val()
                    & (self.err.q.val() | (self.win.room.val() & !self.rpk.held_last.val()));
                self.fire.next = self.in_valid.val() & self.in_ready.val();
                self.bad.next = (self.in_count.val() == self.zero7.val())
                    | (self.in_count.val() > self.p7.val());
                self.rpk.clr.next = self.clr.val();
                self.rpk.en.next = self.win.room.val();
                self.rpk.in_data.next = self.in_data.val();
                self.rpk.in_count.next = self.in_count.val();
                self.rpk.in_last.next = self.in_last.val();
                self.rpk.in_take.next = self.fire.val() & !self.bad.val() & !self.err.q.val();
                self.win.clr.next = self.clr.val();
                self.win.y.next = self.rpk.y.val();
                self.win.yc.next = self.rpk.yc.val();
                self.win.yl.next = self.rpk.yl.val();
                self.win.yv.next = self.rpk.yv.val();
                self.win.adv.next = self.adv.val();
                // ---- X0 → X1: truncation and the last block are decided on X0's registers
                self.trunc.next = self.win.v.val() & self.win.tr.val();
                self.fin.next = self.win.fin.val();
                self.win.kill.next = self.trunc.val() | self.zkill.val() | self.rst.val();
                self.ext.win.next = self.win.wn.val();
                self.ext.s.next = self.win.s.val();
                self.ext.sn.next = self.win.sn.val();
                self.dh1.d.next = self.ext.dh.val();
                self.ext.dh_q.next = self.dh1.q.val();
                self.ext.slo.next = self.slo1.q.val();
                self.xd2.d.next = self.ext.x.val();
                self.scan.zero.next = !self.mk1.q.val();
                self.a2.d.next = self.scan.a.val();
                self.scan.a_q.next = self.a2.q.val();
                self.xd3.d.next = self.xd2.q.val();
                self.b3.d.next = self.scan.b.val();
                self.nzx.x.next = self.xd2.q.val();
                self.scan.b_q.next = self.b3.q.val();
                self.xd4.d.next = self.xd3.q.val();
                self.c4.d.next = self.scan.c.val();
                // X4: a stored element (compacted lane below the popcount) that is zero.
                self.zth.n.next = self.c32.val() - self.tot4.q.val().get_bits::<7>(0);
                self.zbad.next = self.zcheck.val()
                    & ((!self.nz4.q.val() & self.zth.y.val()) != self.zero32.val());
                self.steer.z1.next = self.c4.q.val();
                self.steer.v1.next = self.m4.q.val();
                self.xd5.d.next = self.xd4.q.val();
                self.z5.d.next = self.steer.zo1.val();
                self.steer.z2.next = self.z5.q.val();
                self.steer.v2.next = self.vv5.q.val();
                self.xd6.d.next = self.xd5.q.val();
                self.d6.d.next = self.steer.d.val();
                self.net.x1.next = self.xd6.q.val();
                self.net.d1.next = self.d6.q.val();
                self.net.v1.next = self.vd6.q.val();
                self.y7.d.next = self.net.y1.val();
                self.do7.d.next = self.net.do1.val();
                self.net.x2.next = self.y7.q.val();
                self.net.d2.next = self.do7.q.val();
                self.net.v2.next = self.vo7.q.val();
                self.b0.d.next = self.net.y2.val();
                self.b1.d.next = self.net.y2.val();
                // Wide registers move with the pipeline; only the 1-bit valids are cleared.
                self.dh1.en.next = self.adv.val();
                self.xd2.en.next = self.adv.val();
                self.a2.en.next = self.adv.val();
                self.xd3.en.next = self.adv.val();
                self.b3.en.next = self.adv.val();
                self.xd4.en.next = self.adv.val();
                self.c4.en.next = self.adv.val();
                self.xd5.en.next = self.adv.val();
                self.z5.en.next = self.adv.val();
                self.xd6.en.next = self.adv.val();
                self.d6.en.next = self.adv.val();
                self.y7.en.next = self.adv.val();
                self.do7.en.next = self.adv.val();
                self.b0.en.next = self.put.val() & !self.wr.q.val();
                self.b1.en.next = self.put.val() & self.wr.q.val();
                self.dh1.clr.next = false;
                self.xd2.clr.next = false;
                self.a2.clr.next = false;
                self.xd3.clr.next = false;
                self.b3.clr.next = false;
                self.xd4.clr.next = false;
                self.c4.clr.next = false;
                self.xd5.clr.next = false;
                self.z5.clr.next = false;
                self.xd6.clr.next = false;
                self.d6.clr.next = false;
                self.y7.clr.next = false;
                self.do7.clr.next = false;
                self.b0.clr.next = false;
                self.b1.clr.next = false;
                if self.adv.val() {
                    self.mk1.d.next = self.ext.mask.val();
                    self.slo1.d.next = self.win.s.val().get_bits::<3>(0);
                    self.f1.d.next = self.fin.val();
                    self.v1.d.next = self.win.v.val() & !self.trunc.val();
                    self.m2.d.next = self.mk1.q.val();
                    self.f2.d.next = self.f1.q.val();
                    self.v2.d.next = self.v1.q.val();
                    self.m3.d.next = self.m2.q.val();
                    self.nz3.d.next = self.nzx.y.val();
                    self.f3.d.next = self.f2.q.val();
                    self.v3.d.next = self.v2.q.val();
                    self.m4.d.next = self.m3.q.val();
                    self.tot4.d.next = self.scan.total.val();
                    self.nz4.d.next = self.nz3.q.val();
                    self.f4.d.next = self.f3.q.val();
                    self.v4.d.next = self.v3.q.val();
                    self.vv5.d.next = self.steer.vo1.val();
                    self.zf5.d.next = self.zbad.val();
                    self.f5.d.next = self.f4.q.val();
                    self.v5.d.next = self.v4.q.val();
                    self.vd6.d.next = self.steer.vd.val();
                    self.zf6.d.next = self.zf5.q.val();
                    self.f6.d.next = self.f5.q.val();
                    self.v6.d.next = self.v5.q.val();
                    self.vo7.d.next = self.net.vo1.val();
                    self.zf7.d.next = self.zf6.q.val();
                    self.f7.d.next = self.f6.q.val();
                    self.v7.d.next = self.v6.q.val();
                }
                // ---- output buffer
                if self.put.val() & !self.wr.q.val() {
                    self.e0.d.next = self.f7.q.val();
                }
                if self.put.val() & self.wr.q.val() {
                    self.e1.d.next = self.f7.q.val();
                }
                self.wr.d.next = self.wr.q.val() ^ self.put.val();
                self.rd.d.next = self.rd.q.val() ^ self.take.val();
                if self.put.val() & !self.take.val() {
                    self.cnt.d.next = self.cnt.q.val() + self.one2.val();
                }
                if !self.put.val() & self.take.val() {
                    self.cnt.d.next = self.cnt.q.val() - self.one2.val();
                }
                // ---- errors (sticky): the input side is cleared while `err`; blocks ahead of
                // a truncated one or a bad beat still come out, none behind a zero-checked one.
                if (self.fire.val() & self.bad.val()) | self.trunc.val() | self.zkill.val() {
                    self.err.d.next = true;
                }
                if self.zkill.val() {
                    self.v1.d.next = false;
                    self.v2.d.next = false;
                    self.v3.d.next = false;
                    self.v4.d.next = false;
                    self.v5.d.next = false;
                    self.v6.d.next = false;
                    self.v7.d.next = false;
                }
                if self.rst.val() {
                    self.err.d.next = false;
                    self.v1.d.next = false;
                    self.v2.d.next = false;
                    self.v3.d.next = false;
                    self.v4.d.next = false;
                    self.v5.d.next = false;
                    self.v6.d.next = false;
                    self.v7.d.next = false;
                    self.cnt.d.next = self.zero2.val();
                    self.wr.d.next = false;
                    self.rd.d.next = false;
                }
                self.omux.sel.next = self.rd.q.val();
                self.omux.a.next = self.b1.q.val();
                self.omux.b.next = self.b0.q.val();
                self.out_data.next = self.omux.y.val();
                self.out_last.next = self.e0.q.val();
                if self.rd.q.val() {
                    self.out_last.next = self.e1.q.val();
                }
                self.out_valid.next = self.cnt.q.val().any();
                // `error` waits for the blocks ahead of the faulty one to reach the output
                // buffer's head: at most the block on the outputs leaves after it rises.
                self.busy.next = (self.win.v.val() & !self.trunc.val())
                    | (self.win.vb.val() & !self.trunc.val())
                    | self.v1.q.val()
                    | self.v2.q.val()
                    | self.v3.q.val()
                    | self.v4.q.val()
                    | self.v5.q.val()
                    | self.v6.q.val()
                    | self.v7.q.val()
                    | self.cnt.q.val().get_bit(1);
                self.error.next = self.err.q.val() & !self.busy.val();
            }
        }
    };
}

pub(crate) use zvc_decompressor_top;
