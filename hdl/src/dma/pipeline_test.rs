//! Test only: the COMPRESS datapath of the engine assembled from its blocks,
//! `ChunkScan → chunk FIFO → ZvcBusCompressor (ZVC or raw per decision)`, at E = 8, checked
//! byte for byte against the chunked frame's payload built with the golden model
//! (spec/src/frame.rs: each chunk ZVC-encoded iff that is strictly smaller, else raw).

use rust_hdl::core::prelude::*;

use crate::bus_codec::ZvcBusCompressorDw256;
use crate::dma::chunk_fifo::ChunkFifo;
use crate::dma::chunk_scan::ChunkScanE8;
use crate::prims::{Join, ZeroExtend};

/// The COMPRESS datapath for E = 8 with a small (16-beat) chunk FIFO.
#[derive(LogicBlock, Default)]
struct CompressPipeE8 {
    clock: Signal<In, Clock>,
    rst: Signal<In, Bit>,
    in_data: Signal<In, Bits<256>>,
    in_lanes: Signal<In, Bits<6>>,
    in_chunk_end: Signal<In, Bit>,
    in_last: Signal<In, Bit>,
    in_valid: Signal<In, Bit>,
    in_ready: Signal<Out, Bit>,
    out_data: Signal<Out, Bits<256>>,
    out_strb: Signal<Out, Bits<32>>,
    out_last: Signal<Out, Bit>,
    out_valid: Signal<Out, Bit>,
    out_ready: Signal<In, Bit>,
    /// The decision taken this cycle, with its chunk's last beat (what the controller would
    /// record).
    dec_fire: Signal<Out, Bit>,
    dec_stored_len: Signal<Out, Bits<32>>,
    dec_raw: Signal<Out, Bit>,
    scan: ChunkScanE8,
    fifo: ChunkFifo<264, 4>,
    comp: ZvcBusCompressorDw256,
    x_bytes: ZeroExtend<6, 8>,
    f_take: Signal<Local, Bit>,
    j_flags: Join<1, 1, 2>,
    j_hi: Join<6, 2, 8>,
    j_word: Join<256, 8, 264>,
}

