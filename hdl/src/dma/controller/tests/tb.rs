//! The testbench: the controller plus Rust models of the read master, the write master and
//! the datapath, with a byte memory behind the masters; generic over the bus width.
use super::bus::{Inputs, Outputs};
use super::*;
use crate::testutil::settle;
use std::collections::VecDeque;

/// Testbench: the controller plus the models.
pub(super) struct Tb<U: Ctl> {
    uut: Box<U>,
    /// The inputs driven next cycle.
    pub(super) inp: Inputs,
    pub(super) mem: Vec<u8>,
    pub(super) cycles: u64,
    // read master
    pub(super) rd_q: VecDeque<(u64, u64)>,
    pub(super) rd_stall: bool,
    /// Every read request: (address, beats).
    pub(super) rd_reqs: Vec<(u64, u64)>,
    // write master
    pub(super) wr_open: Option<u64>,
    pub(super) wr_werr: bool,
    pub(super) wr_done_in: Option<(u32, bool)>,
    /// The last beat closed its burst (or none was sent yet): the next one may jump.
    pub(super) wr_closed: bool,
    /// Every write beat: (beat address, byte strobes).
    pub(super) wr_strobes: Vec<(u64, u128)>,
    // datapath
    pub(super) dp_active: bool,
    pub(super) dp_op: u64,
    pub(super) dp_src_left: u64,
    pub(super) dp_in: Vec<u8>,
    pub(super) dp_out: VecDeque<u8>,
    /// COMPRESS: payload bytes the datapath model has made so far (byte `i` is `0xC0 ^ i`).
    pub(super) dp_made: u64,
    pub(super) dp_out_ready: bool,
    pub(super) dp_error_now: bool,
    pub(super) decisions: VecDeque<(u64, bool)>,
    pub(super) cmds: Vec<Cmd>,
    // observed
    pub(super) desc_done: u32,
    pub(super) irq_done: u32,
    pub(super) irq_error: u32,
    pub(super) dp_starts: u32,
    pub(super) abort_cycles: u32,
    pub(super) ever_busy: bool,
    /// Cycles [`Tb::run`] allows a chain.
    pub(super) cycle_limit: u64,
}

impl<U: Ctl> Tb<U> {
    /// The controller of an engine running every element width, in its testbench.
    pub(super) fn new() -> Self {
        Self::with_elem_mask(crate::dma::check::ELEM_MASK_ALL)
    }

    /// The controller running the element widths of `elem_mask`, in its testbench.
    pub(super) fn with_elem_mask(elem_mask: u8) -> Self {
        let mut uut = Box::new(U::with_elem_mask(elem_mask));
        uut.connect_all();
        let mem = (0..MEM).map(|i| (i * 13 + 7) as u8).collect();
        let mut tb = Tb {
            uut,
            inp: Inputs::default(),
            mem,
            cycles: 0,
            rd_q: VecDeque::new(),
            rd_stall: false,
            rd_reqs: vec![],
            wr_open: None,
            wr_werr: false,
            wr_done_in: None,
            wr_closed: true,
            wr_strobes: vec![],
            dp_active: false,
            dp_op: 0,
            dp_src_left: 0,
            dp_in: vec![],
            dp_out: VecDeque::new(),
            dp_made: 0,
            dp_out_ready: false,
            dp_error_now: false,
            decisions: VecDeque::new(),
            cmds: vec![],
            desc_done: 0,
            irq_done: 0,
            irq_error: 0,
            dp_starts: 0,
            abort_cycles: 0,
            ever_busy: false,
            cycle_limit: 3000,
        };
        tb.inp.rst = true;
        tb.drive();
        settle(&mut *tb.uut);
        tb.uut.cycle();
        tb.uut.cycle();
        tb.inp.rst = false;
        tb
    }

    pub(super) fn put(&mut self, addr: u64, bytes: &[u8]) {
        self.mem[addr as usize..addr as usize + bytes.len()].copy_from_slice(bytes);
    }

    pub(super) fn get(&self, addr: u64, len: usize) -> &[u8] {
        &self.mem[addr as usize..addr as usize + len]
    }

    pub(super) fn status(&self, d: u64) -> (bool, u64, u64) {
        let b = self.get(d, 64);
        let st = STATUS_FIELD.get(b);
        (
            STATUS_DONE.get(st) == 1,
            STATUS_ERROR.get(st),
            BYTES_WRITTEN_FIELD.get(b),
        )
    }

