//! [`HeaderPack`]: the frame header COMPRESS writes, laid out from `cdma_spec::frame`.
//!
//! A hand-written-Verilog block (see crate::prims for why): one part-select assignment
//! per header field, generated from [`frame::HEADER_FIELDS_TYPED`], so the layout exists only
//! in the spec. The constant field (magic) is baked in as a sized literal; the codec byte is
//! ZVC-X's or ZVC's (`zvcx`); the version is 3 for a typed or ZVC-X frame and 2 for a raw ZVC
//! one (the type byte is then the reserved zero of version 2); version 4 whatever the type and codec with CRCs (`crc`); the element width is `8 << elem` bits; narrower inputs fill the low bits of
//! their fields (the rest is zero).

use cdma_spec::frame;
use rust_hdl::core::prelude::*;

use super::check::{CL_BITS, ELEM_BITS, HDR_BITS, LEN_BITS, TYPE_BITS};

/// Value of one header field: a constant or one of the block's inputs.
#[derive(Clone, Copy, Debug)]
enum Src {
    Const(u64),
    Version,
    Codec,
    ElemType,
    ElemBits,
    ChunkLog2,
    NChunks,
    Ulen,
    Plen,
}

/// The frame header of a COMPRESS descriptor (`HEADER_LEN` bytes, byte `i` at bits
/// `[8i +: 8]`).
#[derive(LogicBlock, Default)]
pub struct HeaderPack {
    /// Element width code of the frame (0 = 8, 1 = 16, 2 = 32 bits).
    pub elem: Signal<In, Bits<ELEM_BITS>>,
    /// Element type code of the frame (0 = raw: a version 2 frame).
    pub ty: Signal<In, Bits<TYPE_BITS>>,
    /// The frame's codec is ZVC-X (else ZVC; a ZVC-X frame is version 3).
    pub zvcx: Signal<In, Bit>,
    /// The frame carries CRC32C: version 4 (whatever the type and codec).
    pub crc: Signal<In, Bit>,
    /// `chunk_log2` of the frame.
    pub chunk_log2: Signal<In, Bits<CL_BITS>>,
    /// `n_chunks`.
    pub n_chunks: Signal<In, Bits<LEN_BITS>>,
    /// `uncompressed_len` (the descriptor's `src_len`).
    pub ulen: Signal<In, Bits<LEN_BITS>>,
    /// `payload_len` (the bytes written at `dst_addr`).
    pub plen: Signal<In, Bits<LEN_BITS>>,
    /// The header.
    pub y: Signal<Out, Bits<HDR_BITS>>,
}

impl HeaderPack {
    /// Every header field with its value source (panics on a field this block does not
    /// know, so a spec change cannot go unnoticed).
    fn fields(&self) -> Vec<(cdma_spec::Field, Src)> {
        frame::HEADER_FIELDS_TYPED
            .iter()
            .map(|f| {
                let src = match f.name {
                    "magic" => Src::Const(u64::from(u32::from_le_bytes(frame::MAGIC))),
                    "version" => Src::Version,
                    "elem_type" => Src::ElemType,
                    "codec" => Src::Codec,
                    "elem_bits" => Src::ElemBits,
                    "chunk_log2" => Src::ChunkLog2,
                    "n_chunks" => Src::NChunks,
                    "reserved" => Src::Const(0),
                    "uncompressed_len" => Src::Ulen,
                    "payload_len" => Src::Plen,
                    other => panic!("HeaderPack: unknown header field {other}"),
                };
                (*f, src)
            })
            .collect()
    }
}

