//! The controller at DW = 256 against Rust models of the read master, the write master
//! and the datapath, with a byte memory behind the masters.
use super::*;
use crate::testutil::{clock_cycle, from_bus, settle, to_bus};
use cdma_spec::desc::*;
use cdma_spec::frame::{self as fr, HEADER_LEN};
use std::collections::VecDeque;

const BB: u64 = 32;
const MEM: usize = 0x10000;
/// Reads at or above this address return SLVERR.
const RD_ERR_AT: u64 = 0xF000;
/// Writes at or above this address get an error B response.
const WR_ERR_AT: u64 = 0xE000;
const D0: u64 = 0x1000;
const D1: u64 = 0x1040;
const SRC: u64 = 0x2000;
const DST: u64 = 0x4000;
const META: u64 = 0x6000;

/// One descriptor, laid out with the spec's fields.
#[derive(Clone, Copy)]
struct Desc {
    op: u64,
    elem: u64,
    irq: bool,
    stop: bool,
    cl: u64,
    src_len: u64,
    src: u64,
    dst: u64,
    cap: u64,
    meta: u64,
    next: u64,
    rsvd_ctl: u64,
    res0: u64,
}

fn copy(len: u64) -> Desc {
    Desc {
        op: OP_COPY,
        elem: 0,
        irq: false,
        stop: true,
        cl: 0,
        src_len: len,
        src: SRC,
        dst: DST,
        cap: 0x1000,
        meta: META,
        next: 0,
        rsvd_ctl: 0,
        res0: 0,
    }
}

impl Desc {
    fn bytes(&self) -> [u8; 64] {
        let mut d = [0u8; 64];
        let mut ctl = CTRL_OP.set(0, self.op);
        ctl = CTRL_ELEM.set(ctl, self.elem);
        ctl = CTRL_IRQ.set(ctl, u64::from(self.irq));
        ctl = CTRL_STOP_ON_ERROR.set(ctl, u64::from(self.stop));
        ctl = CTRL_CHUNK_LOG2.set(ctl, self.cl) | self.rsvd_ctl;
        CONTROL_FIELD.put(&mut d, ctl);
        SRC_LEN_FIELD.put(&mut d, self.src_len);
        SRC_ADDR_FIELD.put(&mut d, self.src);
        DST_ADDR_FIELD.put(&mut d, self.dst);
        DST_CAP_FIELD.put(&mut d, self.cap);
        RESERVED0_FIELD.put(&mut d, self.res0);
        META_ADDR_FIELD.put(&mut d, self.meta);
        NEXT_FIELD.put(&mut d, self.next);
        // The engine must overwrite these (and only these) 8 bytes.
        STATUS_FIELD.put(&mut d, 0xDEAD_BEEF);
        BYTES_WRITTEN_FIELD.put(&mut d, 0xFEED_F00D);
        d
    }
}

/// A frame header as the memory holds it.
struct Hdr {
    magic: [u8; 4],
    version: u64,
    codec: u64,
    elem: u64,
    cl: u64,
    n: u64,
    reserved: u64,
    ulen: u64,
    plen: u64,
}

fn hdr(ulen: u64, cl: u64, entries: &[(u64, bool)]) -> Hdr {
    Hdr {
        magic: fr::MAGIC,
        version: u64::from(fr::VERSION),
        codec: u64::from(fr::CODEC_ZVC),
        elem: 8,
        cl,
        n: entries.len() as u64,
        reserved: 0,
        ulen,
        plen: entries.iter().map(|e| e.0).sum(),
    }
}

impl Hdr {
    fn bytes(&self, entries: &[(u64, bool)]) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_LEN];
        h[..4].copy_from_slice(&self.magic);
        fr::VERSION_FIELD.put(&mut h, self.version);
        fr::CODEC_FIELD.put(&mut h, self.codec);
        fr::ELEM_BITS_FIELD.put(&mut h, self.elem);
        fr::CHUNK_LOG2_FIELD.put(&mut h, self.cl);
        fr::N_CHUNKS_FIELD.put(&mut h, self.n);
        fr::RESERVED_FIELD.put(&mut h, self.reserved);
        fr::UNCOMPRESSED_LEN_FIELD.put(&mut h, self.ulen);
        fr::PAYLOAD_LEN_FIELD.put(&mut h, self.plen);
        for (len, raw) in entries {
            let e = fr::INDEX_RAW.set(fr::INDEX_SIZE.set(0, *len), u64::from(*raw));
            h.extend_from_slice(&(e as u32).to_le_bytes());
        }
        h
    }
}

/// A chunk command the datapath model received.
#[derive(Debug, PartialEq, Clone, Copy)]
struct Cmd {
    stored: u64,
    raw: bool,
    chunk_len: u64,
    last: bool,
}

