//! The controller's children wiring and word arithmetic, the start of its `update`
//! (`controller_wiring!`): the `update` function of a controller whose registers are set up
//! by `setup` and whose defaults and state machine are `body` (update.rs).

macro_rules! controller_wiring {
    (
        $s:tt, $attr_pound:tt $attr:tt, $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, lgdw: $lgdw:tt,
        dwm32: $dwm32:tt, dwm64: $dwm64:tt,
        setup: { $($setup:tt)* },
        body: { $($body:tt)* }
    ) => {
        impl Logic for $name {
            $attr_pound $attr
            fn update(&mut $s) {
                $($setup)*
                $s.desc.clock.next = $s.clock.val();
                $s.hdr.clock.next = $s.clock.val();
                $s.ws.clock.next = $s.clock.val();
                $s.ckis.clock.next = $s.clock.val();
                $s.ckis.rst.next = $s.rst.val();
                $s.ixs.clock.next = $s.clock.val();
                $s.ixs.rst.next = $s.rst.val();
                $s.mcrc.clock.next = $s.clock.val();
                $s.desc.en.next = false;
                $s.desc.clr.next = false;
                $s.hdr.en.next = false;
                $s.hdr.clr.next = false;
                $s.ws.en.next = false;
                $s.ws.clr.next = false;
                // ---- children wiring (registers in, so the checkers settle per edge)
                $s.chk.desc.next = $s.desc.q.val();
                $s.hchk.clock.next = $s.clock.val();
                $s.hchk.hdr.next = $s.hdr.q.val();
                $s.hchk.src_len.next = $s.chk.src_len.val();
                $s.hchk.dst_cap.next = $s.chk.dst_cap.val();
                $s.hchk.elem_code.next = $s.chk.elem.val();
                $s.hpack.elem.next = $s.chk.elem.val();
                $s.hpack.ty.next = $s.chk.ty.val();
                $s.hpack.zvcx.next = $s.chk.zvcx.val();
                $s.hpack.crc.next = $s.chk.crc.val();
                $s.iwin.crc.next = $s.h_crc.q.val();
                $s.iwin.elem.next = $s.chk.elem.val();
                $s.iwin.zvcx.next = $s.h_zvcx.q.val();
                $s.hpack.chunk_log2.next = $s.cl.q.val();
                $s.hpack.n_chunks.next = $s.n.q.val();
                $s.hpack.ulen.next = $s.chk.src_len.val();
                $s.hpack.plen.next = $s.off.q.val();
                $s.wjoin.lo.next = $s.ws.q.val().get_bits::<$dwm32>(32);
                $s.djoin.lo.next = $s.desc.q.val().get_bits::<DESC_REST>(32);
                $s.djoin.hi.next = $s.ws.q.val().get_bits::<32>(0);
                $s.hjoin.lo.next = $s.hdr.q.val().get_bits::<HDR_REST>(32);
                $s.hjoin.hi.next = $s.ws.q.val().get_bits::<32>(0);
                $s.desc.d.next = $s.djoin.y.val();
                $s.strb.v.next = $s.wv.q.val();
                // Bytes of the payload request being made (SrcReq), widened for pr_addr.
                $s.pext.x.next = $s.req_beats.q.val() << $s.lg_bb.val();
                $s.is_comp.next = $s.chk.op.val() == $s.op_comp.val();
                $s.is_dec.next = $s.chk.op.val() == $s.op_dec.val();
                // The operation's frame carries CRC32C (version 4).
                $s.crc_on.next = $s.chk.crc.val() | ($s.is_dec.val() & $s.hchk.crc.val());
                // ---- word arithmetic
                // The chunk's size, min(rem, 2^cl): rem < 2^cl iff no bit of rem at or above
                // cl; rem less it (rem_next) without waiting for the choice.
                $s.csz.next = $s.one32.val() << $s.cl.q.val();
                $s.csz_mask.next = $s.ones32.val() << $s.cl.q.val();
                $s.rem_small.next = !($s.rem.q.val() & $s.csz_mask.val()).any();
                $s.size.next = $s.csz.val();
                $s.rem_next.next = $s.rem.q.val() - $s.csz.val();
                if $s.rem_small.val() {
                    $s.size.next = $s.rem.q.val();
                    $s.rem_next.next = $s.zero32.val();
                }
                // (room is dst_cap - off, a register.)
                $s.fits.next = !($s.dec_stored_len.val() > $s.room.q.val());
                $s.ccode_r.d.next = $s.chk.code.val();
                $s.hcode_r.d.next = $s.hchk.code.val();
                $s.h_wait.d.next = ($s.state.q.val() == CtlState::HdrCheck) & !$s.h_wait.q.val();
                $s.pay_new_r.d.next = $s.iwin.pay_new.val();
                $s.pay_all_r.d.next = $s.iwin.pay_all.val();
                // Word offset of the descriptor in its beat (1024-bit bus: 0 or 16).
                $s.sa.next = $s.cur.q.val() + $s.status_off.val();
                $s.cw.next = ($s.cur.q.val().get_bits::<LEN_BITS>(0) >> 2) & $s.e_m1_32.val();
                // DECOMPRESS index window: bounds, reads, the entry in ws[31:0] (word w).
                $s.iwin.wbase.next = $s.wbase.q.val();
                $s.iwin.wend.next = $s.wend.q.val();
                $s.wlo_r.d.next = $s.iwin.wlo.val();
                $s.whi_r.d.next = $s.iwin.whi.val();
                $s.fw_r.d.next = $s.iwin.first_word.val();
                $s.bhi_r.d.next = $s.iwin.beat_hi.val();
                $s.blo_r.d.next = $s.iwin.beat_lo_m1.val();
                $s.iwin.n.next = $s.n.q.val();
                $s.iwin.w.next = $s.w.q.val();
                $s.iwin.entry.next = $s.ws.q.val().get_bits::<32>(0);
                $s.iwin.rem.next = $s.arem.q.val();
                $s.iwin.chunk_log2.next = $s.cl.q.val();
                $s.iwin.off.next = $s.off.q.val();
                $s.iwin.left.next = $s.left.q.val();
                $s.iwin.last_w.next = $s.last_w.q.val();
                $s.last_w.d.next = $s.iwin.last_word.val();
                $s.iwin.pr_beats.next = $s.pr_beats.q.val();
                // COMPRESS: whether the index beat being filled has room for an entry.
                $s.idx_room.next = $s.ixs.room.val();
                // A decision taken (Run): its entry goes into the index beat and metadata CRC.
                $s.push_entry.next = ($s.state.q.val() == CtlState::Run)
                    & $s.is_comp.val()
                    & $s.dec_valid.val()
                    & $s.ck_ready.val()
                    & $s.fits.val()
                    & $s.idx_room.val();
                $s.ixs.start.next = $s.state.q.val() == CtlState::Start;
                $s.ixs.meta_addr.next = $s.chk.meta_addr.val();
                $s.ixs.dst_addr.next = $s.chk.dst_addr.val();
                $s.ixs.wide.next = $s.crc_on.val();
                $s.ixs.dec_stored_len.next = $s.dec_stored_len.val();
                $s.ixs.dec_raw.next = $s.dec_raw.val();
                $s.ixs.dec_crc.next = $s.dec_crc.val();
                $s.ixs.fin_crc.next = $s.mcrc.crc.val();
                $s.ixs.every_close.next = $s.chk.zvcx.val()
                    | ($s.crc_on.val()
                        & ($s.cl.q.val() == $s.cl_tiny.val())
                        & ($s.chk.elem.val() == $s.elem_32.val()));
                $s.ixs.dp_idle.next = $s.dp_idle.val();
                // (COMPRESS starts it in Start, the DECOMPRESS metadata pass after HdrCheck.)
                $s.mcrc.init.next = ($s.state.q.val() == CtlState::Start)
                    | ($s.state.q.val() == CtlState::HdrCheck);
                $s.mcrc.push.next = $s.push_entry.val();
                $s.mcrc.entry.next = $s.ixs.entry.val();
                $s.mcrc.hstep.next = $s.state.q.val() == CtlState::MetaHdr;
                $s.mcrc.hdr.next = $s.hdr.q.val();
                $s.mcrc.lstate.next = $s.dp_mp_state.val();
                // DECOMPRESS, version 4: the metadata pass (MetaPass).
                $s.mpass.clock.next = $s.clock.val();
                $s.mpass.go.next = $s.state.q.val() == CtlState::MetaPass;
                $s.mpass.meta_addr.next = $s.chk.meta_addr.val();
                $s.mpass.n.next = $s.n.q.val();
                $s.mpass.rd_req_ready.next = $s.rd_req_ready.val();
                $s.mpass.rd_data.next = $s.rd_data.val();
                $s.mpass.rd_err.next = $s.rd_err.val();
                $s.mpass.rd_valid.next = $s.rd_valid.val();
                $s.mpass.mp_done.next = $s.dp_mp_done.val();
                $s.mcrc.load.next = $s.mpass.load.val();
                $s.mcrc.exp.next = $s.mpass.exp.val();
                $s.dp_mp.next = $s.mpass.mp.val();
                $s.dp_mp_take.next = $s.mpass.mp_take.val();
                $s.dp_mp_first.next = $s.mpass.mp_first.val();
                $s.dp_mp_last.next = $s.mpass.mp_last.val();
                $s.dp_mp_cnt.next = $s.mpass.mp_cnt.val();
                // The word shifted into the write beat (Fill): header, status words or none.
                $s.fill.w.next = $s.w.q.val();
                $s.fill.lim.next = $s.lim.q.val();
                $s.fill.hdr_word.next = $s.hdr.q.val().get_bits::<32>(0);
                $s.fill.smode.next = $s.smode.q.val();
                $s.fill.desc_word.next = $s.cur.q.val().get_bits::<$lge>(2);
                $s.fill.code.next = $s.code.q.val();
                $s.fill.bw.next = $s.bw.q.val();
                $s.wjoin.hi.next = $s.fill.word.val();
                $($body)*
            }
        }
    };
}