impl Logic for CompressPipeE8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.scan.clock.next = self.clock.val();
        self.fifo.clock.next = self.clock.val();
        self.comp.clock.next = self.clock.val();
        self.scan.rst.next = self.rst.val();
        self.fifo.rst.next = self.rst.val();
        self.comp.rst.next = self.rst.val();
        self.comp.elem.next = 0.into();
        // source → scan (tap) → FIFO word {last, chunk_end, lanes, data}
        self.scan.in_data.next = self.in_data.val();
        self.scan.in_lanes.next = self.in_lanes.val();
        self.scan.in_chunk_end.next = self.in_chunk_end.val();
        self.scan.in_valid.next = self.in_valid.val();
        self.in_ready.next = self.scan.in_ready.val();
        self.scan.out_ready.next = self.fifo.in_ready.val();
        self.fifo.in_valid.next = self.scan.out_valid.val();
        self.j_flags.lo.next = self.in_chunk_end.val().into();
        self.j_flags.hi.next = self.in_last.val().into();
        self.j_hi.lo.next = self.in_lanes.val();
        self.j_hi.hi.next = self.j_flags.y.val();
        self.j_word.lo.next = self.in_data.val();
        self.j_word.hi.next = self.j_hi.y.val();
        self.fifo.in_data.next = self.j_word.y.val();
        // FIFO → compressor while the chunk's decision is offered; the decision is taken
        // with the chunk's last beat
        self.x_bytes.x.next = self.fifo.out_data.val().get_bits::<6>(256);
        self.comp.in_data.next = self.fifo.out_data.val().get_bits::<256>(0);
        self.comp.in_cnt.next = self.x_bytes.y.val();
        self.comp.in_raw.next = self.scan.dec_raw.val();
        self.comp.in_end.next = self.fifo.out_data.val().get_bit(262);
        self.comp.in_last.next = self.fifo.out_data.val().get_bit(263);
        self.comp.in_valid.next = self.fifo.out_valid.val() & self.scan.dec_valid.val();
        self.fifo.out_ready.next = self.comp.in_ready.val() & self.scan.dec_valid.val();
        self.f_take.next = self.fifo.out_valid.val() & self.comp.in_ready.val();
        self.scan.dec_ready.next = self.f_take.val() & self.fifo.out_data.val().get_bit(262);
        self.dec_fire.next = self.scan.dec_valid.val() & self.scan.dec_ready.val();
        self.dec_stored_len.next = self.scan.dec_stored_len.val();
        self.dec_raw.next = self.scan.dec_raw.val();
        self.out_data.next = self.comp.out_data.val();
        self.out_strb.next = self.comp.out_strb.val();
        self.out_last.next = self.comp.out_last.val();
        self.out_valid.next = self.comp.out_valid.val();
        self.comp.out_ready.next = self.out_ready.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;
    use cdma_model::{zvc, ElemWidth};

    /// The chunked payload of `data` and its index `(stored_len, raw)`, from the model.
    fn reference(data: &[u8], chunk_log2: u32) -> (Vec<u8>, Vec<(u64, bool)>) {
        let (mut payload, mut index) = (vec![], vec![]);
        for c in data.chunks(1 << chunk_log2) {
            let z = zvc::encode(c, ElemWidth::W8).unwrap();
            if z.len() < c.len() {
                index.push((z.len() as u64, false));
                payload.extend(z);
            } else {
                index.push((c.len() as u64, true));
                payload.extend_from_slice(c);
            }
        }
        (payload, index)
    }

    /// Streams `data` (128-byte chunks) through the pipeline with seeded random handshakes;
    /// returns the payload bytes (by strobe), the decisions and the cycle count.
    fn run(data: &[u8], pcts: (u64, u64), seed: u64) -> (Vec<u8>, Vec<(u64, bool)>, u64) {
        let mut rng = XorShift64::new(seed);
        let mut uut = reset_block!(CompressPipeE8);
        // Source beats: 32 bytes, 4 per 128-byte chunk, the final one partial.
        let beats: Vec<(Vec<u64>, usize, bool, bool)> = data
            .chunks(128)
            .enumerate()
            .flat_map(|(ci, c)| {
                let n = c.chunks(32).count();
                let last_chunk = ci + 1 == data.len().div_ceil(128);
                c.chunks(32)
                    .enumerate()
                    .map(|(i, b)| {
                        let mut l: Vec<u64> = b.iter().map(|&x| u64::from(x)).collect();
                        let v = l.len();
                        l.resize(32, 0xEE);
                        (l, v, i + 1 == n, last_chunk && i + 1 == n)
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let (mut bytes, mut decs, mut idx, mut cycles, mut valid, mut done) =
            (vec![], vec![], 0, 0u64, false, false);
        while !done {
            assert!(cycles < 20 * beats.len() as u64 + 200, "pipeline hangs");
            valid = idx < beats.len() && (valid || rng.chance(pcts.0));
            uut.in_valid.next = valid;
            if idx < beats.len() {
                let b = &beats[idx];
                uut.in_data.next = to_bus::<256>(&b.0, 8);
                uut.in_lanes.next = (b.1 as u64).into();
                uut.in_chunk_end.next = b.2;
                uut.in_last.next = b.3;
            }
            uut.out_ready.next = rng.chance(pcts.1);
            settle(&mut uut);
            if uut.dec_fire.val() {
                decs.push((uut.dec_stored_len.val().to_u64(), uut.dec_raw.val()));
            }
            if uut.out_valid.val() && uut.out_ready.val() {
                let lanes = from_bus::<256>(uut.out_data.val(), 8, 32);
                let strb = uut.out_strb.val().to_u64();
                let n = strb.count_ones() as usize;
                assert_eq!(strb, (1u64 << n) - 1, "strobes not from lane 0");
                bytes.extend(lanes[..n].iter().map(|&x| x as u8));
                done = uut.out_last.val();
            }
            if valid && uut.in_ready.val() {
                idx += 1;
                valid = false;
            }
            clock_cycle!(&mut uut);
            cycles += 1;
        }
        assert_eq!(idx, beats.len());
        (bytes, decs, cycles)
    }

    fn activation_like(rng: &mut XorShift64, n: usize) -> Vec<u8> {
        let pcts = [95, 60, 0, 100, 40, 85, 10, 50];
        let mut out = vec![];
        while out.len() < n {
            let pct = pcts[(out.len() / 128) % pcts.len()];
            let zero = rng.chance(pct);
            for _ in 0..(1 + rng.next() % 8) {
                out.push(if zero { 0 } else { (rng.next() as u8) | 0x10 });
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn e8_compress_datapath_writes_the_chunked_payload() {
        let mut rng = XorShift64::new(51);
        let data = activation_like(&mut rng, 16 * 128 + 45);
        let (payload, index) = reference(&data, 7);
        assert!(index.iter().any(|d| d.1) && index.iter().any(|d| !d.1));
        let (bytes, decs, _) = run(&data, (70, 60), 1);
        assert_eq!(decs, index);
        assert_eq!(bytes, payload);
    }

    #[test]
    fn e8_compress_datapath_full_rate() {
        let mut rng = XorShift64::new(52);
        let data = activation_like(&mut rng, 24 * 128);
        let (payload, index) = reference(&data, 7);
        let (bytes, decs, cycles) = run(&data, (100, 100), 2);
        assert_eq!(decs, index);
        assert_eq!(bytes, payload);
        eprintln!(
            "compress datapath: {} source beats, {} payload beats in {cycles} cycles",
            data.len() / 32,
            payload.len().div_ceil(32)
        );
        assert!(
            cycles <= (data.len() / 32) as u64 * 5 / 4 + 12,
            "took {cycles} cycles"
        );
    }
}
