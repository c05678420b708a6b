//! First light of the DMA engine top at the Verilator level (`cdma_dma_dw256`, and the
//! 1024-bit `cdma_dma_top`): descriptors in the AXI memory model, CSR programming over
//! AXI4-Lite, then COPY, COMPRESS, DECOMPRESS of the compressed frame, status words, one
//! BAD_DESC and one SLVERR. The full end-to-end harness is tb/src/dma/; this is the smoke.

use cdma_model::rng::XorShift64;
use cdma_model::{zvc, ElemWidth};
use cdma_sim::{new_dut, Dut};
use cdma_spec::{csr, desc, error, frame};
use cdma_tb::axi::{Access, AxiMemConfig, AxiSlave, ErrorRange, Resp};
use cdma_tb::axil::{AxiLiteDut, AxiLiteMaster, LiteAccess, LiteConfig};
use cdma_tb::watchdog::Watchdog;
use cdma_tb::zvc::TbError;

struct Bench {
    dut: Box<dyn Dut>,
    csr: AxiLiteDut,
    mem: AxiSlave,
    rst: usize,
    bb: usize,
    elem: ElemWidth,
    cycles: u64,
}

impl LiteAccess for Bench {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        &mut self.csr.master
    }
}

fn cycle(b: &mut Bench) -> Result<(), TbError> {
    b.csr.drive(&mut *b.dut);
    b.mem.drive(&mut *b.dut);
    b.dut.eval();
    b.csr.sample(&*b.dut)?;
    b.mem.sample(&*b.dut)?;
    b.dut.tick();
    b.cycles += 1;
    Ok(())
}

const LIM: u64 = 10_000;

impl Bench {
    fn new(module: &str, cfg: impl Fn(u32) -> AxiMemConfig) -> Bench {
        let mut dut = new_dut(module).expect("top built");
        // Debug aid: CDMA_VCD=path writes a trace of the whole run (FST for a .fst name).
        if let Some(p) = std::env::var_os("CDMA_VCD") {
            dut.trace(std::path::Path::new(&p)).expect("open the trace");
        }
        let dw = dut
            .params()
            .iter()
            .find(|p| p.0 == "DW")
            .expect("DW param")
            .1 as u32;
        let mem = AxiSlave::new(&*dut, "m_axi_", cfg(dw)).expect("bind m_axi");
        let csr = AxiLiteDut::new(&*dut, "s_axil_", LiteConfig::always()).expect("bind s_axil");
        let rst = dut.port("rst").unwrap();
        dut.set_u64(rst, 1).unwrap();
        let elem = match dw {
            256 => ElemWidth::W8,
            512 => ElemWidth::W16,
            _ => ElemWidth::W32,
        };
        let mut b = Bench {
            dut,
            csr,
            mem,
            rst,
            bb: dw as usize / 8,
            elem,
            cycles: 0,
        };
        for _ in 0..4 {
            b.mem.ports.drive_idle(&mut *b.dut);
            b.csr.drive(&mut *b.dut);
            b.dut.eval();
            b.dut.tick();
        }
        b.dut.set_u64(b.rst, 0).unwrap();
        b
    }

    fn wr(&mut self, addr: u32, v: u32) {
        let r = self.lite_write(addr, v, LIM, cycle).expect("csr write");
        assert_eq!(r, Resp::Okay);
    }

    fn rd(&mut self, addr: u32) -> u32 {
        self.lite_read(addr, LIM, cycle).expect("csr read").0
    }

    /// Rings the doorbell for the chain at `head` and runs until STATUS.busy is 0; returns
    /// the STATUS CSR and the cycles taken.
    fn run(&mut self, head: u64, limit: u64) -> (u32, u64) {
        self.wr(csr::CTRL.addr, csr::CTRL_ENABLE.mask() as u32);
        self.wr(csr::HEAD_LO.addr, head as u32);
        self.wr(csr::HEAD_HI.addr, (head >> 32) as u32);
        let start = self.cycles;
        self.wr(csr::DOORBELL.addr, 1);
        let mut wd = Watchdog::new(limit);
        loop {
            for _ in 0..32 {
                cycle(self).expect("cycle");
                wd.tick(|| "STATUS.busy = 0".into()).expect("engine hangs");
            }
            let st = self.rd(csr::STATUS.addr);
            if csr::STATUS_BUSY.get(u64::from(st)) == 0 {
                return (st, self.cycles - start);
            }
        }
    }