/// Testbench: the controller plus the models.
struct Tb {
    uut: Box<ControllerDw256>,
    mem: Vec<u8>,
    cycles: u64,
    // read master
    rd_q: VecDeque<(u64, u64)>,
    rd_stall: bool,
    // write master
    wr_open: Option<u64>,
    wr_werr: bool,
    wr_done_in: Option<(u32, bool)>,
    wr_strobes: Vec<(u64, u32)>,
    // datapath
    dp_active: bool,
    dp_op: u64,
    dp_src_left: u64,
    dp_in: Vec<u8>,
    dp_out: VecDeque<u8>,
    dp_out_ready: bool,
    dp_error_now: bool,
    decisions: VecDeque<(u64, bool)>,
    cmds: Vec<Cmd>,
    // observed
    desc_done: u32,
    irq_done: u32,
    irq_error: u32,
    dp_starts: u32,
    abort_cycles: u32,
    ever_busy: bool,
}

impl Tb {
    fn new() -> Self {
        let mut uut = Box::<ControllerDw256>::default();
        uut.connect_all();
        let mem = (0..MEM).map(|i| (i * 13 + 7) as u8).collect();
        let mut tb = Tb {
            uut,
            mem,
            cycles: 0,
            rd_q: VecDeque::new(),
            rd_stall: false,
            wr_open: None,
            wr_werr: false,
            wr_done_in: None,
            wr_strobes: vec![],
            dp_active: false,
            dp_op: 0,
            dp_src_left: 0,
            dp_in: vec![],
            dp_out: VecDeque::new(),
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
        };
        tb.uut.rst.next = true;
        tb.drive();
        settle(&mut *tb.uut);
        clock_cycle!(&mut *tb.uut);
        clock_cycle!(&mut *tb.uut);
        tb.uut.rst.next = false;
        tb
    }

    fn put(&mut self, addr: u64, bytes: &[u8]) {
        self.mem[addr as usize..addr as usize + bytes.len()].copy_from_slice(bytes);
    }

    fn get(&self, addr: u64, len: usize) -> &[u8] {
        &self.mem[addr as usize..addr as usize + len]
    }

    fn status(&self, d: u64) -> (bool, u64, u64) {
        let b = self.get(d, 64);
        let st = STATUS_FIELD.get(b);
        (
            STATUS_DONE.get(st) == 1,
            STATUS_ERROR.get(st),
            BYTES_WRITTEN_FIELD.get(b),
        )
    }

    /// Drives every input from the models' state (before settling).
    fn drive(&mut self) {
        let u = &mut self.uut;
        u.enable.next = true;
        u.rd_req_ready.next = true;
        let front = self.rd_q.front().copied();
        u.rd_valid.next = front.is_some() && !self.rd_stall;
        if let Some((addr, left)) = front {
            u.rd_data.next = {
                let lanes: Vec<u64> = (0..BB)
                    .map(|i| u64::from(self.mem[(addr + i) as usize % MEM]))
                    .collect();
                to_bus::<256>(&lanes, 8)
            };
            u.rd_last.next = left == 1;
            u.rd_err.next = addr >= RD_ERR_AT;
        }
        u.rd_idle.next = self.rd_q.is_empty();
        u.wr_req_ready.next = self.wr_open.is_none() && self.wr_done_in.is_none();
        u.wr_ready.next = self.wr_open.is_some();
        u.wr_done.next = matches!(self.wr_done_in, Some((0, _)));
        u.wr_err.next = matches!(self.wr_done_in, Some((0, true)));
        u.wr_idle.next = self.wr_open.is_none() && self.wr_done_in.is_none();
        // datapath
        u.dp_rd_ready.next = self.dp_active;
        u.dp_idle.next = !self.dp_active;
        u.dp_error.next = self.dp_error_now && self.dp_active;
        let n_out = self.dp_out.len().min(BB as usize);
        u.dp_wr_valid.next = self.dp_active && self.dp_out_ready && n_out > 0;
        let lanes: Vec<u64> = (0..BB as usize)
            .map(|i| {
                self.dp_out
                    .get(i)
                    .filter(|_| i < n_out)
                    .map_or(0, |b| u64::from(*b))
            })
            .collect();
        u.dp_wr_data.next = to_bus::<256>(&lanes, 8);
        u.dp_wr_strb.next = ((1u64 << n_out) - 1).into();
        u.dp_wr_last.next = self.dp_out.len() <= BB as usize;
        let dec = self.decisions.front().copied();
        u.dec_valid.next = self.dp_active && self.dp_op == OP_COMPRESS && dec.is_some();
        if let Some((len, raw)) = dec {
            u.dec_stored_len.next = len.into();
            u.dec_raw.next = raw;
        }
        u.ck_ready.next = self.dp_active;
    }

