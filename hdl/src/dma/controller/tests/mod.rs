//! The controller against Rust models of the read master, the write master and the
//! datapath, with a byte memory behind the masters, at every bus width it is generated for
//! (DW = 128, 256, 512, 1024: one test module per width, `dw128::…`, `dw256::…`, …).
//!
//! The testbench ([`tb::Tb`]) and the tests are generic over [`bus::Ctl`], which each controller
//! type implements with its bus bytes `BB`: the ports are driven and sampled as plain values
//! ([`bus::Inputs`], [`bus::Outputs`]), and every width-dependent expectation is derived from `BB`.
use super::*;

mod bus;
mod chain;
mod codec;
mod meta_pass;
mod stream;
mod tb;
mod windows;

use bus::Ctl;
use cdma_spec::desc::*;
use cdma_spec::frame::{self as fr, HEADER_LEN};
use tb::Tb;

/// The element width the tests at this bus width use: `8·BB/32` bits as the first engines had
/// (8 at 256, 16 at 512, 32 at 1024), and 32 at 128 bits.
fn elem_bits<U: Ctl>() -> u32 {
    match U::BB {
        // fp32 on the narrowest bus: one block over eight beats.
        16 => 32,
        bb => (bb * 8 / 32) as u32,
    }
}

/// A header element width the format accepts that is not the engine's and not 8 bits.
fn other_elem_bits<U: Ctl>() -> u32 {
    if elem_bits::<U>() == 16 {
        32
    } else {
        16
    }
}

/// The control-word code of element width `bits` (cdma_spec::desc::ELEM_CODES).
fn elem_code(bits: u32) -> u64 {
    ELEM_CODES
        .iter()
        .find(|(_, b)| *b == bits)
        .map(|(c, _)| *c)
        .expect("element width has a code")
}

/// Bus beats of `bytes` bytes from a bus-aligned address: `ceil(bytes / BB)`.
fn beats<U: Ctl>(bytes: u64) -> u64 {
    bytes.div_ceil(U::BB)
}

/// The byte strobes of `n` bytes from lane `at` of one beat.
fn strobes(at: u64, n: u64) -> u128 {
    assert!(at + n <= 128);
    if n == 128 {
        u128::MAX
    } else {
        ((1u128 << n) - 1) << at
    }
}

/// The write beats `(beat address, strobes)` of `len` bytes at `addr`, each beat of `BB` bytes.
fn write_beats<U: Ctl>(addr: u64, len: u64) -> Vec<(u64, u128)> {
    let first = addr / U::BB * U::BB;
    let end = addr + len;
    (0..beats::<U>(end - first))
        .map(|i| {
            let beat = first + i * U::BB;
            let lo = addr.max(beat);
            let hi = end.min(beat + U::BB);
            (beat, strobes(lo - beat, hi - lo))
        })
        .collect()
}

/// The header's beats as the controller writes them (COMPRESS, last): `(address, strobes)`,
/// one beat at 256 bits and wider, two at 128.
fn header_writes<U: Ctl>(meta: u64) -> Vec<(u64, u128)> {
    write_beats::<U>(meta, HEADER_LEN as u64)
}

/// Bus beats of the header read (DECOMPRESS): one at 256 bits and wider, two at 128.
fn header_beats<U: Ctl>() -> u64 {
    beats::<U>(HEADER_LEN as u64)
}

const MEM: usize = 0x80000;
/// Reads in `[RD_ERR_AT, RD_ERR_END)` return SLVERR.
const RD_ERR_AT: u64 = 0xF000;
const RD_ERR_END: u64 = 0x10000;
/// Writes in `[WR_ERR_AT, RD_ERR_AT)` get an error B response.
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

/// A COPY of `len` bytes from SRC to DST, with the engine's element width in `elem`.
fn copy<U: Ctl>(len: u64) -> Desc {
    Desc {
        op: OP_COPY,
        elem: elem_code(elem_bits::<U>()),
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
        // These tests write and read frames without CRCs (version 2); the engine tests cover
        // version 4 with the datapath's CRC unit.
        if self.op == OP_COMPRESS {
            ctl = CTRL_NO_CRC.set(ctl, 1);
        }
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

/// The header of a frame of `entries` with the engine's element width.
fn hdr<U: Ctl>(ulen: u64, cl: u64, entries: &[(u64, bool)]) -> Hdr {
    Hdr {
        magic: fr::MAGIC,
        version: u64::from(fr::VERSION),
        codec: u64::from(fr::CODEC_ZVC),
        elem: u64::from(elem_bits::<U>()),
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

fn code(e: error::ErrorCode) -> u64 {
    u64::from(e.code)
}

/// The test set at one bus width: module `$m`, every test of chain.rs, codec.rs, stream.rs and
/// windows.rs run with the controller type `$ty` (each `#[ignore]`d with the reason given
/// after `ignore:`).
macro_rules! controller_tests {
    ($m:ident, $ty:ident $(, ignore: $why:literal)?) => {
        mod $m {
            use super::*;
            controller_tests!(@ $ty; [$($why)?];
                chain::copy_writes_data_and_status_with_eight_strobes,
                chain::descriptor_validation_errors_in_order,
                chain::unaligned_or_unreadable_descriptor_ends_chain_without_write_back,
                chain::chain_goes_on_or_stops_after_an_error,
                chain::abort_writes_aborted_status_and_ends_the_chain,
                chain::status_write_error_ends_the_chain,
                chain::empty_copy_and_empty_compress,
                codec::compress_writes_header_and_index_after_the_payload,
                codec::compress_stops_at_dst_cap,
                stream::compress_streams_index_beats_between_payload_beats,
                stream::compress_more_than_1024_chunks,
                codec::decompress_sends_the_index_as_chunk_commands,
                codec::decompress_multi_beat_index,
                codec::decompress_header_and_index_checks,
                codec::decompress_payload_error_and_read_error,
                windows::decompress_more_than_one_index_window,
                windows::decompress_bad_entry_after_earlier_chunks,
                windows::decompress_index_read_error,
            );
        }
    };
    // One test at a time, so the optional reason repeats with each test.
    (@ $ty:ident; [$($why:literal)?];) => {};
    (@ $ty:ident; [$($why:literal)?]; $file:ident :: $t:ident, $($rest:tt)*) => {
        #[test]
        $(#[ignore = $why])?
        fn $t() {
            $file::$t::<$ty>();
        }
        controller_tests!(@ $ty; [$($why)?]; $($rest)*);
    };
}

controller_tests!(dw128, ControllerDw128);
controller_tests!(dw256, ControllerDw256);

controller_tests!(dw512, ControllerDw512);
controller_tests!(dw1024, ControllerDw1024);
