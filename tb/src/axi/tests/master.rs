//! A small AXI4 master in Rust that the model's unit tests drive it with, and the helpers that
//! make random writes and keep a shadow of memory.

use crate::axi::{AxiMemory, MasterSignals, Resp, SlaveSignals};
use crate::error::TbError;
use crate::watchdog::Watchdog;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
struct ReadReq {
    id: u64,
    addr: u64,
    beats: u32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct ReadDone {
    id: u64,
    pub(super) addr: u64,
    pub(super) beats: u32,
    pub(super) data: Vec<u8>,
    pub(super) resps: Vec<Resp>,
    pub(super) ar_cycle: u64,
    pub(super) first_r: u64,
    pub(super) last_r: u64,
    /// Idle cycles between beats of this burst.
    pub(super) gaps: u64,
}

#[derive(Clone, Debug)]
pub(super) struct WriteReq {
    pub(super) id: u64,
    pub(super) addr: u64,
    pub(super) data: Vec<u8>,
    pub(super) strb: Vec<u128>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct WriteDone {
    id: u64,
    pub(super) resp: Resp,
    pub(super) aw_cycle: u64,
    pub(super) b_cycle: u64,
}

/// A small AXI4 master for the unit tests: issues queued reads and writes with optional
/// random valid delays and ready drops, checks RID/BID/RLAST, records timing.
pub(super) struct TestMaster {
    bb: usize,
    rng: ChaCha8Rng,
    pub(super) p_valid: f64,
    pub(super) p_ready: f64,
    pub(super) max_reads: usize,
    pub(super) max_writes: usize,
    /// Offer each AW only after its W beats were all accepted (W before AW).
    pub(super) aw_after_w: bool,
    cycle: u64,
    out: MasterSignals,
    ar_todo: VecDeque<ReadReq>,
    r_wait: VecDeque<ReadDone>,
    pub(super) reads: Vec<ReadDone>,
    aw_todo: VecDeque<(u64, u64, u32)>,
    w_todo: VecDeque<(Vec<u8>, u128, bool)>,
    aw_sent: usize,
    pub(super) w_last_cycles: Vec<u64>,
    b_wait: VecDeque<WriteDone>,
    pub(super) writes: Vec<WriteDone>,
    pub(super) max_reads_seen: usize,
    /// valid && !ready cycles seen on AR, AW, W.
    pub(super) waits: [u64; 3],
}

impl TestMaster {
    pub(super) fn new(bb: usize, seed: u64) -> Self {
        TestMaster {
            bb,
            rng: ChaCha8Rng::seed_from_u64(seed),
            p_valid: 0.0,
            p_ready: 0.0,
            max_reads: 4,
            max_writes: 4,
            aw_after_w: false,
            cycle: 0,
            out: MasterSignals {
                wdata: vec![0; bb],
                ..Default::default()
            },
            ar_todo: VecDeque::new(),
            r_wait: VecDeque::new(),
            reads: Vec::new(),
            aw_todo: VecDeque::new(),
            w_todo: VecDeque::new(),
            aw_sent: 0,
            w_last_cycles: Vec::new(),
            b_wait: VecDeque::new(),
            writes: Vec::new(),
            max_reads_seen: 0,
            waits: [0; 3],
        }
    }

    pub(super) fn read(&mut self, id: u64, addr: u64, beats: u32) {
        self.ar_todo.push_back(ReadReq { id, addr, beats });
    }

    pub(super) fn write(&mut self, w: &WriteReq) {
        let beats = w.strb.len();
        assert_eq!(w.data.len(), beats * self.bb);
        self.aw_todo.push_back((w.id, w.addr, beats as u32));
        for (i, (d, &s)) in w.data.chunks(self.bb).zip(&w.strb).enumerate() {
            self.w_todo.push_back((d.to_vec(), s, i + 1 == beats));
        }
    }

    fn flip(&mut self, p: f64) -> bool {
        p > 0.0 && self.rng.gen_bool(p)
    }

    pub(super) fn outputs(&mut self) -> MasterSignals {
        let size = u64::from(self.bb.trailing_zeros());
        let go = !self.flip(self.p_valid);
        if !self.out.arvalid && go && self.r_wait.len() < self.max_reads {
            if let Some(r) = self.ar_todo.front() {
                let o = &mut self.out;
                (o.arid, o.araddr, o.arlen) = (r.id, r.addr, u64::from(r.beats - 1));
                (o.arsize, o.arburst, o.arvalid) = (size, 1, true);
            }
        }
        let go = !self.flip(self.p_valid);
        let w_ok = !self.aw_after_w || self.w_last_cycles.len() > self.aw_sent;
        if !self.out.awvalid && go && w_ok && self.b_wait.len() < self.max_writes {
            if let Some(&(id, addr, beats)) = self.aw_todo.front() {
                let o = &mut self.out;
                (o.awid, o.awaddr, o.awlen) = (id, addr, u64::from(beats - 1));
                (o.awsize, o.awburst, o.awvalid) = (size, 1, true);
            }
        }
        let go = !self.flip(self.p_valid);
        if !self.out.wvalid && go {
            if let Some((d, s, l)) = self.w_todo.front() {
                self.out.wdata.clone_from(d);
                (self.out.wstrb, self.out.wlast, self.out.wvalid) = (*s, *l, true);
            }
        }
        self.out.rready = !self.flip(self.p_ready);
        self.out.bready = !self.flip(self.p_ready);
        self.out.clone()
    }