    /// The outputs as they are now (settled).
    pub(super) fn out(&self) -> Outputs {
        self.uut.sample()
    }

    /// Drives every input from the models' state (before settling).
    fn drive(&mut self) {
        let bb = U::BB;
        let u = &mut self.inp;
        u.enable = true;
        u.rd_req_ready = true;
        let front = self.rd_q.front().copied();
        u.rd_valid = front.is_some() && !self.rd_stall;
        if let Some((addr, left)) = front {
            u.rd_data = (0..bb)
                .map(|i| self.mem[(addr + i) as usize % MEM])
                .collect();
            u.rd_last = left == 1;
            u.rd_err = (RD_ERR_AT..RD_ERR_END).contains(&addr);
        }
        u.rd_idle = self.rd_q.is_empty();
        u.wr_req_ready = self.wr_open.is_none() && self.wr_done_in.is_none();
        u.wr_ready = self.wr_open.is_some();
        u.wr_done = matches!(self.wr_done_in, Some((0, _)));
        u.wr_err = matches!(self.wr_done_in, Some((0, true)));
        u.wr_idle = self.wr_open.is_none() && self.wr_done_in.is_none();
        // datapath
        u.dp_rd_ready = self.dp_active;
        u.dp_idle = !self.dp_active;
        u.dp_error = self.dp_error_now && self.dp_active;
        // A chunk is open while its output has not all left.
        u.dp_ck_open = self.dp_active && self.dp_op == OP_DECOMPRESS && !self.dp_out.is_empty();
        let n_out = self.dp_out.len().min(bb as usize);
        // COMPRESS, DECOMPRESS: whole beats leave as soon as the decisions / commands have made
        // them (more bytes follow), the rest once every decision / command is in.
        let beat_ready = match self.dp_op {
            OP_COMPRESS => self.dp_out.len() > bb as usize,
            OP_DECOMPRESS => self.dp_out.len() >= bb as usize,
            _ => false,
        };
        u.dp_wr_valid = self.dp_active && (self.dp_out_ready || beat_ready) && n_out > 0;
        u.dp_wr_data = self.dp_out.iter().take(n_out).copied().collect();
        u.dp_wr_bytes = n_out;
        u.dp_wr_last = self.dp_out_ready && self.dp_out.len() <= bb as usize;
        let dec = self.decisions.front().copied();
        u.dec_valid = self.dp_active && self.dp_op == OP_COMPRESS && dec.is_some();
        if let Some((len, raw)) = dec {
            u.dec_stored_len = len;
            u.dec_raw = raw;
        }
        u.ck_ready = self.dp_active;
        self.uut.apply(&self.inp);
    }