impl Logic for HeaderPack {
    fn update(&mut self) {
        let mut y = Bits::<HDR_BITS>::default();
        for (f, src) in self.fields() {
            let ty = self.ty.val().to_u64();
            let zvcx = self.zvcx.val();
            let v = match src {
                Src::Const(v) => v,
                Src::Version if self.crc.val() => u64::from(frame::VERSION_CRC),
                Src::Version if ty == 0 && !zvcx => u64::from(frame::VERSION),
                Src::Version => u64::from(frame::VERSION_TYPED),
                Src::Codec if zvcx => u64::from(frame::CODEC_ZVCX),
                Src::Codec => u64::from(frame::CODEC_ZVC),
                Src::ElemType => ty,
                Src::ElemBits => 8 << self.elem.val().to_u64(),
                Src::ChunkLog2 => self.chunk_log2.val().to_u64(),
                Src::NChunks => self.n_chunks.val().to_u64(),
                Src::Ulen => self.ulen.val().to_u64(),
                Src::Plen => self.plen.val().to_u64(),
            };
            y = y | (Bits::<HDR_BITS>::from(v) << (f.offset * 8) as u64);
        }
        self.y.next = y;
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = format!("always @(*) begin\n   y = {HDR_BITS}'d0;\n");
        for (f, src) in self.fields() {
            let lsb = f.offset * 8;
            let w = f.size * 8;
            let line = match src {
                Src::Const(0) => continue,
                Src::Const(c) => format!("y[{lsb} +: {w}] = {w}'h{c:x};"),
                Src::Version => format!(
                    "y[{lsb} +: {w}] = crc ? {w}'d{} : (ty == {TYPE_BITS}'d0 && !zvcx) ? {w}'d{} : {w}'d{};",
                    frame::VERSION_CRC,
                    frame::VERSION,
                    frame::VERSION_TYPED
                ),
                Src::Codec => format!(
                    "y[{lsb} +: {w}] = zvcx ? {w}'d{} : {w}'d{};",
                    frame::CODEC_ZVCX,
                    frame::CODEC_ZVC
                ),
                Src::ElemType => format!("y[{lsb} +: {TYPE_BITS}] = ty;"),
                Src::ElemBits => format!("y[{lsb} +: {w}] = {w}'d8 << elem;"),
                Src::ChunkLog2 => format!("y[{lsb} +: {CL_BITS}] = chunk_log2;"),
                Src::NChunks => format!("y[{lsb} +: {LEN_BITS}] = n_chunks;"),
                Src::Ulen => format!("y[{lsb} +: {LEN_BITS}] = ulen;"),
                Src::Plen => format!("y[{lsb} +: {LEN_BITS}] = plen;"),
            };
            v.push_str("   ");
            v.push_str(&line);
            v.push('\n');
        }
        v.push_str("end\n");
        Verilog::Custom(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Rust model agrees with the spec's own field accessors.
    #[test]
    fn header_pack_matches_spec_layout() {
        let mut uut = HeaderPack::default();
        uut.connect_all();
        uut.elem.next = 1u64.into();
        uut.ty.next = 0u64.into();
        uut.chunk_log2.next = 12u64.into();
        uut.n_chunks.next = 3u64.into();
        uut.ulen.next = 9000u64.into();
        uut.plen.next = 4321u64.into();
        assert!(simulate(&mut uut, 100));
        let y = uut.y.val();
        let bytes: Vec<u8> = (0..frame::HEADER_LEN)
            .map(|i| y.get_bits::<8>(i * 8).to_u64() as u8)
            .collect();
        assert_eq!(&bytes[0..4], &frame::MAGIC);
        assert_eq!(frame::VERSION_FIELD.get(&bytes), u64::from(frame::VERSION));
        assert_eq!(frame::CODEC_FIELD.get(&bytes), u64::from(frame::CODEC_ZVC));
        assert_eq!(frame::ELEM_BITS_FIELD.get(&bytes), 16);
        assert_eq!(frame::CHUNK_LOG2_FIELD.get(&bytes), 12);
        assert_eq!(frame::N_CHUNKS_FIELD.get(&bytes), 3);
        assert_eq!(frame::RESERVED_FIELD.get(&bytes), 0);
        assert_eq!(frame::UNCOMPRESSED_LEN_FIELD.get(&bytes), 9000);
        assert_eq!(frame::PAYLOAD_LEN_FIELD.get(&bytes), 4321);
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert!(text.contains("y[64 +: 32] = n_chunks;"), "{text}");
        assert!(text.contains("y[48 +: 8] = 8'd8 << elem;"), "{text}");
        assert!(text.contains("y[96 +: 3] = ty;"), "{text}");
        // A typed frame: version 3 and the type in byte 12.
        uut.ty.next = 2u64.into();
        assert!(simulate(&mut uut, 100));
        let y = uut.y.val();
        let bytes: Vec<u8> = (0..frame::HEADER_LEN)
            .map(|i| y.get_bits::<8>(i * 8).to_u64() as u8)
            .collect();
        assert_eq!(
            frame::VERSION_FIELD.get(&bytes),
            u64::from(frame::VERSION_TYPED)
        );
        assert_eq!(frame::ELEM_TYPE_FIELD.get(&bytes), 2);
        assert_eq!(frame::RESERVED_TYPED_FIELD.get(&bytes), 0);
        assert_eq!(frame::CODEC_FIELD.get(&bytes), u64::from(frame::CODEC_ZVC));
        // A ZVC-X frame of raw elements: version 3, the ZVC-X codec byte.
        uut.ty.next = 0u64.into();
        uut.zvcx.next = true;
        assert!(simulate(&mut uut, 100));
        let y = uut.y.val();
        let bytes: Vec<u8> = (0..frame::HEADER_LEN)
            .map(|i| y.get_bits::<8>(i * 8).to_u64() as u8)
            .collect();
        assert_eq!(
            frame::VERSION_FIELD.get(&bytes),
            u64::from(frame::VERSION_TYPED)
        );
        assert_eq!(frame::CODEC_FIELD.get(&bytes), u64::from(frame::CODEC_ZVCX));
        assert!(text.contains("zvcx ?"), "{text}");
        // With CRCs: version 4 whatever the type and codec.
        uut.crc.next = true;
        assert!(simulate(&mut uut, 100));
        let y = uut.y.val();
        assert_eq!(
            y.get_bits::<8>(frame::VERSION_FIELD.offset * 8).to_u64(),
            u64::from(frame::VERSION_CRC)
        );
        assert!(text.contains("crc ? 8'd4"), "{text}");
    }
}
