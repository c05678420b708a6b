//! The controller's `update`, word engine and state machine, per bus width (`controller_logic!`).

macro_rules! controller_logic {
    (
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, dwm32: $dwm32:tt
    ) => {
        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(
                    self, clock, state, cur, wv, k, w, lim, rmode, smode, got_last, rerr, flast,
                    req_addr, req_beats, code, desc_read, abort_pend, serr, n, cl, dst_len, bw,
                    off, rem, wdone, ck_cnt, ck_v, ck_fetch, ck_len_r, ck_raw_r, ck_size_r,
                    ck_last_r, busy_r, err_r, err_code_r, err_desc_r, ia, ic_v, ic_s, ic_a, ins,
                    pa, pjump, wbase, wend, ir_addr, berr, arem, stopped, stop_at, stop_code,
                    dstart, pr_addr, pr_beats, pay_out, stop_wait
                );
                self.desc.clock.next = self.clock.val();
                self.hdr.clock.next = self.clock.val();
                self.ws.clock.next = self.clock.val();
                self.ic_d.clock.next = self.clock.val();
                self.ic_d.en.next = false;
                self.ic_d.clr.next = false;
                self.ic_d.d.next = self.ib.q.val();
                self.ib.clock.next = self.clock.val();
                self.ib.clr.next = false;
                self.ejoin.lo.next = self.ib.q.val().get_bits::<$dwm32>(32);
                self.ib.d.next = self.ejoin.y.val();
                self.ram.read_clock.next = self.clock.val();
                self.ram.write_clock.next = self.clock.val();
                self.desc.en.next = false;
                self.desc.clr.next = false;
                self.hdr.en.next = false;
                self.hdr.clr.next = false;
                self.ws.en.next = false;
                self.ws.clr.next = false;
                // ---- children wiring (registers in, so the checkers settle per edge)
                self.chk.desc.next = self.desc.q.val();
                self.hchk.hdr.next = self.hdr.q.val();
                self.hchk.src_len.next = self.chk.src_len.val();
                self.hchk.dst_cap.next = self.chk.dst_cap.val();
                self.hchk.elem_code.next = self.chk.elem.val();
                self.hpack.elem.next = self.chk.elem.val();
                self.hpack.ty.next = self.chk.ty.val();
                self.hpack.zvcx.next = self.chk.zvcx.val();
                self.iwin.elem.next = self.chk.elem.val();
                self.iwin.zvcx.next = self.hchk.zvcx.val();
                self.hpack.chunk_log2.next = self.cl.q.val();
                self.hpack.n_chunks.next = self.n.q.val();
                self.hpack.ulen.next = self.chk.src_len.val();
                self.hpack.plen.next = self.off.q.val();
                self.wjoin.lo.next = self.ws.q.val().get_bits::<$dwm32>(32);
                self.djoin.lo.next = self.desc.q.val().get_bits::<DESC_REST>(32);
                self.djoin.hi.next = self.ws.q.val().get_bits::<32>(0);
                self.hjoin.lo.next = self.hdr.q.val().get_bits::<HDR_REST>(32);
                self.hjoin.hi.next = self.ws.q.val().get_bits::<32>(0);
                self.desc.d.next = self.djoin.y.val();
                self.strb.v.next = self.wv.q.val();
                // Bytes of the payload request being made (SrcReq), widened for pr_addr.
                self.pext.x.next = self.req_beats.q.val() << self.lg_bb.val();
                self.is_comp.next = self.chk.op.val() == self.op_comp.val();
                self.is_dec.next = self.chk.op.val() == self.op_dec.val();
                // ---- word arithmetic
                // Index entry of word w, modulo the RAM depth.
                self.ent_idx.next =
                    self.w.q.val().get_bits::<IDX_WIN_LOG2>(0) - self.hdr_words_i.val();
                self.csz.next = self.one32.val() << self.cl.q.val();
                self.size.next = self.csz.val();
                if self.rem.q.val() < self.csz.val() {
                    self.size.next = self.rem.q.val();
                }
                self.room.next = self.chk.dst_cap.val() - self.off.q.val();
                self.fits.next = !(self.dec_stored_len.val() > self.room.val());
                // Word offset of the descriptor in its beat (1024-bit bus: 0 or 16).
                self.sa.next = self.cur.q.val() + self.status_off.val();
                self.cw.next = (self.cur.q.val().get_bits::<LEN_BITS>(0) >> 2) & self.e_m1_32.val();
                // DECOMPRESS index window: bounds, reads, the entry in ws[31:0] (word w).
                self.iwin.wbase.next = self.wbase.q.val();
                self.iwin.n.next = self.n.q.val();
                self.iwin.w.next = self.w.q.val();
                self.iwin.entry.next = self.ws.q.val().get_bits::<32>(0);
                self.iwin.rem.next = self.arem.q.val();
                self.iwin.chunk_log2.next = self.cl.q.val();
                self.iwin.off.next = self.off.q.val();
                self.iwin.plen.next = self.hchk.plen.val();
                self.iwin.pr_beats.next = self.pr_beats.q.val();
                // Chunk commands go up to the window's end, or to the entry that failed.
                self.cmd_lim.next = self.wend.q.val();
                if self.stopped.q.val() {
                    self.cmd_lim.next = self.stop_at.q.val();
                }
                // COMPRESS: the index entry of the decision offered, and whether the index beat
                // being filled (ws) has room for it.
                self.entry.next = self.dec_stored_len.val();
                if self.dec_raw.val() {
                    self.entry.next = self.dec_stored_len.val() | self.raw_mask.val();
                }
                self.idx_room.next = self.k.q.val() < self.k_e.val();
                self.ejoin.hi.next = self.entry.val();
                // A decision taken (Run): its entry is shifted into ib.
                self.push_entry.next = (self.state.q.val() == CtlState::Run)
                    & self.is_comp.val()
                    & self.dec_valid.val()
                    & self.ck_ready.val()
                    & self.fits.val()
                    & self.idx_room.val();
                // The word shifted into the write beat (Fill): header, status words or none.
                self.fill.w.next = self.w.q.val();
                self.fill.lim.next = self.lim.q.val();
                self.fill.hdr_word.next = self.hdr.q.val().get_bits::<32>(0);
                self.fill.smode.next = self.smode.q.val();
                self.fill.desc_word.next = self.cur.q.val().get_bits::<$lge>(2);
                self.fill.code.next = self.code.q.val();
                self.fill.bw.next = self.bw.q.val();
                self.wjoin.hi.next = self.fill.word.val();
                // ---- defaults
                self.ram.read_address.next = self.ck_cnt.q.val().get_bits::<IDX_WIN_LOG2>(0);
                self.ram.write_address.next = self.ent_idx.val();
                self.ram.write_data.next = self.ws.q.val().get_bits::<32>(0);
                self.ram.write_enable.next = false;
                self.rd_req_addr.next = self.req_addr.q.val();
                self.rd_req_beats.next = self.req_beats.q.val();
                self.rd_req_valid.next = false;
                self.rd_ready.next = false;
                self.wr_req_addr.next = self.req_addr.q.val();
                self.wr_req_valid.next = false;
                self.wr_last.next = self.flast.q.val();
                self.wr_valid.next = false;
                self.abort_out.next = false;
                self.dp_rd_valid.next = false;
                self.dp_wr_ready.next = false;
                self.dp_start.next = false;
                self.dec_ready.next = false;
                self.ck_valid.next = false;
                self.ck_stored_len.next = self.ck_len_r.q.val();
                self.ck_raw.next = self.ck_raw_r.q.val();
                self.ck_chunk_len.next = self.ck_size_r.q.val();
                self.ck_last.next = self.ck_last_r.q.val();
                self.desc_done.next = false;
                self.irq_done_set.next = false;
                self.irq_error_set.next = false;
                self.can_abort.next = false;
                self.wr_sel_dp.next = false;
                self.ws_load.next = false;
                self.hdr_pack.next = false;
                self.hdr_shift.next = false;
                self.ic_load.next = false;
                self.ic_sel.next = false;
                self.ib.en.next = false;
                match self.state.q.val() {
                    CtlState::Idle => {
                        if self.doorbell.val() & self.enable.val() {
                            self.cur.d.next = self.head.val();
                            self.busy_r.d.next = true;
                            self.err_r.d.next = false;
                            self.abort_pend.d.next = false;
                            self.state.d.next = CtlState::Fetch;
                        }
                    }
                    CtlState::Fetch => {
                        self.can_abort.next = true;
                        self.dstart.d.next = false;
                        self.desc_read.d.next = false;
                        self.serr.d.next = false;
                        self.code.d.next = self.ok.val();
                        self.rmode.d.next = self.rm_desc.val();
                        self.req_addr.d.next = self.cur.q.val() & self.bb_inv.val();
                        self.req_beats.d.next = self.desc_beats.val();
                        self.lim.d.next = self.cw.val() + self.desc_words.val();
                        self.w.d.next = self.zero32.val();
                        self.k.d.next = self.k_zero.val();
                        self.got_last.d.next = false;
                        self.rerr.d.next = false;
                        self.state.d.next = CtlState::ReadReq;
                        if (self.cur.q.val() & self.desc_mask.val()).any() {
                            self.code.d.next = self.e_unaligned.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::ReadReq => {
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.rd_req_valid.next = true;
                        if self.rd_req_ready.val() {
                            self.state.d.next = CtlState::ReadWords;
                        }
                    }
                    CtlState::ReadWords => {
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = self.dstart.q.val();
                        if self.k.q.val() == self.k_zero.val() {
                            if self.got_last.q.val() {
                                if self.rmode.q.val() == self.rm_desc.val() {
                                    self.state.d.next = CtlState::Check;
                                    self.desc_read.d.next = true;
                                    if self.rerr.q.val() {
                                        self.code.d.next = self.e_read.val();
                                        self.desc_read.d.next = false;
                                        self.state.d.next = CtlState::Result;
                                    }
                                } else if self.rmode.q.val() == self.rm_hdr.val() {
                                    self.state.d.next = CtlState::HdrCheck;
                                    if self.rerr.q.val() {
                                        self.code.d.next = self.e_read.val();
                                        self.state.d.next = CtlState::Result;
                                    }
                                } else {
                                    self.state.d.next = CtlState::IdxCheck;
                                }
                            } else {
                                self.rd_ready.next = true;
                                if self.rd_valid.val() {
                                    self.ws_load.next = true;
                                    self.k.d.next = self.k_e.val();
                                    self.berr.d.next = self.rd_err.val();
                                    self.rerr.d.next = self.rerr.q.val() | self.rd_err.val();
                                    self.got_last.d.next = self.rd_last.val();
                                }
                            }
                        } else {
                            // One word of the beat: ws[31:0] is word w of the request.
                            if self.w.q.val() < self.lim.q.val() {
                                if self.rmode.q.val() == self.rm_desc.val() {
                                    self.desc.en.next = true;
                                } else if self.rmode.q.val() == self.rm_hdr.val() {
                                    self.hdr.en.next = true;
                                } else if !(self.w.q.val() < self.iwin.wlo.val())
                                    & !self.stopped.q.val()
                                {
                                    // Entry w - 8 of the window: its beat's response, rules
                                    // 11-13, the running sum; a good one goes into the RAM,
                                    // the first bad one stops the windows.
                                    self.arem.d.next = self.arem.q.val() - self.iwin.size.val();
                                    if self.berr.q.val() | self.iwin.bad.val() {
                                        self.stopped.d.next = true;
                                        self.stop_at.d.next = self.w.q.val() - self.hdr_words.val();
                                        self.stop_code.d.next = self.e_bad_index.val();
                                        if self.berr.q.val() {
                                            self.stop_code.d.next = self.e_read.val();
                                        }
                                    } else {
                                        self.ram.write_enable.next = true;
                                        self.off.d.next = self.off.q.val() + self.iwin.len.val();
                                    }
                                }
                            }
                            self.ws.en.next = true;
                            self.k.d.next = self.k.q.val() - self.k_one.val();
                            self.w.d.next = self.w.q.val() + self.one32.val();
                        }
                    }
                    CtlState::Check => {
                        self.can_abort.next = true;
                        self.n.d.next = self.chk.n_chunks.val();
                        self.cl.d.next = self.chk.chunk_log2.val();
                        self.dst_len.d.next = self.chk.src_len.val();
                        if self.is_comp.val() {
                            self.dst_len.d.next = self.zero32.val();
                        }
                        // The header's payload length (empty COMPRESS: packed in Start).
                        self.off.d.next = self.zero32.val();
                        self.state.d.next = CtlState::Start;
                        if self.is_dec.val() {
                            self.rmode.d.next = self.rm_hdr.val();
                            self.req_addr.d.next = self.chk.meta_addr.val();
                            self.req_beats.d.next = self.hdr_beats.val();
                            self.lim.d.next = self.hdr_words.val();
                            self.w.d.next = self.zero32.val();
                            self.k.d.next = self.k_zero.val();
                            self.got_last.d.next = false;
                            self.rerr.d.next = false;
                            self.state.d.next = CtlState::ReadReq;
                        }
                        if self.chk.code.val() != self.ok.val() {
                            self.code.d.next = self.chk.code.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::HdrCheck => {
                        self.can_abort.next = true;
                        self.n.d.next = self.hchk.n_chunks.val();
                        self.cl.d.next = self.hchk.chunk_log2.val();
                        self.dst_len.d.next = self.hchk.ulen.val();
                        self.arem.d.next = self.hchk.ulen.val();
                        self.off.d.next = self.zero32.val();
                        // The index window by window from entry 0 (its beat: ia_hdr).
                        self.wbase.d.next = self.zero32.val();
                        self.ir_addr.d.next = self.chk.meta_addr.val() + self.ia_hdr.val();
                        self.pr_addr.d.next = self.chk.src_addr.val();
                        self.pr_beats.d.next = self.zero32.val();
                        self.dstart.d.next = false;
                        self.stopped.d.next = false;
                        self.stop_at.d.next = self.zero32.val();
                        self.stop_code.d.next = self.e_bad_index.val();
                        // No entries: the sum (0) must still be payload_len.
                        if !self.hchk.n_chunks.val().any() & self.hchk.plen.val().any() {
                            self.stopped.d.next = true;
                        }
                        self.state.d.next = CtlState::IdxWin;
                        if self.hchk.code.val() != self.ok.val() {
                            self.code.d.next = self.hchk.code.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::IdxWin => {
                        // Read entries [wbase, wend) of the index (iwin); the output drains
                        // meanwhile (wr_sel_dp here, in ReadReq and ReadWords).
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.wend.d.next = self.iwin.wend.val();
                        self.rmode.d.next = self.rm_idx.val();
                        self.req_addr.d.next = self.ir_addr.q.val();
                        self.req_beats.d.next = self.iwin.beats.val();
                        self.lim.d.next = self.iwin.whi.val();
                        self.w.d.next = self.iwin.first_word.val();
                        self.k.d.next = self.k_zero.val();
                        self.got_last.d.next = false;
                        self.rerr.d.next = false;
                        self.state.d.next = CtlState::ReadReq;
                        if self.wbase.q.val() == self.n.q.val() {
                            self.state.d.next = CtlState::IdxCheck;
                        }
                    }
                    CtlState::IdxCheck => {
                        // An index error at entry 0 ends the descriptor before anything is
                        // written; else the window's payload and commands.
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.req_addr.d.next = self.pr_addr.q.val();
                        self.req_beats.d.next = self.iwin.pay_new.val();
                        self.state.d.next = CtlState::Run;
                        if self.iwin.pay_new.val().any() {
                            self.state.d.next = CtlState::SrcReq;
                        }
                        if !self.dstart.q.val() {
                            self.state.d.next = CtlState::Start;
                        }
                        if self.stopped.q.val() & !self.stop_at.q.val().any() {
                            self.code.d.next = self.stop_code.q.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::Start => {
                        self.can_abort.next = true;
                        self.ck_cnt.d.next = self.zero32.val();
                        if !self.is_dec.val() {
                            // (DECOMPRESS: the running sum of the index windows.)
                            self.off.d.next = self.zero32.val();
                        }
                        self.dstart.d.next = true;
                        self.stop_wait.d.next = false;
                        self.pay_out.d.next = self.zero32.val();
                        self.rem.d.next = self.dst_len.q.val();
                        if self.is_comp.val() {
                            self.rem.d.next = self.chk.src_len.val();
                        }
                        self.ck_v.d.next = false;
                        self.ck_fetch.d.next = false;
                        self.wdone.d.next = false;
                        // COMPRESS: the first index beat holds entry 0 at word 8 of the meta
                        // region; nothing waits for insertion; the payload starts at dst_addr.
                        self.ia.d.next = self.chk.meta_addr.val() + self.ia_hdr.val();
                        self.k.d.next = self.k_hdr.val();
                        self.wv.d.next = self.wv_zero.val();
                        self.ic_v.d.next = false;
                        self.ins.d.next = false;
                        self.pa.d.next = self.chk.dst_addr.val();
                        self.pjump.d.next = false;
                        if self.is_comp.val() & !self.chk.src_len.val().any() {
                            // Nothing to compress: the frame is the header alone.
                            self.hdr_pack.next = true;
                            self.smode.d.next = false;
                            self.req_addr.d.next = self.chk.meta_addr.val();
                            self.state.d.next = CtlState::MetaReq;
                        } else if !self.is_comp.val() & !self.dst_len.q.val().any() {
                            // Nothing to write (COPY of 0 bytes, empty frame).
                            self.bw.d.next = self.zero32.val();
                            self.state.d.next = CtlState::Result;
                        } else {
                            self.dp_start.next = true;
                            self.req_addr.d.next = self.chk.dst_addr.val();
                            self.state.d.next = CtlState::DstReq;
                        }
                    }
                    CtlState::DstReq => {
                        self.can_abort.next = true;
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.req_addr.d.next = self.chk.src_addr.val();
                            self.req_beats.d.next = self.chk.src_beats.val();
                            if self.is_dec.val() {
                                // The first window's payload.
                                self.req_addr.d.next = self.pr_addr.q.val();
                                self.req_beats.d.next = self.iwin.pay_new.val();
                            }
                            self.state.d.next = CtlState::Run;
                            if (self.is_dec.val() & self.iwin.pay_new.val().any())
                                | (!self.is_dec.val() & self.chk.src_beats.val().any())
                            {
                                self.state.d.next = CtlState::SrcReq;
                            }
                        }
                    }
                    CtlState::SrcReq => {
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = true;
                        self.rd_req_valid.next = true;
                        if self.rd_req_ready.val() {
                            // DECOMPRESS: a window's payload (COPY, COMPRESS: the source).
                            self.pr_addr.d.next = self.pr_addr.q.val() + self.pext.y.val();
                            self.pr_beats.d.next = self.pr_beats.q.val() + self.req_beats.q.val();
                            self.pay_out.d.next = self.pay_out.q.val() + self.req_beats.q.val();
                            self.state.d.next = CtlState::Run;
                        }
                    }
                    CtlState::Run => {
                        self.can_abort.next = true;
                        self.wr_sel_dp.next = true;
                        self.rd_ready.next = self.dp_rd_ready.val();
                        self.dp_rd_valid.next = self.rd_valid.val();
                        if self.is_comp.val() {
                            // Decisions pass through as chunk commands if they fit dst_cap and
                            // the index beat has room for their entry (shifted into ws).
                            self.ck_stored_len.next = self.dec_stored_len.val();
                            self.ck_raw.next = self.dec_raw.val();
                            self.ck_chunk_len.next = self.size.val();
                            self.ck_last.next =
                                (self.ck_cnt.q.val() + self.one32.val()) == self.n.q.val();
                            self.ck_valid.next =
                                self.dec_valid.val() & self.fits.val() & self.idx_room.val();
                            self.dec_ready.next =
                                self.ck_ready.val() & self.fits.val() & self.idx_room.val();
                            if self.push_entry.val() {
                                self.ib.en.next = true;
                                self.wv.d.next = (self.wv.q.val() >> 1) | self.wv_top.val();
                                self.k.d.next = self.k.q.val() + self.k_one.val();
                                self.off.d.next = self.off.q.val() + self.dec_stored_len.val();
                                self.rem.d.next = self.rem.q.val() - self.size.val();
                                self.ck_cnt.d.next = self.ck_cnt.q.val() + self.one32.val();
                            }
                            // A complete index beat waits for insertion (ic), freeing ib.
                            if !self.idx_room.val() & !self.ic_v.q.val() {
                                self.ic_load.next = true;
                            }
                            if self.dec_valid.val() & !self.fits.val() {
                                self.code.d.next = self.e_overflow.val();
                                self.state.d.next = CtlState::Flush;
                            }
                        }
                        if self.is_dec.val() {
                            // Chunk commands from the entry RAM (one read cycle each).
                            self.ck_valid.next = self.ck_v.q.val();
                            if self.ck_v.q.val() & self.ck_ready.val() {
                                self.ck_v.d.next = false;
                            }
                            if !self.ck_v.q.val()
                                & !self.ck_fetch.q.val()
                                & (self.ck_cnt.q.val() < self.cmd_lim.val())
                            {
                                self.ck_fetch.d.next = true;
                            }
                            if self.rd_valid.val() & self.dp_rd_ready.val() {
                                self.pay_out.d.next = self.pay_out.q.val() - self.one32.val();
                            }
                            // The window's commands issued and its payload delivered: the next
                            // window, or (an entry failed) the failure once the chunks before
                            // it are written.
                            if !self.ck_v.q.val()
                                & !self.ck_fetch.q.val()
                                & (self.ck_cnt.q.val() == self.cmd_lim.val())
                                & (self.ck_cnt.q.val() != self.n.q.val())
                                & !self.pay_out.q.val().any()
                            {
                                if !self.stopped.q.val() {
                                    self.wbase.d.next = self.wend.q.val();
                                    self.ir_addr.d.next =
                                        self.ir_addr.q.val() + self.win_bytes.val();
                                    self.state.d.next = CtlState::IdxWin;
                                } else {
                                    // The chunks before the failing entry finished, and a
                                    // cycle later their errors (dp_error) are settled.
                                    self.stop_wait.d.next = !self.dp_ck_open.val();
                                    if self.stop_wait.q.val() & !self.dp_ck_open.val() {
                                        self.code.d.next = self.stop_code.q.val();
                                        self.state.d.next = CtlState::Flush;
                                    }
                                }
                            }
                            if self.ck_fetch.q.val() {
                                self.ck_fetch.d.next = false;
                                self.ck_v.d.next = true;
                                self.ck_len_r.d.next =
                                    self.ram.read_data.val() & self.size_mask.val();
                                self.ck_raw_r.d.next =
                                    (self.ram.read_data.val() & self.raw_mask.val()).any();
                                self.ck_size_r.d.next = self.size.val();
                                self.ck_last_r.d.next =
                                    (self.ck_cnt.q.val() + self.one32.val()) == self.n.q.val();
                                self.rem.d.next = self.rem.q.val() - self.size.val();
                                self.ck_cnt.d.next = self.ck_cnt.q.val() + self.one32.val();
                            }
                        }
                        if self.wr_done.val() {
                            self.wdone.d.next = true;
                        }
                        if self.wdone.q.val() {
                            if self.is_comp.val() {
                                if self.ck_cnt.q.val() == self.n.q.val() {
                                    // The rest of the index, then the header, last.
                                    self.hdr_pack.next = true;
                                    self.smode.d.next = false;
                                    self.req_addr.d.next = self.chk.meta_addr.val();
                                    self.state.d.next = CtlState::MetaReq;
                                }
                            } else {
                                self.bw.d.next = self.dst_len.q.val();
                                self.state.d.next = CtlState::Result;
                            }
                        }
                        if self.rd_valid.val() & self.dp_rd_ready.val() & self.rd_err.val() {
                            self.code.d.next = self.e_read.val();
                            self.state.d.next = CtlState::Flush;
                        }
                        if self.dp_error.val() {
                            self.code.d.next = self.e_bad_payload.val();
                            self.state.d.next = CtlState::Flush;
                        }
                        if self.wr_done.val() & self.wr_err.val() {
                            self.code.d.next = self.e_write.val();
                            self.state.d.next = CtlState::Flush;
                        }
                    }
                    CtlState::MetaReq => {
                        self.can_abort.next = true;
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.state.d.next = CtlState::MetaNext;
                        }
                    }
                    CtlState::MetaNext => {
                        // The final stream's next beat: the complete index beat waiting, the
                        // one in ib once complete (a partial one padded first), then the
                        // header beat, last.
                        self.can_abort.next = true;
                        if self.ic_v.q.val() {
                            self.state.d.next = CtlState::SendIc;
                        } else if !self.idx_room.val() {
                            self.ic_load.next = true;
                        } else if self.wv.q.val().any() {
                            self.state.d.next = CtlState::IdxPad;
                        } else {
                            self.req_addr.d.next = self.chk.meta_addr.val();
                            self.w.d.next = self.zero32.val();
                            self.k.d.next = self.k_zero.val();
                            self.lim.d.next = self.hdr_words.val();
                            self.state.d.next = CtlState::Fill;
                        }
                    }
                    CtlState::IdxPad => {
                        // Shift invalid words into the partial index beat until its entries
                        // sit in their words.
                        self.can_abort.next = true;
                        self.ib.en.next = true;
                        self.wv.d.next = self.wv.q.val() >> 1;
                        self.k.d.next = self.k.q.val() + self.k_one.val();
                        if self.k.q.val() == self.k_e_m1.val() {
                            self.state.d.next = CtlState::MetaNext;
                        }
                    }
                    CtlState::SendIc => {
                        self.can_abort.next = true;
                        self.ic_sel.next = true;
                        self.wr_valid.next = true;
                        self.wr_last.next = false;
                        if self.wr_ready.val() {
                            self.ic_v.d.next = false;
                            self.state.d.next = CtlState::MetaNext;
                        }
                    }
                    CtlState::FillReq => {
                        self.can_abort.next = !self.smode.q.val();
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.state.d.next = CtlState::Fill;
                        }
                    }
                    CtlState::Fill => {
                        self.can_abort.next = !self.smode.q.val();
                        self.ws.en.next = true;
                        self.wv.d.next = self.wv.q.val() >> 1;
                        if self.fill.wvalid.val() {
                            self.wv.d.next = (self.wv.q.val() >> 1) | self.wv_top.val();
                        }
                        if !self.smode.q.val() & (self.w.q.val() < self.hdr_words.val()) {
                            self.hdr_shift.next = true;
                        }
                        self.k.d.next = self.k.q.val() + self.k_one.val();
                        self.w.d.next = self.w.q.val() + self.one32.val();
                        if self.k.q.val() == self.k_e_m1.val() {
                            self.flast.d.next = self.smode.q.val()
                                | !((self.w.q.val() + self.one32.val()) < self.lim.q.val());
                            self.state.d.next = CtlState::Send;
                        }
                    }
                    CtlState::Send => {
                        self.can_abort.next = !self.smode.q.val();
                        self.wr_valid.next = true;
                        if self.wr_ready.val() {
                            self.k.d.next = self.k_zero.val();
                            self.req_addr.d.next = self.req_addr.q.val() + self.bb_addr.val();
                            self.state.d.next = CtlState::Fill;
                            if self.flast.q.val() {
                                self.state.d.next = CtlState::WaitDone;
                            }
                        }
                    }
                    CtlState::WaitDone => {
                        self.can_abort.next = !self.smode.q.val();
                        if self.wr_done.val() {
                            if self.smode.q.val() {
                                self.serr.d.next = self.wr_err.val();
                                self.state.d.next = CtlState::Done;
                            } else {
                                self.bw.d.next = self.off.q.val();
                                if self.wr_err.val() {
                                    self.code.d.next = self.e_write.val();
                                }
                                self.state.d.next = CtlState::Result;
                            }
                        }
                    }
                    CtlState::Flush => {
                        self.abort_out.next = true;
                        self.rd_ready.next = true;
                        if self.rd_idle.val() & self.wr_idle.val() & self.dp_idle.val() {
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::Result => {
                        if self.code.q.val() != self.ok.val() {
                            self.bw.d.next = self.zero32.val();
                            self.err_r.d.next = true;
                            self.err_code_r.d.next = self.code.q.val();
                            self.err_desc_r.d.next = self.cur.q.val();
                            self.irq_error_set.next = true;
                        }
                        self.state.d.next = CtlState::End;
                        // A descriptor that was not read (unaligned, fetch error, abort during
                        // its fetch) ends here; it counts as visited (docs/DESCRIPTORS.md).
                        self.desc_done.next = !self.desc_read.q.val();
                        if self.desc_read.q.val() {
                            // Status write-back: one beat, the 8 bytes at desc + 0x30.
                            self.smode.d.next = true;
                            self.req_addr.d.next = self.sa.val() & self.bb_inv.val();
                            self.w.d.next = self.zero32.val();
                            self.k.d.next = self.k_zero.val();
                            self.state.d.next = CtlState::FillReq;
                        }
                    }
                    CtlState::Done => {
                        self.desc_done.next = true;
                        self.irq_done_set.next = self.chk.irq.val();
                        self.cur.d.next = self.chk.next_desc.val();
                        self.state.d.next = CtlState::Fetch;
                        if self.abort_pend.q.val()
                            | self.serr.q.val()
                            | ((self.code.q.val() != self.ok.val()) & self.chk.stop.val())
                            | !self.chk.next_desc.val().any()
                        {
                            self.state.d.next = CtlState::End;
                        }
                        if self.serr.q.val() {
                            self.err_r.d.next = true;
                            self.err_code_r.d.next = self.e_write.val();
                            self.err_desc_r.d.next = self.cur.q.val();
                            self.irq_error_set.next = true;
                        }
                    }
                    CtlState::End => {
                        self.irq_done_set.next = true;
                        self.busy_r.d.next = false;
                        self.abort_pend.d.next = false;
                        self.state.d.next = CtlState::Idle;
                    }
                    _ => {
                        self.state.d.next = CtlState::Idle;
                    }
                }
                // ---- abort: from any abortable state to Flush, code ABORTED
                if self.abort.val() & self.busy_r.q.val() {
                    self.abort_pend.d.next = true;
                }
                if (self.abort.val() | self.abort_pend.q.val()) & self.can_abort.val() {
                    self.code.d.next = self.e_aborted.val();
                    self.abort_pend.d.next = true;
                    self.state.d.next = CtlState::Flush;
                }
                // ---- a complete index beat (COMPRESS) moves from ws to ic, ws starts the next
                if self.ic_load.val() {
                    self.ic_v.d.next = true;
                    self.ic_d.en.next = true;
                    self.ic_s.d.next = self.strb.y.val();
                    self.ic_a.d.next = self.ia.q.val();
                    self.ia.d.next = self.ia.q.val() + self.bb_addr.val();
                    self.k.d.next = self.k_zero.val();
                    self.wv.d.next = self.wv_zero.val();
                }
                // ---- wide registers
                self.ws.d.next = self.wjoin.y.val();
                if self.ws_load.val() {
                    self.ws.d.next = self.rd_data.val();
                    self.ws.en.next = true;
                }
                self.hdr.d.next = self.hjoin.y.val();
                if self.hdr_shift.val() {
                    self.hdr.d.next = self.hdr.q.val() >> 32;
                    self.hdr.en.next = true;
                }
                if self.hdr_pack.val() {
                    self.hdr.d.next = self.hpack.y.val();
                    self.hdr.en.next = true;
                }
                // ---- write beat source: own beats (ws, ic) each a burst at their address;
                // payload beats follow each other (after an inserted index beat: jump to pa).
                self.wr_data.next = self.ws.q.val();
                self.wr_strb.next = self.strb.y.val();
                self.wr_close.next = true;
                self.wr_jump.next = true;
                self.wr_jump_addr.next = self.req_addr.q.val();
                if self.wr_sel_dp.val() & self.ins.q.val() {
                    // The index beat inserted after the payload beat that closed its burst.
                    self.ic_sel.next = true;
                    self.wr_valid.next = true;
                    self.wr_last.next = false;
                    if self.wr_ready.val() {
                        self.ins.d.next = false;
                        self.ic_v.d.next = false;
                        self.pjump.d.next = true;
                    }
                } else if self.wr_sel_dp.val() {
                    self.wr_data.next = self.dp_wr_data.val();
                    self.wr_strb.next = self.dp_wr_strb.val();
                    self.wr_last.next = self.dp_wr_last.val();
                    self.wr_valid.next = self.dp_wr_valid.val();
                    self.dp_wr_ready.next = self.wr_ready.val();
                    self.wr_jump.next = self.pjump.q.val();
                    self.wr_jump_addr.next = self.pa.q.val();
                    // A complete index beat goes in after this beat, which closes its burst.
                    // ZVC-X chunks can store a byte each, so the index can fill with no payload
                    // beat to come: every payload beat closes, and a waiting index beat goes in
                    // whenever none is offered.
                    self.wr_close.next = self.ic_v.q.val() | self.chk.zvcx.val();
                    if self.dp_wr_valid.val() & self.wr_ready.val() {
                        self.pa.d.next = self.pa.q.val() + self.bb_addr.val();
                        self.pjump.d.next = false;
                        if self.ic_v.q.val() & !self.dp_wr_last.val() {
                            self.ins.d.next = true;
                        }
                    } else if self.chk.zvcx.val() & self.ic_v.q.val() & !self.dp_idle.val() {
                        self.ins.d.next = true;
                    }
                }
                if self.ic_sel.val() {
                    self.wr_data.next = self.ic_d.q.val();
                    self.wr_strb.next = self.ic_s.q.val();
                    self.wr_jump_addr.next = self.ic_a.q.val();
                }
                // ---- outputs
                self.busy.next = self.busy_r.q.val();
                self.error.next = self.err_r.q.val();
                self.err_code.next = self.err_code_r.q.val();
                self.err_desc.next = self.err_desc_r.q.val();
                self.dp_op.next = self.chk.op.val();
                self.dp_elem.next = self.chk.elem.val();
                self.dp_zvcx.next = self.chk.zvcx.val();
                self.dp_ty.next = self.chk.ty.val();
                if self.is_dec.val() {
                    self.dp_zvcx.next = self.hchk.zvcx.val();
                    self.dp_ty.next = self.hchk.ty.val();
                }
                self.dp_src_len.next = self.chk.src_len.val();
                self.dp_dst_len.next = self.dst_len.q.val();
                self.dp_chunk_log2.next = self.cl.q.val();
                self.dp_n_chunks.next = self.n.q.val();
                if self.rst.val() {
                    self.state.d.next = CtlState::Idle;
                    self.busy_r.d.next = false;
                    self.err_r.d.next = false;
                    self.err_code_r.d.next = self.ok.val();
                    self.err_desc_r.d.next = self.zero_addr.val();
                    self.abort_pend.d.next = false;
                    self.ck_v.d.next = false;
                    self.ck_fetch.d.next = false;
                    self.wv.d.next = self.wv_zero.val();
                }
            }
        }
    };
}
