//! The controller's `update`: its register setup, defaults, state machine and outputs, per bus
//! width (`controller_logic!`), inside the children wiring of `controller_wiring!` (wiring.rs).

macro_rules! controller_logic {
    (
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, lgdw: $lgdw:tt,
        dwm32: $dwm32:tt, dwm64: $dwm64:tt
    ) => {
        controller_wiring! {
            self, # [hdl_gen], $name, dw: $dw, bb: $bb, e: $e, lge: $lge, lgdw: $lgdw,
            dwm32: $dwm32, dwm64: $dwm64,
            setup: {
                dff_setup!(
                    self, clock, state, cur, wv, k, w, lim, rmode, smode, got_last, rerr, flast,
                    req_addr, req_beats, code, desc_read, abort_pend, serr, n, cl, dst_len, bw,
                    off, rem, wdone, ck_cnt, busy_r, err_r, err_code_r, err_desc_r, wbase, wend,
                    ir_addr, berr, arem, stopped, stop_at, stop_code, dstart, pr_addr, pr_beats,
                    pay_out, stop_wait, mc_done, h_crc, h_zvcx, h_ty, left, last_w, wlo_r, whi_r, fw_r,
                    bhi_r, blo_r, pay_new_r, pay_all_r, ccode_r, hcode_r, h_wait, room
                );
            },
            body: {
                // ---- defaults
                // DECOMPRESS: entries into the RAM (ReadWords), commands out of it (Run).
                self.ckis.start.next = self.state.q.val() == CtlState::Start;
                self.ckis.w_addr.next = self.iwin.ent.val().get_bits::<IDX_WIN_LOG2>(0);
                self.ckis.w_data.next = self.ws.q.val().get_bits::<32>(0);
                self.ckis.w_word.next = false;
                self.ckis.w_crc.next = false;
                self.ckis.run.next = (self.state.q.val() == CtlState::Run) & self.is_dec.val();
                self.rdh.clock.next = self.clock.val();
                self.rdh.run.next = self.state.q.val() == CtlState::Run;
                self.rdh.dec.next = self.is_dec.val();
                self.rdh.dp_need.next = self.dp_need.val();
                self.rdh.rem.next = self.rem.q.val();
                self.rdh.size.next = self.size.val();
                self.rdh.bad_beat.next = self.rd_valid.val() & self.rd_err.val();
                self.rdh.beat.next = self.rd_valid.val() & self.dp_rd_ready.val();
                self.ckis.ck_cnt.next = self.ck_cnt.q.val();
                self.ckis.wend.next = self.wend.q.val();
                self.ckis.stopped.next = self.stopped.q.val();
                self.ckis.stop_at.next = self.stop_at.q.val();
                self.ckis.n.next = self.n.q.val();
                self.ckis.size.next = self.size.val();
                self.ckis.ck_ready.next = self.ck_ready.val();
                self.rd_req_addr.next = self.req_addr.q.val();
                self.rd_req_beats.next = self.req_beats.q.val();
                self.rd_req_valid.next = false;
                self.rd_ready.next = false;
                self.wr_req_addr.next = self.req_addr.q.val();
                self.wr_req_valid.next = false;
                self.own_valid.next = false;
                self.ix_fin.next = false;
                self.ix_pad.next = false;
                self.ix_send.next = false;
                self.abort_out.next = false;
                self.dp_rd_valid.next = false;
                self.rd_hold.next = false;
                self.dp_start.next = false;
                self.dec_ready.next = false;
                self.ck_valid.next = false;
                self.ck_stored_len.next = self.ckis.stored_len.val();
                self.ck_raw.next = self.ckis.raw.val();
                self.ck_chunk_len.next = self.ckis.chunk_len.val();
                self.ck_last.next = self.ckis.last.val();
                self.ck_crc.next = self.ckis.crc.val();
                self.desc_done.next = false;
                self.irq_done_set.next = false;
                self.irq_error_set.next = false;
                // Every state but these (and the status write-back's) may be aborted.
                self.can_abort.next = true;
                self.wr_sel_dp.next = false;
                self.ws_load.next = false;
                self.hdr_pack.next = false;
                self.hdr_shift.next = false;
                match self.state.q.val() {
                    CtlState::Idle => {
                        self.can_abort.next = false;
                        if self.doorbell.val() & self.enable.val() {
                            self.cur.d.next = self.head.val();
                            self.busy_r.d.next = true;
                            self.err_r.d.next = false;
                            self.abort_pend.d.next = false;
                            self.state.d.next = CtlState::Fetch;
                        }
                    }
                    CtlState::Fetch => {
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
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.rd_req_valid.next = true;
                        if self.rd_req_ready.val() {
                            self.state.d.next = CtlState::ReadWords;
                        }
                    }
                    CtlState::ReadWords => {
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
                                } else if self.iwin.crc_word.val() {
                                    // The CRC of the window's entry before it, if good.
                                    self.ckis.w_crc.next = !(self.w.q.val() < self.wlo_r.q.val())
                                        & !self.stopped.q.val();
                                } else if !(self.w.q.val() < self.wlo_r.q.val())
                                    & !self.stopped.q.val()
                                {
                                    // An entry: beat response, rules 11-13, running sum; good
                                    // ones into the RAM, the first bad one stops the windows.
                                    self.arem.d.next = self.iwin.rem_next.val();
                                    if self.berr.q.val() | self.iwin.bad.val() {
                                        self.stopped.d.next = true;
                                        self.stop_at.d.next = self.iwin.ent.val();
                                        self.stop_code.d.next = self.e_bad_index.val();
                                        if self.berr.q.val() {
                                            self.stop_code.d.next = self.e_read.val();
                                        }
                                    } else {
                                        self.ckis.w_word.next = true;
                                        self.off.d.next = self.off.q.val() + self.iwin.len.val();
                                        self.left.d.next = self.left.q.val() - self.iwin.len.val();
                                    }
                                }
                            }
                            self.ws.en.next = true;
                            self.k.d.next = self.k.q.val() - self.k_one.val();
                            self.w.d.next = self.w.q.val() + self.one32.val();
                        }
                    }
                    CtlState::Check => {
                        self.n.d.next = self.chk.n_chunks.val();
                        self.cl.d.next = self.chk.chunk_log2.val();
                        self.dst_len.d.next = self.chk.src_len.val();
                        if self.is_comp.val() {
                            self.dst_len.d.next = self.zero32.val();
                        }
                        // The header's payload length (empty COMPRESS: packed in Start).
                        self.off.d.next = self.zero32.val();
                        self.room.d.next = self.chk.dst_cap.val();
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
                        if self.ccode_r.q.val() != self.ok.val() {
                            self.code.d.next = self.ccode_r.q.val();
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::HdrCheck => {
                        self.n.d.next = self.hchk.n_chunks.val();
                        self.cl.d.next = self.hchk.chunk_log2.val();
                        self.dst_len.d.next = self.hchk.ulen.val();
                        self.arem.d.next = self.hchk.ulen.val();
                        self.off.d.next = self.zero32.val();
                        self.left.d.next = self.hchk.plen.val();
                        self.h_crc.d.next = self.hchk.crc.val();
                        self.h_zvcx.d.next = self.hchk.zvcx.val();
                        self.h_ty.d.next = self.hchk.ty.val();
                        // The index window by window from entry 0 (its beat: ia_hdr).
                        self.wbase.d.next = self.zero32.val();
                        self.wend.d.next = self.win_ents.val();
                        if self.hchk.n_chunks.val() < self.win_ents.val() {
                            self.wend.d.next = self.hchk.n_chunks.val();
                        }
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
                        // Two cycles: the header's code is registered twice (h_wait).
                        if self.h_wait.q.val() {
                            self.state.d.next = CtlState::IdxWait;
                            if self.hchk.crc.val() {
                                self.state.d.next = CtlState::MetaPass;
                            }
                            if self.hcode_r.q.val() != self.ok.val() {
                                self.code.d.next = self.hcode_r.q.val();
                                self.state.d.next = CtlState::Result;
                            }
                        }
                    }
                    CtlState::MetaPass => {
                        // Version 4: the index through the datapath's CRC unit, before any use.
                        self.rd_req_addr.next = self.mpass.rd_req_addr.val();
                        self.rd_req_beats.next = self.mpass.rd_req_beats.val();
                        self.rd_req_valid.next = self.mpass.rd_req_valid.val();
                        self.rd_ready.next = self.mpass.rd_ready.val();
                        if self.mpass.done.val() {
                            self.state.d.next = CtlState::MetaHdr;
                            if self.mpass.err.val() {
                                self.code.d.next = self.e_read.val();
                                self.state.d.next = CtlState::Result;
                            }
                        }
                    }
                    CtlState::MetaHdr => {
                        // The header's quarters after the index; the CRC written or checked.
                        if self.mcrc.hlast.val() & self.is_comp.val() {
                            self.ix_fin.next = true;
                            self.mc_done.d.next = true;
                            self.state.d.next = CtlState::MetaNext;
                        } else if self.mcrc.hlast.val() {
                            self.state.d.next = CtlState::IdxWait;
                            if !self.mcrc.ok.val() {
                                self.code.d.next = self.e_bad_crc.val();
                                self.state.d.next = CtlState::Result;
                            }
                        }
                    }
                    CtlState::IdxWait => {
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.state.d.next = CtlState::IdxWin;
                    }
                    CtlState::IdxWin => {
                        // Entries [wbase, wend) of the index (iwin, registered); the output
                        // drains meanwhile.
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.rmode.d.next = self.rm_idx.val();
                        self.req_addr.d.next = self.ir_addr.q.val();
                        self.req_beats.d.next = self.bhi_r.q.val() - self.blo_r.q.val();
                        self.lim.d.next = self.whi_r.q.val();
                        self.w.d.next = self.fw_r.q.val();
                        self.k.d.next = self.k_zero.val();
                        self.got_last.d.next = false;
                        self.rerr.d.next = false;
                        self.state.d.next = CtlState::ReadReq;
                        if self.wbase.q.val() == self.n.q.val() {
                            self.state.d.next = CtlState::IdxCheck;
                        }
                    }
                    CtlState::IdxCheck => {
                        // An index error at entry 0 ends it before any write; else the payload.
                        self.wr_sel_dp.next = self.dstart.q.val();
                        self.req_addr.d.next = self.pr_addr.q.val();
                        self.req_beats.d.next = self.pay_new_r.q.val();
                        self.state.d.next = CtlState::Run;
                        if self.pay_new_r.q.val().any() {
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
                        self.ck_cnt.d.next = self.zero32.val();
                        if !self.is_dec.val() {
                            // (DECOMPRESS: the running sum of the index windows.)
                            self.off.d.next = self.zero32.val();
                            self.room.d.next = self.chk.dst_cap.val();
                        }
                        self.dstart.d.next = true;
                        self.stop_wait.d.next = false;
                        self.pay_out.d.next = self.zero32.val();
                        self.rem.d.next = self.dst_len.q.val();
                        if self.is_comp.val() {
                            self.rem.d.next = self.chk.src_len.val();
                        }
                        self.wdone.d.next = false;
                        self.mc_done.d.next = false;
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
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.req_addr.d.next = self.chk.src_addr.val();
                            self.req_beats.d.next = self.chk.src_beats.val();
                            if self.is_dec.val() {
                                // The first window's payload.
                                self.req_addr.d.next = self.pr_addr.q.val();
                                self.req_beats.d.next = self.pay_new_r.q.val();
                            }
                            self.state.d.next = CtlState::Run;
                            if (self.is_dec.val() & self.pay_new_r.q.val().any())
                                | (!self.is_dec.val() & self.chk.src_beats.val().any())
                            {
                                self.state.d.next = CtlState::SrcReq;
                            }
                        }
                    }
                    CtlState::SrcReq => {
                        self.wr_sel_dp.next = true;
                        self.rd_req_valid.next = true;
                        if self.rd_req_ready.val() {
                            // DECOMPRESS: a window's payload (COPY, COMPRESS: the source).
                            self.pr_addr.d.next = self.pr_addr.q.val() + self.pext.y.val();
                            // (Used by DECOMPRESS only, where the request is pay_new_r: the
                            // beats requested are then pay_all_r, and none is outstanding.)
                            self.pr_beats.d.next = self.pay_all_r.q.val();
                            self.pay_out.d.next = self.req_beats.q.val();
                            self.state.d.next = CtlState::Run;
                        }
                    }
                    CtlState::Run => {
                        self.wr_sel_dp.next = true;
                        self.rd_hold.next = (self.is_comp.val() | self.is_dec.val())
                            & (self.rdh.hold.val() | (self.rd_valid.val() & self.rd_err.val()));
                        self.rd_ready.next = self.dp_rd_ready.val() & !self.rd_hold.val();
                        self.dp_rd_valid.next = self.rd_valid.val() & !self.rd_hold.val();
                        if self.is_comp.val() {
                            // Decisions become chunk commands if dst_cap and the index beat fit.
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
                                self.off.d.next = self.off.q.val() + self.dec_stored_len.val();
                                self.room.d.next = self.room.q.val() - self.dec_stored_len.val();
                                self.rem.d.next = self.rem_next.val();
                                self.ck_cnt.d.next = self.ck_cnt.q.val() + self.one32.val();
                            }
                            if self.dec_valid.val() & !self.fits.val() {
                                self.code.d.next = self.e_overflow.val();
                                self.state.d.next = CtlState::Flush;
                            }
                        }
                        if self.is_dec.val() {
                            // Chunk commands from the entry RAM (one read cycle each).
                            self.ck_valid.next = self.ckis.valid.val();
                            if self.rd_valid.val() & self.dp_rd_ready.val() {
                                self.pay_out.d.next = self.pay_out.q.val() - self.one32.val();
                            }
                            // Window's commands out, payload delivered: the next window, or
                            // (an entry failed) the failure once the chunks before it are done.
                            if !self.ckis.busy.val()
                                & self.ckis.at_lim.val()
                                & (self.ck_cnt.q.val() != self.n.q.val())
                                & !self.pay_out.q.val().any()
                            {
                                if !self.stopped.q.val() {
                                    self.wbase.d.next = self.wend.q.val();
                                    self.wend.d.next = self.iwin.wend_next.val();
                                    self.ir_addr.d.next =
                                        self.ir_addr.q.val() + self.win_bytes.val();
                                    if self.crc_on.val() {
                                        self.ir_addr.d.next =
                                            self.ir_addr.q.val() + self.win_bytes2.val();
                                    }
                                    self.state.d.next = CtlState::IdxWait;
                                } else {
                                    // Chunks before the bad entry done, their dp_error settled.
                                    self.stop_wait.d.next = !self.dp_ck_open.val();
                                    if self.stop_wait.q.val() & !self.dp_ck_open.val() {
                                        self.code.d.next = self.stop_code.q.val();
                                        self.state.d.next = CtlState::Flush;
                                    }
                                }
                            }
                            if self.ckis.fetch.val() {
                                self.rem.d.next = self.rem_next.val();
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
                            } else if !self.dp_ck_open.val() {
                                // (DECOMPRESS: every chunk's CRC checked.)
                                self.bw.d.next = self.dst_len.q.val();
                                self.state.d.next = CtlState::Result;
                                if self.dp_crc_err.val() {
                                    self.code.d.next = self.e_bad_crc.val();
                                }
                            }
                        }
                        if (self.rd_valid.val() & self.dp_rd_ready.val() & self.rd_err.val())
                            & !(self.is_comp.val() | self.is_dec.val())
                            | self.rdh.due.val()
                        {
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
                        self.wr_req_valid.next = true;
                        if self.wr_req_ready.val() {
                            self.state.d.next = CtlState::MetaNext;
                        }
                    }
                    CtlState::MetaNext => {
                        // The final stream: the complete index beat waiting, the one in ib
                        // (a partial one padded first), then the header beat, last.
                        if self.ixs.ic_v.val() {
                            self.state.d.next = CtlState::SendIc;
                        } else if !self.idx_room.val() {
                            // (The complete beat moves to ic.)
                        } else if self.crc_on.val() & !self.mc_done.q.val() {
                            self.state.d.next = CtlState::MetaHdr;
                        } else if self.ixs.partial.val() {
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
                        // Shift invalid words into the partial index beat to place its entries.
                        self.ix_pad.next = self.idx_room.val();
                        if !self.idx_room.val() {
                            self.state.d.next = CtlState::MetaNext;
                        }
                    }
                    CtlState::SendIc => {
                        self.ix_send.next = true;
                        if self.wr_ready.val() {
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
                        self.own_valid.next = true;
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
                        self.can_abort.next = false;
                        self.abort_out.next = true;
                        self.rd_ready.next = true;
                        if self.rd_idle.val() & self.wr_idle.val() & self.dp_idle.val() {
                            self.state.d.next = CtlState::Result;
                        }
                    }
                    CtlState::Result => {
                        self.can_abort.next = false;
                        if self.code.q.val() != self.ok.val() {
                            self.bw.d.next = self.zero32.val();
                            self.err_r.d.next = true;
                            self.err_code_r.d.next = self.code.q.val();
                            self.err_desc_r.d.next = self.cur.q.val();
                            self.irq_error_set.next = true;
                        }
                        self.state.d.next = CtlState::End;
                        // A descriptor not read (unaligned, fetch error, abort) counts as visited.
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
                        self.can_abort.next = false;
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
                        self.can_abort.next = false;
                        self.irq_done_set.next = true;
                        self.busy_r.d.next = false;
                        self.abort_pend.d.next = false;
                        self.state.d.next = CtlState::Idle;
                    }
                    _ => {
                        self.can_abort.next = false;
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
                // ---- the index stream (version 4: the metadata CRC last) and the write beats
                self.ixs.push.next = self.push_entry.val() | self.ix_fin.val();
                self.ixs.half.next = self.ix_fin.val();
                self.ixs.pad.next = self.ix_pad.val();
                self.ixs.send_ic.next = self.ix_send.val();
                self.ixs.sel_dp.next = self.wr_sel_dp.val();
                self.ixs.own_valid.next = self.own_valid.val();
                self.ixs.own_data.next = self.ws.q.val();
                self.ixs.own_strb.next = self.strb.y.val();
                self.ixs.own_addr.next = self.req_addr.q.val();
                self.ixs.own_last.next = self.flast.q.val();
                self.ixs.dp_wr_data.next = self.dp_wr_data.val();
                self.ixs.dp_wr_strb.next = self.dp_wr_strb.val();
                self.ixs.dp_wr_last.next = self.dp_wr_last.val();
                self.ixs.dp_wr_valid.next = self.dp_wr_valid.val();
                self.ixs.wr_ready.next = self.wr_ready.val();
                self.dp_wr_ready.next = self.ixs.dp_wr_ready.val();
                self.wr_data.next = self.ixs.wr_data.val();
                self.wr_strb.next = self.ixs.wr_strb.val();
                self.wr_last.next = self.ixs.wr_last.val();
                self.wr_close.next = self.ixs.wr_close.val();
                self.wr_jump.next = self.ixs.wr_jump.val();
                self.wr_jump_addr.next = self.ixs.wr_jump_addr.val();
                self.wr_valid.next = self.ixs.wr_valid.val();
                // ---- outputs
                self.busy.next = self.busy_r.q.val();
                self.error.next = self.err_r.q.val();
                self.err_code.next = self.err_code_r.q.val();
                self.err_desc.next = self.err_desc_r.q.val();
                self.dp_op.next = self.chk.op.val();
                self.dp_elem.next = self.chk.elem.val();
                self.dp_zvcx.next = self.chk.zvcx.val();
                self.dp_ty.next = self.chk.ty.val();
                self.dp_crc.next = self.crc_on.val();
                // DECOMPRESS: the frame's codec and type as registered at the header's check
                // (the datapath starts after the index), not through the header checker's
                // logic, which was the 256-bit engine's critical path into the bus codec.
                if self.is_dec.val() {
                    self.dp_zvcx.next = self.h_zvcx.q.val();
                    self.dp_ty.next = self.h_ty.q.val();
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
                    self.wv.d.next = self.wv_zero.val();
                }
            }
        }
    };
}