    pub(super) fn update(&mut self, s: &SlaveSignals) {
        let c = self.cycle;
        let m = self.out.clone();
        self.waits[0] += u64::from(m.arvalid && !s.arready);
        self.waits[1] += u64::from(m.awvalid && !s.awready);
        self.waits[2] += u64::from(m.wvalid && !s.wready);
        if m.arvalid && s.arready {
            let r = self.ar_todo.pop_front().expect("offered");
            self.r_wait.push_back(ReadDone {
                id: r.id,
                addr: r.addr,
                beats: r.beats,
                ar_cycle: c,
                ..Default::default()
            });
            self.out.arvalid = false;
        }
        if m.awvalid && s.awready {
            let (id, _, _) = self.aw_todo.pop_front().expect("offered");
            self.b_wait.push_back(WriteDone {
                id,
                aw_cycle: c,
                ..Default::default()
            });
            self.aw_sent += 1;
            self.out.awvalid = false;
        }
        if m.wvalid && s.wready {
            let (_, _, last) = self.w_todo.pop_front().expect("offered");
            if last {
                self.w_last_cycles.push(c);
            }
            self.out.wvalid = false;
        }
        if s.rvalid && m.rready {
            let rd = self
                .r_wait
                .front_mut()
                .expect("R beat with no read outstanding");
            assert_eq!(s.rid, rd.id, "RID of the read at {:#x}", rd.addr);
            if rd.resps.is_empty() {
                rd.first_r = c;
            } else {
                rd.gaps += c - rd.last_r - 1;
            }
            rd.last_r = c;
            rd.data.extend_from_slice(&s.rdata);
            rd.resps.push(s.rresp);
            let done = rd.resps.len() == rd.beats as usize;
            assert_eq!(
                s.rlast,
                done,
                "RLAST on beat {} of {}",
                rd.resps.len(),
                rd.beats
            );
            if done {
                let rd = self.r_wait.pop_front().expect("front exists");
                self.reads.push(rd);
            }
        }
        if s.bvalid && m.bready {
            let mut w = self
                .b_wait
                .pop_front()
                .expect("B with no write outstanding");
            assert_eq!(s.bid, w.id, "BID");
            (w.resp, w.b_cycle) = (s.bresp, c);
            self.writes.push(w);
        }
        self.max_reads_seen = self.max_reads_seen.max(self.r_wait.len());
        self.cycle += 1;
    }

    pub(super) fn done(&self) -> bool {
        self.ar_todo.is_empty()
            && self.aw_todo.is_empty()
            && self.w_todo.is_empty()
            && self.r_wait.is_empty()
            && self.b_wait.is_empty()
    }
}

/// Runs until the master has nothing left, then checks the model is idle.
pub(super) fn run(mem: &mut AxiMemory, m: &mut TestMaster, limit: u64) -> Result<u64, TbError> {
    let mut wd = Watchdog::new(limit);
    while !m.done() {
        wd.tick(|| mem.pending())?;
        let s = mem.drive().clone();
        let ms = m.outputs();
        mem.sample(&ms)?;
        m.update(&s);
    }
    mem.check_idle()?;
    Ok(wd.cycles())
}

pub(super) fn bytes(rng: &mut ChaCha8Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.gen()).collect()
}

/// A random write of `beats` beats at `addr`; strobes mix full, empty and random beats.
pub(super) fn random_write(
    rng: &mut ChaCha8Rng,
    bb: usize,
    id: u64,
    addr: u64,
    beats: usize,
) -> WriteReq {
    let all = if bb == 128 {
        u128::MAX
    } else {
        (1u128 << bb) - 1
    };
    let strb = (0..beats)
        .map(|_| match rng.gen_range(0..4) {
            0 => 0,
            1 => rng.gen::<u128>() & all,
            _ => all,
        })
        .collect();
    WriteReq {
        id,
        addr,
        data: bytes(rng, beats * bb),
        strb,
    }
}

/// Applies a write to a shadow of memory starting at `base`.
pub(super) fn apply(shadow: &mut [u8], base: u64, w: &WriteReq, bb: usize) {
    for (i, &s) in w.strb.iter().enumerate() {
        for lane in 0..bb {
            if s >> lane & 1 != 0 {
                let a = (w.addr - base) as usize + i * bb + lane;
                shadow[a] = w.data[i * bb + lane];
            }
        }
    }
}