    /// The status word and bytes_written of the descriptor at `d`.
    fn status(&self, d: u64) -> (u64, u64) {
        let b = self.mem.mem.read_bytes(d, desc::DESC_LEN);
        (
            desc::STATUS_FIELD.get(&b),
            desc::BYTES_WRITTEN_FIELD.get(&b),
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn descriptor(
    op: u64,
    elem_code: u64,
    chunk_log2: u64,
    src: u64,
    src_len: u64,
    dst: u64,
    dst_cap: u64,
    meta: u64,
) -> Vec<u8> {
    let mut d = vec![0u8; desc::DESC_LEN];
    let ctrl = desc::CTRL_CHUNK_LOG2.set(
        desc::CTRL_ELEM.set(desc::CTRL_OP.set(0, op), elem_code),
        chunk_log2,
    );
    let put = |d: &mut Vec<u8>, f: cdma_spec::field::Field, v: u64| {
        d[f.offset..f.offset + f.size].copy_from_slice(&v.to_le_bytes()[..f.size]);
    };
    // This smoke test reads version 2 frames (4-byte entries): COMPRESS without CRCs.
    let ctrl = if op == desc::OP_COMPRESS {
        desc::CTRL_NO_CRC.set(ctrl, 1)
    } else {
        ctrl
    };
    put(&mut d, desc::CONTROL_FIELD, ctrl);
    put(&mut d, desc::SRC_LEN_FIELD, src_len);
    put(&mut d, desc::SRC_ADDR_FIELD, src);
    put(&mut d, desc::DST_ADDR_FIELD, dst);
    put(&mut d, desc::DST_CAP_FIELD, dst_cap);
    put(&mut d, desc::META_ADDR_FIELD, meta);
    d
}

fn elem_code(e: ElemWidth) -> u64 {
    match e {
        ElemWidth::W8 => 0,
        ElemWidth::W16 => 1,
        ElemWidth::W32 => 2,
    }
}

fn activation_like(rng: &mut XorShift64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let zero = rng.next() % 100 < 80;
        for _ in 0..(1 + rng.next() % 8) {
            out.push(if zero { 0 } else { (rng.next() as u8) | 1 });
        }
    }
    out.truncate(n);
    out
}

/// The model's chunked payload and index entries (spec/src/frame.rs rule).
fn reference(data: &[u8], elem: ElemWidth, chunk_log2: u32) -> (Vec<u8>, Vec<u32>) {
    let (mut payload, mut index) = (vec![], vec![]);
    for c in data.chunks(1 << chunk_log2) {
        let z = zvc::encode(c, elem).unwrap();
        if z.len() < c.len() {
            index.push(frame::INDEX_SIZE.set(0, z.len() as u64) as u32);
            payload.extend(z);
        } else {
            index.push(frame::INDEX_RAW.set(frame::INDEX_SIZE.set(0, c.len() as u64), 1) as u32);
            payload.extend_from_slice(c);
        }
    }
    (payload, index)
}

const DESC: u64 = 0x1000;
const SRC: u64 = 0x10000;
const DST: u64 = 0x40000;
const META: u64 = 0x80000;
const OUT: u64 = 0xA0000;

fn done_ok(st: u64) -> bool {
    desc::STATUS_DONE.get(st) == 1 && desc::STATUS_ERROR.get(st) == 0
}

/// COPY, COMPRESS, DECOMPRESS of the frame back; returns the cycles of the three runs.
fn copy_compress_decompress(module: &str, data: &[u8], chunk_log2: u32, seed: u64) -> u64 {
    let mut b = Bench::new(module, |dw| AxiMemConfig::random(dw, seed));
    let (elem, n) = (b.elem, data.len() as u64);
    let bb = b.bb as u64;
    b.mem.mem.write_bytes(SRC, data);
    let mut total = 0;
    // ---- COPY, with guard bytes around the destination
    b.mem
        .mem
        .write_bytes(DST - bb, &vec![0xA5; data.len() + 2 * b.bb]);
    let d = descriptor(desc::OP_COPY, 0, 0, SRC, n, DST, n, 0);
    b.mem.mem.write_bytes(DESC, &d);
    let (st, cyc) = b.run(DESC, 400_000);
    total += cyc;
    assert_eq!(
        csr::STATUS_ERROR.get(u64::from(st)),
        0,
        "COPY: STATUS {st:#x}"
    );
    let (s, bw) = b.status(DESC);
    assert!(done_ok(s), "COPY status {s:#x}");
    assert_eq!(bw, n);
    let got = b.mem.mem.read_bytes(DST, data.len());
    if let Some(i) = (0..data.len()).find(|&i| got[i] != data[i]) {
        panic!(
            "COPY data differs at byte {i} of {n}: got {:02x?} want {:02x?}",
            &got[i..(i + 40).min(data.len())],
            &data[i..(i + 40).min(data.len())]
        );
    }
    assert!(b
        .mem
        .mem
        .read_bytes(DST - bb, b.bb)
        .iter()
        .all(|&x| x == 0xA5));
    assert!(b
        .mem
        .mem
        .read_bytes(DST + n, b.bb)
        .iter()
        .all(|&x| x == 0xA5));
    // ---- COMPRESS
    let (payload, index) = reference(data, elem, chunk_log2);
    let d = descriptor(
        desc::OP_COMPRESS,
        elem_code(elem),
        u64::from(chunk_log2),
        SRC,
        n,
        DST,
        n + 4096,
        META,
    );
    b.mem.mem.write_bytes(DESC, &d);
    let (st, cyc) = b.run(DESC, 400_000);
    total += cyc;
    let (s, bw) = b.status(DESC);
    assert!(done_ok(s), "COMPRESS status {s:#x}, STATUS {st:#x}");
    let got = b.mem.mem.read_bytes(DST, payload.len());
    if let Some(i) = (0..payload.len()).find(|&i| got[i] != payload[i]) {
        panic!("COMPRESS payload differs at byte {i} of {}", payload.len());
    }
    let hdr = b.mem.mem.read_bytes(META, frame::HEADER_LEN);
    assert_eq!(frame::N_CHUNKS_FIELD.get(&hdr), index.len() as u64);
    assert_eq!(frame::UNCOMPRESSED_LEN_FIELD.get(&hdr), n);
    assert_eq!(frame::PAYLOAD_LEN_FIELD.get(&hdr), payload.len() as u64);
    let idx = b
        .mem
        .mem
        .read_bytes(META + frame::HEADER_LEN as u64, 4 * index.len());
    let idx: Vec<u32> = idx
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(idx, index, "COMPRESS index");
    eprintln!(
        "{module}: COMPRESS {n} B -> payload {} B ({} chunks, {} raw), bytes_written {bw}",
        payload.len(),
        index.len(),
        index
            .iter()
            .filter(|&&e| frame::INDEX_RAW.get(u64::from(e)) == 1)
            .count()
    );
    // ---- DECOMPRESS the engine's frame
    b.mem
        .mem
        .write_bytes(OUT - bb, &vec![0x5A; data.len() + 2 * b.bb]);
    // chunk_log2 must be 0 for DECOMPRESS (cdma_spec::desc::CTRL_CHUNK_LOG2: the engine reads
    // it from the frame header).
    let d = descriptor(
        desc::OP_DECOMPRESS,
        elem_code(elem),
        0,
        DST,
        payload.len() as u64,
        OUT,
        n,
        META,
    );
    b.mem.mem.write_bytes(DESC, &d);
    let (st, cyc) = b.run(DESC, 400_000);
    total += cyc;
    let (s, bw) = b.status(DESC);
    assert!(done_ok(s), "DECOMPRESS status {s:#x}, STATUS {st:#x}");
    assert_eq!(bw, n);
    let got = b.mem.mem.read_bytes(OUT, data.len());
    if let Some(i) = (0..data.len()).find(|&i| got[i] != data[i]) {
        panic!("DECOMPRESS output differs at byte {i} of {n}");
    }
    assert!(b
        .mem
        .mem
        .read_bytes(OUT + n, b.bb)
        .iter()
        .all(|&x| x == 0x5A));
    assert!(b.mem.mem.violations().is_empty());
    total
}

fn smoke(module: &str) {
    let mut rng = XorShift64::new(0x1234_5678);
    let mut data = activation_like(&mut rng, 5000);
    // One chunk of random bytes (raw fallback).
    for x in &mut data[1024..2048] {
        *x = rng.next() as u8;
    }
    let t0 = std::time::Instant::now();
    let cyc = copy_compress_decompress(module, &data, 10, 7);
    let dt = t0.elapsed().as_secs_f64();
    eprintln!(
        "{module}: 3 descriptors in {cyc} cycles, {:.0} cycles/s",
        cyc as f64 / dt
    );
}

#[test]
fn dw256_copy_compress_decompress() {
    smoke("cdma_dma_dw256");
}

#[test]
fn dw1024_copy_compress_decompress() {
    smoke("cdma_dma_top");
}

#[test]
fn dw256_bad_desc_and_slverr() {
    let mut b = Bench::new("cdma_dma_dw256", |dw| AxiMemConfig::random(dw, 3));
    // BAD_DESC: reserved element width code 3.
    let d = descriptor(desc::OP_COMPRESS, 3, 10, SRC, 256, DST, 4096, META);
    b.mem.mem.write_bytes(DESC, &d);
    let (st, _) = b.run(DESC, 100_000);
    assert_eq!(csr::STATUS_ERROR.get(u64::from(st)), 1);
    assert_eq!(
        csr::STATUS_ERR_CODE.get(u64::from(st)),
        u64::from(error::BAD_DESC.code)
    );
    let (s, _) = b.status(DESC);
    assert_eq!(desc::STATUS_DONE.get(s), 1);
    assert_eq!(desc::STATUS_ERROR.get(s), u64::from(error::BAD_DESC.code));
    // SLVERR on the source of a COPY.
    b.mem.mem.write_bytes(SRC, &[7u8; 2048]);
    b.mem.mem.add_error(ErrorRange::new(
        SRC + 1024,
        SRC + 1100,
        Resp::Slverr,
        Access::Read,
    ));
    let d = descriptor(desc::OP_COPY, 0, 0, SRC, 2048, DST, 2048, 0);
    b.mem.mem.write_bytes(DESC, &d);
    let (st, _) = b.run(DESC, 100_000);
    assert_eq!(
        csr::STATUS_ERR_CODE.get(u64::from(st)),
        u64::from(error::READ_ERROR.code)
    );
    let (s, bw) = b.status(DESC);
    assert_eq!(desc::STATUS_ERROR.get(s), u64::from(error::READ_ERROR.code));
    assert_eq!(bw, 0);
    // The engine still works afterwards.
    b.mem.mem.clear_errors();
    let d = descriptor(desc::OP_COPY, 0, 0, SRC, 2048, DST, 2048, 0);
    b.mem.mem.write_bytes(DESC, &d);
    let (st, _) = b.run(DESC, 100_000);
    assert_eq!(csr::STATUS_ERROR.get(u64::from(st)), 0);
    assert_eq!(b.mem.mem.read_bytes(DST, 2048), vec![7u8; 2048]);
    assert!(b.mem.mem.violations().is_empty());
}