    /// One clock cycle: drive, settle, observe handshakes, update the models, clock.
    fn step(&mut self) {
        self.drive();
        settle(&mut *self.uut);
        let u = &self.uut;
        let busy = u.busy.val();
        self.ever_busy |= busy;
        self.desc_done += u32::from(u.desc_done.val());
        self.irq_done += u32::from(u.irq_done_set.val());
        self.irq_error += u32::from(u.irq_error_set.val());
        let abort = u.abort_out.val();
        self.abort_cycles += u32::from(abort);
        if u.dp_start.val() {
            self.dp_starts += 1;
            self.dp_active = true;
            self.dp_op = u.dp_op.val().to_u64();
            self.dp_src_left = u.dp_src_len.val().to_u64();
            self.dp_in.clear();
            self.dp_out.clear();
            self.dp_out_ready = false;
            self.cmds.clear();
        }
        let dp_dst_len = u.dp_dst_len.val().to_u64();
        let dp_n = u.dp_n_chunks.val().to_u64();
        // read master
        let rd_fire = u.rd_valid.val() && u.rd_ready.val();
        let to_dp = u.dp_rd_valid.val() && u.dp_rd_ready.val();
        assert!(
            !to_dp || rd_fire,
            "datapath took a beat the master did not send"
        );
        if rd_fire {
            let (addr, left) = self.rd_q.pop_front().unwrap();
            if to_dp {
                let take = self.dp_src_left.min(BB);
                let b = self.get(addr, take as usize).to_vec();
                self.dp_in.extend_from_slice(&b);
                self.dp_src_left -= take;
            }
            if left > 1 {
                self.rd_q.push_front((addr + BB, left - 1));
            }
        }
        if u.rd_req_valid.val() && u.rd_req_ready.val() {
            let addr = u.rd_req_addr.val().to_u64();
            let beats = u.rd_req_beats.val().to_u64();
            assert_eq!(addr % BB, 0, "unaligned read request");
            assert!(beats > 0, "empty read request");
            self.rd_q.push_back((addr, beats));
        }
        // chunk commands / decisions
        if u.ck_valid.val() && u.ck_ready.val() {
            self.cmds.push(Cmd {
                stored: u.ck_stored_len.val().to_u64(),
                raw: u.ck_raw.val(),
                chunk_len: u.ck_chunk_len.val().to_u64(),
                last: u.ck_last.val(),
            });
        }
        if u.dec_valid.val() && u.dec_ready.val() {
            assert!(
                u.ck_valid.val() && u.ck_ready.val(),
                "decision not forwarded"
            );
            let (len, _) = self.decisions.pop_front().unwrap();
            let start = self.dp_out.len() as u64;
            self.dp_out
                .extend((0..len).map(|i| (0xC0 ^ (start + i)) as u8));
        }
        // write master
        let wr_fire = u.wr_valid.val() && u.wr_ready.val();
        let dp_wr_fire = u.dp_wr_valid.val() && u.dp_wr_ready.val();
        if wr_fire {
            let addr = self.wr_open.expect("beat without a stream");
            let data = from_bus(u.wr_data.val(), 8, BB as usize);
            let strb = u.wr_strb.val().to_u64() as u32;
            for (i, b) in data.iter().enumerate() {
                if strb >> i & 1 == 1 {
                    self.mem[addr as usize + i] = *b as u8;
                }
            }
            self.wr_strobes.push((addr, strb));
            self.wr_werr |= addr >= WR_ERR_AT;
            self.wr_open = Some(addr + BB);
            if u.wr_last.val() {
                self.wr_open = None;
                self.wr_done_in = Some((3, self.wr_werr));
            }
        }
        if dp_wr_fire {
            assert!(wr_fire, "datapath beat not passed to the write master");
            let n = self.dp_out.len().min(BB as usize);
            self.dp_out.drain(..n);
        }
        if u.wr_req_valid.val() && u.wr_req_ready.val() {
            let addr = u.wr_req_addr.val().to_u64();
            assert_eq!(addr % BB, 0, "unaligned write request");
            self.wr_open = Some(addr);
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
                    self.dp_out = (0..dp_dst_len).map(|i| (i * 3) as u8).collect();
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
        clock_cycle!(&mut *self.uut);
        self.cycles += 1;
    }

    /// Rings the doorbell at `head` and runs until the chain ends.
    fn run(&mut self, head: u64) {
        self.uut.head.next = head.into();
        self.uut.doorbell.next = true;
        self.step();
        self.uut.doorbell.next = false;
        let limit = self.cycles + 3000;
        loop {
            self.step();
            if self.ever_busy && !self.uut.busy.val() {
                break;
            }
            assert!(self.cycles < limit, "chain did not end within 3000 cycles");
        }
        assert!(self.ever_busy, "doorbell did not start the chain");
    }

    fn err_code(&self) -> u64 {
        self.uut.err_code.val().to_u64()
    }
}

fn code(e: error::ErrorCode) -> u64 {
    u64::from(e.code)
}

mod chain;
mod codec;
