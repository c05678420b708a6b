//! The compressor top: its ports, pipeline registers and handshake control (the stages are
//! described in the module doc of [`super`]).

/// Declares one compressor configuration: the top `$name` around its datapath `$dp`.
macro_rules! zvc_compressor_top {
    (
        $(#[$doc:meta])*
        $name:ident, $dp:ident, p: $p:tt, bw: $bw:tt, pw: $pw:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// One 32-element block, element i in lane i (bits [i*E +: E]); a partial final block
            /// is zero-padded.
            pub in_data: Signal<In, Bits<$bw>>,
            /// This block is the last of the tensor: flush the packer.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: `in_data`/`in_last` are valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: the block is taken this cycle if `in_valid`.
            pub in_ready: Signal<Out, Bit>,
            /// Packed payload beat: stream element k of the beat in lane k (unused lanes zero).
            pub out_data: Signal<Out, Bits<$pw>>,
            /// Valid lanes in this beat (P except on a final partial beat; never 0).
            pub out_count: Signal<Out, Bits<7>>,
            /// Last beat of the tensor's payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: `out_data`/`out_count`/`out_last` are valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: the beat is taken this cycle if `out_valid`.
            pub out_ready: Signal<In, Bit>,
            // --- input register
            r1: EnReg<$bw>,
            v1: DFF<Bit>,
            l1: DFF<Bit>,
            // --- A: mask, scan steps 0..2
            xa: EnReg<$bw>,
            ma: EnReg<32>,
            ca: EnReg<96>,
            va: DFF<Bit>,
            la: DFF<Bit>,
            // --- B: scan steps 2..4
            xb: EnReg<$bw>,
            mb: EnReg<32>,
            cb: EnReg<160>,
            vb: DFF<Bit>,
            lb: DFF<Bit>,
            // --- C: scan step 4, the zero count
            xc: EnReg<$bw>,
            mc: EnReg<32>,
            zc: EnReg<160>,
            vc: DFF<Bit>,
            lc: DFF<Bit>,
            zeros_c: DFF<Bits<CNT>>,
            // --- D: network stages 0..2
            xd: EnReg<$bw>,
            md: EnReg<32>,
            zd: EnReg<96>,
            vd: EnReg<32>,
            v_d: DFF<Bit>,
            l_d: DFF<Bit>,
            zeros_d: DFF<Bits<CNT>>,
            // --- N: network stages 2..4
            xn: EnReg<$bw>,
            mn: EnReg<32>,
            zn: EnReg<32>,
            vn: EnReg<32>,
            v_n: DFF<Bit>,
            l_n: DFF<Bit>,
            zeros_n: DFF<Bits<CNT>>,
            // --- the offset of the next block in the beat being filled
            off: DFF<Bits<CNT>>,
            // --- E: network stage 4, the encoded block and where it goes
            enc: EnReg<$pw>,
            v_e: DFF<Bit>,
            l_e: DFF<Bit>,
            /// The offset (`< P`, 7 bits).
            off_e: DFF<Bits<7>>,
            tot_e: DFF<Bits<CNT>>,
            rem_e: DFF<Bits<CNT>>,
            emits_e: DFF<Bit>,
            over_e: DFF<Bit>,
            // --- F: the encoded block rotated by bits 0..3 of its offset
            sf: EnReg<$pw>,
            v_f: DFF<Bit>,
            l_f: DFF<Bit>,
            off_f: DFF<Bits<7>>,
            tot_f: DFF<Bits<CNT>>,
            rem_f: DFF<Bits<CNT>>,
            emits_f: DFF<Bit>,
            over_f: DFF<Bit>,
            // --- G: the encoded block rotated into place, the lanes below the offset
            sg: EnReg<$pw>,
            lt_g: EnReg<$p>,
            v_g: DFF<Bit>,
            l_g: DFF<Bit>,
            tot_g: DFF<Bits<CNT>>,
            rem_g: DFF<Bits<CNT>>,
            emits_g: DFF<Bit>,
            over_g: DFF<Bit>,
            // --- packer state: the beat being filled, the owed flush beat
            h: EnReg<$pw>,
            flush: DFF<Bit>,
            fcnt: DFF<Bits<7>>,
            // --- output buffer: two beat slots, written at `wr`, read at `rd`
            b0: EnReg<$pw>,
            b1: EnReg<$pw>,
            c0: DFF<Bits<7>>,
            c1: DFF<Bits<7>>,
            e0: DFF<Bit>,
            e1: DFF<Bit>,
            wr: DFF<Bit>,
            rd: DFF<Bit>,
            /// Beats in the buffer (0..=2); the pipeline stalls while it holds 2.
            cnt: DFF<Bits<2>>,
            // --- enables decided a cycle ahead, so that the wide registers' enables come
            // straight from flip-flops
            /// Stage G's slot makes a beat when the pipeline advances.
            pg: DFF<Bit>,
            /// A beat enters slot 0 / slot 1 this cycle.
            we0: DFF<Bit>,
            we1: DFF<Bit>,
            /// Stage G's slot loads / clears the holding register when the pipeline advances.
            hen_g: DFF<Bit>,
            hclr_g: DFF<Bit>,
            dp: $dp,
            /// Every stage moves on this cycle.
            adv: Signal<Local, Bit>,
            /// A beat enters the buffer this cycle.
            put: Signal<Local, Bit>,
            /// Next `pg`, `cnt`, `wr`.
            pg_n: Signal<Local, Bit>,
            cnt_n: Signal<Local, Bits<2>>,
            wr_n: Signal<Local, Bit>,
            /// Stage G's block is a last block that overflows its beat: the next slot (the
            /// empty one behind it) makes the leftover beat.
            owes_flush: Signal<Local, Bit>,
            /// The beat's valid lanes.
            put_count: Signal<Local, Bits<7>>,
            /// The beat is the tensor's last.
            put_last: Signal<Local, Bit>,
            /// The buffer's head beat leaves this cycle.
            take: Signal<Local, Bit>,
            zero_cnt: Constant<Bits<CNT>>,
            p_count: Constant<Bits<7>>,
            one2: Constant<Bits<2>>,
            zero2: Constant<Bits<2>>,
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    in_data: Default::default(),
                    in_last: Default::default(),
                    in_valid: Default::default(),
                    in_ready: Default::default(),
                    out_data: Default::default(),
                    out_count: Default::default(),
                    out_last: Default::default(),
                    out_valid: Default::default(),
                    out_ready: Default::default(),
                    r1: Default::default(),
                    v1: Default::default(),
                    l1: Default::default(),
                    xa: Default::default(),
                    ma: Default::default(),
                    ca: Default::default(),
                    va: Default::default(),
                    la: Default::default(),
                    xb: Default::default(),
                    mb: Default::default(),
                    cb: Default::default(),
                    vb: Default::default(),
                    lb: Default::default(),
                    xc: Default::default(),
                    mc: Default::default(),
                    zc: Default::default(),
                    vc: Default::default(),
                    lc: Default::default(),
                    zeros_c: Default::default(),
                    xd: Default::default(),
                    md: Default::default(),
                    zd: Default::default(),
                    vd: Default::default(),
                    v_d: Default::default(),
                    l_d: Default::default(),
                    zeros_d: Default::default(),
                    xn: Default::default(),
                    mn: Default::default(),
                    zn: Default::default(),
                    vn: Default::default(),
                    v_n: Default::default(),
                    l_n: Default::default(),
                    zeros_n: Default::default(),
                    off: Default::default(),
                    enc: Default::default(),
                    v_e: Default::default(),
                    l_e: Default::default(),
                    off_e: Default::default(),
                    tot_e: Default::default(),
                    rem_e: Default::default(),
                    emits_e: Default::default(),
                    over_e: Default::default(),
                    sf: Default::default(),
                    v_f: Default::default(),
                    l_f: Default::default(),
                    off_f: Default::default(),
                    tot_f: Default::default(),
                    rem_f: Default::default(),
                    emits_f: Default::default(),
                    over_f: Default::default(),
                    sg: Default::default(),
                    lt_g: Default::default(),
                    v_g: Default::default(),
                    l_g: Default::default(),
                    tot_g: Default::default(),
                    rem_g: Default::default(),
                    emits_g: Default::default(),
                    over_g: Default::default(),
                    h: Default::default(),
                    flush: Default::default(),
                    fcnt: Default::default(),
                    b0: Default::default(),
                    b1: Default::default(),
                    c0: Default::default(),
                    c1: Default::default(),
                    e0: Default::default(),
                    e1: Default::default(),
                    wr: Default::default(),
                    rd: Default::default(),
                    cnt: Default::default(),
                    pg: Default::default(),
                    we0: Default::default(),
                    we1: Default::default(),
                    hen_g: Default::default(),
                    hclr_g: Default::default(),
                    dp: Default::default(),
                    adv: Default::default(),
                    put: Default::default(),
                    pg_n: Default::default(),
                    cnt_n: Default::default(),
                    wr_n: Default::default(),
                    owes_flush: Default::default(),
                    put_count: Default::default(),
                    put_last: Default::default(),
                    take: Default::default(),
                    zero_cnt: Constant::new(0.into()),
                    p_count: Constant::new($p.into()),
                    one2: Constant::new(1.into()),
                    zero2: Constant::new(0.into()),
                }
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, v1, l1, va, la, vb, lb, vc, lc, zeros_c, v_d, l_d, zeros_d,
                    v_n, l_n, zeros_n, off, v_e, l_e, off_e, tot_e, rem_e, emits_e, over_e,
                    v_f, l_f, off_f, tot_f, rem_f, emits_f, over_f, v_g, l_g, tot_g, rem_g,
                    emits_g, over_g, flush, fcnt, c0, c1, e0, e1, wr, rd, cnt, pg, we0, we1,
                    hen_g, hclr_g
                );
                // ---- control: the whole pipeline moves together while the output buffer
                // has a free slot; registers only decide it (no path from `out_ready`).
                self.adv.next = !self.cnt.q.val().get_bit(1);
                // = adv & (stage G's block closes a beat, or the flush slot): see `we0`.
                self.put.next = self.we0.q.val() | self.we1.q.val();
                self.put_count.next = self.fcnt.q.val();
                self.put_last.next = true;
                self.take.next = self.cnt.q.val().any() & self.out_ready.val();
                self.owes_flush.next = self.v_g.q.val()
                    & self.emits_g.q.val()
                    & self.over_g.q.val()
                    & self.l_g.q.val();
                // A last block leaves an empty slot behind it: the packer's flush beat.
                self.in_ready.next = self.adv.val()
                    & !(self.v1.q.val() & self.l1.q.val())
                    & !self.rst.val();
                // ---- wide registers: data wired straight in, 1-bit controls here.
                self.r1.clock.next = self.clock.val();
                self.xa.clock.next = self.clock.val();
                self.ma.clock.next = self.clock.val();
                self.ca.clock.next = self.clock.val();
                self.xb.clock.next = self.clock.val();
                self.mb.clock.next = self.clock.val();
                self.cb.clock.next = self.clock.val();
                self.xc.clock.next = self.clock.val();
                self.mc.clock.next = self.clock.val();
                self.zc.clock.next = self.clock.val();
                self.xd.clock.next = self.clock.val();
                self.md.clock.next = self.clock.val();
                self.zd.clock.next = self.clock.val();
                self.vd.clock.next = self.clock.val();
                self.xn.clock.next = self.clock.val();
                self.mn.clock.next = self.clock.val();
                self.zn.clock.next = self.clock.val();
                self.vn.clock.next = self.clock.val();
                self.enc.clock.next = self.clock.val();
                self.sf.clock.next = self.clock.val();
                self.sg.clock.next = self.clock.val();
                self.lt_g.clock.next = self.clock.val();
                self.h.clock.next = self.clock.val();
                self.b0.clock.next = self.clock.val();
                self.b1.clock.next = self.clock.val();
                self.r1.d.next = self.in_data.val();
                self.xa.d.next = self.r1.q.val();
                self.ma.d.next = self.dp.mask.val();
                self.ca.d.next = self.dp.ca_next.val();
                self.xb.d.next = self.xa.q.val();
                self.mb.d.next = self.ma.q.val();
                self.cb.d.next = self.dp.cb_next.val();
                self.xc.d.next = self.xb.q.val();
                self.mc.d.next = self.mb.q.val();
                self.zc.d.next = self.dp.zc_next.val();
                self.xd.d.next = self.dp.xd_next.val();
                self.md.d.next = self.mc.q.val();
                self.zd.d.next = self.dp.zd_next.val();
                self.vd.d.next = self.dp.vd_next.val();
                self.xn.d.next = self.dp.xn_next.val();
                self.mn.d.next = self.md.q.val();
                self.zn.d.next = self.dp.zn_next.val();
                self.vn.d.next = self.dp.vn_next.val();
                self.enc.d.next = self.dp.enc_next.val();
                self.sf.d.next = self.dp.sf_next.val();
                self.sg.d.next = self.dp.sg_next.val();
                self.lt_g.d.next = self.dp.lt_next.val();
                self.h.d.next = self.dp.h_next.val();
                self.b0.d.next = self.dp.o_next.val();
                self.b1.d.next = self.dp.o_next.val();
                // Loading during reset is harmless: `v1` is cleared.
                self.r1.en.next = self.in_valid.val()
                    & self.adv.val()
                    & !(self.v1.q.val() & self.l1.q.val());
                self.xa.en.next = self.adv.val();
                self.ma.en.next = self.adv.val();
                self.ca.en.next = self.adv.val();
                self.xb.en.next = self.adv.val();
                self.mb.en.next = self.adv.val();
                self.cb.en.next = self.adv.val();
                self.xc.en.next = self.adv.val();
                self.mc.en.next = self.adv.val();
                self.zc.en.next = self.adv.val();
                self.xd.en.next = self.adv.val();
                self.md.en.next = self.adv.val();
                self.zd.en.next = self.adv.val();
                self.vd.en.next = self.adv.val();
                self.xn.en.next = self.adv.val();
                self.mn.en.next = self.adv.val();
                self.zn.en.next = self.adv.val();
                self.vn.en.next = self.adv.val();
                self.enc.en.next = self.adv.val();
                self.sf.en.next = self.adv.val();
                self.sg.en.next = self.adv.val();
                self.lt_g.en.next = self.adv.val();
                self.h.en.next = self.adv.val() & self.hen_g.q.val();
                self.b0.en.next = self.we0.q.val();
                self.b1.en.next = self.we1.q.val();
                self.r1.clr.next = false;
                self.xa.clr.next = false;
                self.ma.clr.next = false;
                self.ca.clr.next = false;
                self.xb.clr.next = false;
                self.mb.clr.next = false;
                self.cb.clr.next = false;
                self.xc.clr.next = false;
                self.mc.clr.next = false;
                self.zc.clr.next = false;
                self.xd.clr.next = false;
                self.md.clr.next = false;
                self.zd.clr.next = false;
                self.vd.clr.next = false;
                self.xn.clr.next = false;
                self.mn.clr.next = false;
                self.zn.clr.next = false;
                self.vn.clr.next = false;
                self.enc.clr.next = false;
                self.sf.clr.next = false;
                self.sg.clr.next = false;
                self.lt_g.clr.next = false;
                self.h.clr.next = (self.adv.val() & self.hclr_g.q.val()) | self.rst.val();
                self.b0.clr.next = false;
                self.b1.clr.next = false;
                // ---- the datapath only sees registers
                self.dp.x1.next = self.r1.q.val();
                self.dp.ca.next = self.ca.q.val();
                self.dp.cb.next = self.cb.q.val();
                self.dp.xc.next = self.xc.q.val();
                self.dp.mc.next = self.mc.q.val();
                self.dp.zc.next = self.zc.q.val();
                self.dp.xd.next = self.xd.q.val();
                self.dp.zd.next = self.zd.q.val();
                self.dp.vd.next = self.vd.q.val();
                self.dp.xn.next = self.xn.q.val();
                self.dp.mn.next = self.mn.q.val();
                self.dp.zn.next = self.zn.q.val();
                self.dp.vn.next = self.vn.q.val();
                self.dp.zeros.next = self.zeros_n.q.val();
                self.dp.last.next = self.l_n.q.val();
                self.dp.off.next = self.off.q.val();
                self.dp.enc.next = self.enc.q.val();
                self.dp.off_e.next = self.off_e.q.val().get_bits::<3>(0);
                self.dp.sf.next = self.sf.q.val();
                self.dp.off_f.next = self.off_f.q.val();
                self.dp.sg.next = self.sg.q.val();
                self.dp.lt_g.next = self.lt_g.q.val();
                self.dp.valid_g.next = self.v_g.q.val();
                self.dp.emits_g.next = self.emits_g.q.val();
                self.dp.h.next = self.h.q.val();
                self.dp.b0.next = self.b0.q.val();
                self.dp.b1.next = self.b1.q.val();
                self.dp.rd.next = self.rd.q.val();
                if self.adv.val() {
                    self.v1.d.next = false;
                    self.va.d.next = self.v1.q.val();
                    self.la.d.next = self.l1.q.val();
                    self.vb.d.next = self.va.q.val();
                    self.lb.d.next = self.la.q.val();
                    self.vc.d.next = self.vb.q.val();
                    self.lc.d.next = self.lb.q.val();
                    self.zeros_c.d.next = self.dp.zeros_next.val();
                    self.v_d.d.next = self.vc.q.val();
                    self.l_d.d.next = self.lc.q.val();
                    self.zeros_d.d.next = self.zeros_c.q.val();
                    self.v_n.d.next = self.v_d.q.val();
                    self.l_n.d.next = self.l_d.q.val();
                    self.zeros_n.d.next = self.zeros_d.q.val();
                    // The offset register follows the blocks leaving N.
                    if self.v_n.q.val() {
                        self.off.d.next = self.dp.off_next.val();
                    }
                    self.v_e.d.next = self.v_n.q.val();
                    self.l_e.d.next = self.l_n.q.val();
                    self.off_e.d.next = self.off.q.val().get_bits::<7>(0);
                    self.tot_e.d.next = self.dp.total.val();
                    self.rem_e.d.next = self.dp.rem.val();
                    self.emits_e.d.next = self.dp.emits.val();
                    self.over_e.d.next = self.dp.over.val();
                    self.v_f.d.next = self.v_e.q.val();
                    self.l_f.d.next = self.l_e.q.val();
                    self.off_f.d.next = self.off_e.q.val();
                    self.tot_f.d.next = self.tot_e.q.val();
                    self.rem_f.d.next = self.rem_e.q.val();
                    self.emits_f.d.next = self.emits_e.q.val();
                    self.over_f.d.next = self.over_e.q.val();
                    self.v_g.d.next = self.v_f.q.val();
                    self.l_g.d.next = self.l_f.q.val();
                    self.tot_g.d.next = self.tot_f.q.val();
                    self.rem_g.d.next = self.rem_f.q.val();
                    self.emits_g.d.next = self.emits_f.q.val();
                    self.over_g.d.next = self.over_f.q.val();
                    // What stage G's next slot will do: a block that stays in the beat loads
                    // `h`, one that closes it exactly clears it, and so does the flush slot
                    // behind an overflowing last block.
                    self.hen_g.d.next = self.v_f.q.val()
                        & (!self.emits_f.q.val() | self.over_f.q.val());
                    self.hclr_g.d.next = (self.v_f.q.val()
                        & self.emits_f.q.val()
                        & !self.over_f.q.val())
                        | self.owes_flush.val();
                    // ---- packer: stage G's block joins the beat being filled
                    if self.v_g.q.val() {
                        if self.emits_g.q.val() {
                            if self.over_g.q.val() {
                                self.put_count.next = self.p_count.val();
                                self.put_last.next = false;
                                self.flush.d.next = self.l_g.q.val();
                                self.fcnt.d.next = self.rem_g.q.val().get_bits::<7>(0);
                            } else {
                                self.put_count.next = self.tot_g.q.val().get_bits::<7>(0);
                                self.put_last.next = self.l_g.q.val();
                            }
                        }
                    } else if self.flush.q.val() {
                        // The slot behind an overflowing last block: its leftover lanes.
                        self.flush.d.next = false;
                    }
                }
                // ---- output buffer
                if self.we1.q.val() {
                    self.c1.d.next = self.put_count.val();
                    self.e1.d.next = self.put_last.val();
                }
                if self.we0.q.val() {
                    self.c0.d.next = self.put_count.val();
                    self.e0.d.next = self.put_last.val();
                }
                if self.take.val() {
                    self.rd.d.next = !self.rd.q.val();
                }
                // Next state of the buffer, and the write enables of the next cycle: a beat
                // is put when the pipeline will advance (buffer not full) and stage G's slot
                // makes one.
                self.cnt_n.next = self.cnt.q.val();
                if self.put.val() & !self.take.val() {
                    self.cnt_n.next = self.cnt.q.val() + self.one2.val();
                }
                if !self.put.val() & self.take.val() {
                    self.cnt_n.next = self.cnt.q.val() - self.one2.val();
                }
                self.wr_n.next = self.wr.q.val() ^ self.put.val();
                self.pg_n.next = self.pg.q.val();
                if self.adv.val() {
                    self.pg_n.next = (self.v_f.q.val() & self.emits_f.q.val())
                        | self.owes_flush.val();
                }
                if self.rst.val() {
                    self.cnt_n.next = self.zero2.val();
                    self.wr_n.next = false;
                    self.pg_n.next = false;
                }
                self.cnt.d.next = self.cnt_n.val();
                self.wr.d.next = self.wr_n.val();
                self.pg.d.next = self.pg_n.val();
                self.we0.d.next =
                    !self.cnt_n.val().get_bit(1) & self.pg_n.val() & !self.wr_n.val();
                self.we1.d.next =
                    !self.cnt_n.val().get_bit(1) & self.pg_n.val() & self.wr_n.val();
                if self.in_valid.val() & self.in_ready.val() {
                    self.v1.d.next = true;
                    self.l1.d.next = self.in_last.val();
                }
                if self.rst.val() {
                    self.v1.d.next = false;
                    self.va.d.next = false;
                    self.vb.d.next = false;
                    self.vc.d.next = false;
                    self.v_d.d.next = false;
                    self.v_n.d.next = false;
                    self.v_e.d.next = false;
                    self.v_f.d.next = false;
                    self.v_g.d.next = false;
                    self.off.d.next = self.zero_cnt.val();
                    self.flush.d.next = false;
                    self.rd.d.next = false;
                    self.hen_g.d.next = false;
                    self.hclr_g.d.next = false;
                }
                self.out_data.next = self.dp.beat.val();
                self.out_count.next = self.c0.q.val();
                self.out_last.next = self.e0.q.val();
                if self.rd.q.val() {
                    self.out_count.next = self.c1.q.val();
                    self.out_last.next = self.e1.q.val();
                }
                self.out_valid.next = self.cnt.q.val().any();
            }
        }
    };
}

pub(crate) use zvc_compressor_top;