    /// One clock cycle: drive, settle, observe handshakes, update the models, clock.
    pub(super) fn step(&mut self) {
        let bb = U::BB;
        self.drive();
        settle(&mut *self.uut);
        let u = self.uut.sample();
        self.ever_busy |= u.busy;
        self.desc_done += u32::from(u.desc_done);
        self.irq_done += u32::from(u.irq_done_set);
        self.irq_error += u32::from(u.irq_error_set);
        let abort = u.abort_out;
        self.abort_cycles += u32::from(abort);
        if u.dp_start {
            self.dp_starts += 1;
            self.dp_active = true;
            self.dp_op = u.dp_op;
            self.dp_src_left = u.dp_src_len;
            self.dp_in.clear();
            self.dp_out.clear();
            self.dp_made = 0;
            self.dp_out_ready = false;
            self.cmds.clear();
        }
        let dp_dst_len = u.dp_dst_len;
        let dp_n = u.dp_n_chunks;
        // read master
        let rd_fire = self.inp.rd_valid && u.rd_ready;
        let to_dp = u.dp_rd_valid && self.inp.dp_rd_ready;
        assert!(
            !to_dp || rd_fire,
            "datapath took a beat the master did not send"
        );
        if rd_fire {
            let (addr, left) = self.rd_q.pop_front().unwrap();
            if to_dp {
                let take = self.dp_src_left.min(bb);
                let b = self.get(addr, take as usize).to_vec();
                self.dp_in.extend_from_slice(&b);
                self.dp_src_left -= take;
            }
            if left > 1 {
                self.rd_q.push_front((addr + bb, left - 1));
            }
        }
        if u.rd_req_valid && self.inp.rd_req_ready {
            let addr = u.rd_req_addr;
            let beats = u.rd_req_beats;
            assert_eq!(addr % bb, 0, "unaligned read request");
            assert!(beats > 0, "empty read request");
            self.rd_q.push_back((addr, beats));
            self.rd_reqs.push((addr, beats));
        }
        // chunk commands / decisions
        if u.ck_valid && self.inp.ck_ready && self.dp_op == OP_DECOMPRESS {
            // The chunk's output: byte i of the data is (3·i) mod 256.
            let start = self.dp_made;
            self.dp_out
                .extend((0..u.ck_chunk_len).map(|i| ((start + i) * 3) as u8));
            self.dp_made += u.ck_chunk_len;
        }
        if u.ck_valid && self.inp.ck_ready {
            self.cmds.push(Cmd {
                stored: u.ck_stored_len,
                raw: u.ck_raw,
                chunk_len: u.ck_chunk_len,
                last: u.ck_last,
            });
        }
        if self.inp.dec_valid && u.dec_ready {
            assert!(u.ck_valid && self.inp.ck_ready, "decision not forwarded");
            let (len, _) = self.decisions.pop_front().unwrap();
            let start = self.dp_made;
            self.dp_out
                .extend((0..len).map(|i| (0xC0 ^ (start + i)) as u8));
            self.dp_made += len;
        }
        // write master
        let wr_fire = u.wr_valid && self.inp.wr_ready;
        let dp_wr_fire = self.inp.dp_wr_valid && u.dp_wr_ready;
        if wr_fire {
            let mut addr = self.wr_open.expect("beat without a stream");
            if u.wr_jump {
                assert!(self.wr_closed, "jump while a burst is being filled");
                addr = u.wr_jump_addr;
                assert_eq!(addr % bb, 0, "unaligned jump");
            }
            self.wr_closed = u.wr_close || u.wr_last;
            for (i, b) in u.wr_data.iter().enumerate() {
                if u.wr_strb >> i & 1 == 1 {
                    self.mem[addr as usize + i] = *b;
                }
            }
            self.wr_strobes.push((addr, u.wr_strb));
            self.wr_werr |= (WR_ERR_AT..RD_ERR_AT).contains(&addr);
            self.wr_open = Some(addr + bb);
            if u.wr_last {
                self.wr_open = None;
                self.wr_done_in = Some((3, self.wr_werr));
            }
        }
        if dp_wr_fire {
            assert!(wr_fire, "datapath beat not passed to the write master");
            let n = self.dp_out.len().min(bb as usize);
            self.dp_out.drain(..n);
        }
        if u.wr_req_valid && self.inp.wr_req_ready {
            let addr = u.wr_req_addr;
            assert_eq!(addr % bb, 0, "unaligned write request");
            self.wr_open = Some(addr);
            self.wr_closed = true;
            self.wr_werr = false;
        }
        self.wr_done_in = match self.wr_done_in {
            Some((0, _)) => None,
            Some((k, e)) => Some((k - 1, e)),
            None => None,
        };
        // datapath output generation
        if self.dp_active && self.dp_src_left == 0 && !self.dp_out_ready {
            match self.dp_op {
                OP_COPY => {
                    self.dp_out = self.dp_in.iter().copied().collect();
                    self.dp_out_ready = true;
                }
                OP_DECOMPRESS if self.cmds.len() as u64 == dp_n => {
                    assert_eq!(self.dp_made, dp_dst_len, "chunk lengths");
                    self.dp_out_ready = true;
                }
                OP_COMPRESS if self.decisions.is_empty() => self.dp_out_ready = true,
                _ => {}
            }
        }
        if self.dp_out_ready && self.dp_out.is_empty() {
            self.dp_active = false;
        }
        if abort {
            self.rd_q.clear();
            self.wr_open = None;
            self.dp_active = false;
        }
        self.uut.cycle();
        self.cycles += 1;
    }

    /// Rings the doorbell at `head` and runs until the chain ends.
    pub(super) fn run(&mut self, head: u64) {
        self.inp.head = head;
        self.inp.doorbell = true;
        self.step();
        self.inp.doorbell = false;
        let limit = self.cycles + self.cycle_limit;
        loop {
            self.step();
            if self.ever_busy && !self.out().busy {
                break;
            }
            assert!(
                self.cycles < limit,
                "chain did not end within {} cycles",
                self.cycle_limit
            );
        }
        assert!(self.ever_busy, "doorbell did not start the chain");
    }

    pub(super) fn err_code(&self) -> u64 {
        self.out().err_code
    }
}
