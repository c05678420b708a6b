//! How the memory model serves bursts: accepting AR/AW, presenting and retiring R beats,
//! pairing W beats with their AW, writing memory and queueing B responses.

use super::memory::{AxiMemory, BResp, ReadTxn, WBeat, WriteTxn};
use super::signals::{AddrBeat, Channel, MasterSignals, Resp};
use super::stats::BurstRecord;
use super::violation::ViolationKind;
use super::PAGE_BYTES;

impl AxiMemory {
    pub(super) fn present_r(&mut self) {
        let t = self.reads.front().expect("caller checked");
        let addr = t.addr.wrapping_add(u64::from(t.sent) * self.bb as u64);
        let (id, last, first, log, bad) = (t.id, t.sent + 1 == t.beats, t.sent == 0, t.log, t.bad);
        let resp = if bad {
            Resp::Slverr
        } else {
            self.range_error(addr, false).unwrap_or(Resp::Okay)
        };
        let mut data = std::mem::take(&mut self.out.rdata);
        if resp.is_err() {
            data.fill(0);
        } else {
            self.read_into(addr, &mut data);
        }
        self.out.rdata = data;
        self.out.rid = id;
        self.out.rresp = resp;
        self.out.rlast = last;
        self.out.rvalid = true;
        let rec = &mut self.read_log[log];
        rec.resp = rec.resp.worst(resp);
        if first {
            rec.first_data = Some(self.cycle);
        }
    }

    pub(super) fn take_r(&mut self) {
        self.out.rvalid = false;
        self.stats.r_beats += 1;
        self.stats.bytes_read += self.bb as u64;
        self.handshake(Channel::R);
        let t = self.reads.front_mut().expect("RVALID implies a read");
        t.sent += 1;
        if t.sent == t.beats {
            let log = t.log;
            self.reads.pop_front();
            self.read_log[log].done = Some(self.cycle);
        }
    }

    pub(super) fn take_b(&mut self) {
        self.out.bvalid = false;
        self.stats.b_resps += 1;
        self.handshake(Channel::B);
        let b = self.b_q.pop_front().expect("BVALID implies a response");
        self.write_log[b.log].done = Some(self.cycle);
    }

    /// What an AR or AW handshake starts with: the burst checked against the rules (true if
    /// it broke one), its beat count, a latency drawn from `latency` and its record.
    fn open_burst(
        &mut self,
        ch: Channel,
        a: &AddrBeat,
        latency: (u32, u32),
    ) -> (bool, u32, u32, BurstRecord) {
        let bad = self.check_burst(ch, a);
        let beats = (a.len.min(255) + 1) as u32;
        let lat = self.draw(latency);
        let rec = BurstRecord {
            id: a.id,
            addr: a.addr,
            beats,
            accepted: self.cycle,
            first_data: None,
            done: None,
            resp: Resp::Okay,
        };
        (bad, beats, lat, rec)
    }

    pub(super) fn accept_ar(&mut self, m: &MasterSignals) {
        let a = m.ar();
        let (bad, beats, lat, rec) = self.open_burst(Channel::Ar, &a, self.cfg.read_latency);
        self.read_log.push(rec);
        self.reads.push_back(ReadTxn {
            id: a.id,
            addr: a.addr,
            beats,
            ready_at: self.cycle + 1 + u64::from(lat),
            sent: 0,
            bad,
            log: self.read_log.len() - 1,
        });
        self.stats.ar_bursts += 1;
        self.handshake(Channel::Ar);
    }

    pub(super) fn accept_aw(&mut self, m: &MasterSignals) {
        let a = m.aw();
        let (bad, beats, latency, rec) = self.open_burst(Channel::Aw, &a, self.cfg.write_latency);
        self.write_log.push(rec);
        self.aw_q.push_back(WriteTxn {
            id: a.id,
            addr: a.addr,
            beats,
            latency,
            got: 0,
            bad,
            resp: if bad { Resp::Slverr } else { Resp::Okay },
            extra_reported: false,
            log: self.write_log.len() - 1,
        });
        self.stats.aw_bursts += 1;
        self.handshake(Channel::Aw);
    }

    /// Pairs buffered W beats with AW bursts in order, writes them and queues B responses.
    pub(super) fn match_writes(&mut self) {
        while !self.aw_q.is_empty() && !self.w_buf.is_empty() {
            let mut t = self.aw_q.pop_front().expect("checked");
            let beat = self.w_buf.pop_front().expect("checked");
            let i = t.got;
            t.got += 1;
            let at = |c: u64| format!("W beat accepted at cycle {c}");
            if i >= t.beats {
                // Only after WLAST went missing: the master is still in the burst.
                if !t.extra_reported {
                    t.extra_reported = true;
                    self.violation(
                        Channel::W,
                        ViolationKind::ExtraWBeats,
                        format!(
                            "beat {} of a {}-beat burst (AW {:#x}): more W beats than AWLEN announced ({})",
                            i + 1,
                            t.beats,
                            t.addr,
                            at(beat.cycle)
                        ),
                    );
                }
            } else {
                self.write_beat(&mut t, i, &beat);
                let last_expected = i + 1 == t.beats;
                if beat.last && !last_expected {
                    t.resp = t.resp.worst(Resp::Slverr);
                    self.violation(
                        Channel::W,
                        ViolationKind::WlastEarly,
                        format!(
                            "WLAST on beat {} of a {}-beat burst (AW {:#x}, {})",
                            i + 1,
                            t.beats,
                            t.addr,
                            at(beat.cycle)
                        ),
                    );
                } else if !beat.last && last_expected {
                    t.resp = t.resp.worst(Resp::Slverr);
                    self.violation(
                        Channel::W,
                        ViolationKind::WlastMissing,
                        format!(
                            "WLAST missing on the last beat ({}) of the burst at AW {:#x} ({})",
                            t.beats,
                            t.addr,
                            at(beat.cycle)
                        ),
                    );
                }
            }
            if beat.last {
                // The master's framing ends the burst, whatever AWLEN said.
                let rec = &mut self.write_log[t.log];
                rec.resp = t.resp;
                self.b_q.push_back(BResp {
                    id: t.id,
                    resp: t.resp,
                    ready_at: self.cycle + 1 + u64::from(t.latency),
                    log: t.log,
                });
            } else {
                self.aw_q.push_front(t);
            }
        }
    }

    fn write_beat(&mut self, t: &mut WriteTxn, i: u32, beat: &WBeat) {
        if t.bad {
            return;
        }
        let addr = t.addr + u64::from(i) * self.bb as u64;
        if let Some(e) = self.range_error(addr, true) {
            t.resp = t.resp.worst(e);
            return;
        }
        let bb = self.bb;
        let off = (addr % PAGE_BYTES) as usize;
        // Aligned beats never straddle a page (bb divides 4096).
        let page = self.bytes.page_mut(addr);
        let mut n = 0;
        for (lane, &byte) in beat.data.iter().enumerate().take(bb) {
            if beat.strb >> lane & 1 != 0 {
                page[off + lane] = byte;
                n += 1;
            }
        }
        self.stats.bytes_written += n;
    }

    pub(super) fn count(&mut self, m: &MasterSignals) {
        let s = &self.out;
        let st = &mut self.stats;
        st.cycles += 1;
        st.read_busy_cycles += u64::from(!self.reads.is_empty());
        st.write_busy_cycles +=
            u64::from(!(self.aw_q.is_empty() && self.b_q.is_empty() && self.w_buf.is_empty()));
        st.stalls.ar += u64::from(m.arvalid && !s.arready);
        st.stalls.aw += u64::from(m.awvalid && !s.awready);
        st.stalls.w += u64::from(m.wvalid && !s.wready);
        st.stalls.r += u64::from(s.rvalid && !m.rready);
        st.stalls.b += u64::from(s.bvalid && !m.bready);
    }
}
