//! The descriptor as it lies in memory, and the control and status words inside it.

use cdma_spec::desc::{self as d, DESC_LEN};
use cdma_spec::error::ErrorCode;

/// A descriptor as it lies in memory (docs/DESCRIPTORS.md). `status` and `bytes_written`
/// are left out: software leaves them, the engine overwrites them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Descriptor {
    /// Control word (operation, element width, flags, chunk size).
    pub control: u32,
    /// Bytes at `src_addr`.
    pub src_len: u32,
    /// Source address.
    pub src_addr: u64,
    /// Destination address.
    pub dst_addr: u64,
    /// Bytes the engine may write at `dst_addr`.
    pub dst_cap: u32,
    /// Must be 0.
    pub reserved0: u32,
    /// Frame header + index address (COMPRESS, DECOMPRESS).
    pub meta_addr: u64,
    /// Next descriptor, 0 ends the chain.
    pub next: u64,
    /// Must be 0.
    pub reserved1: u64,
}

/// An operation of the control word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Copy `src_len` bytes.
    Copy,
    /// Source → chunked frame.
    Compress,
    /// Chunked frame → data.
    Decompress,
}

impl Op {
    fn code(self) -> u64 {
        match self {
            Op::Copy => d::OP_COPY,
            Op::Compress => d::OP_COMPRESS,
            Op::Decompress => d::OP_DECOMPRESS,
        }
    }

    /// The operation of a `control` word's `op` field (None: the reserved code).
    pub fn of_control(control: u32) -> Option<Op> {
        let code = d::CTRL_OP.get(u64::from(control));
        [Op::Copy, Op::Compress, Op::Decompress]
            .into_iter()
            .find(|op| op.code() == code)
    }
}

/// Builds a control word. `elem_bits` must be 8, 16 or 32 (any other value gives the reserved
/// code 3); `chunk_log2` is written as given (truncated to its 5 bits).
pub fn control_word(op: Op, elem_bits: u32, chunk_log2: u8, irq: bool, stop_on_error: bool) -> u32 {
    let elem = d::ELEM_CODES
        .iter()
        .find(|(_, b)| *b == elem_bits)
        .map_or(3, |(c, _)| *c);
    let w = d::CTRL_OP.set(0, op.code());
    let w = d::CTRL_ELEM.set(w, elem);
    let w = d::CTRL_IRQ.set(w, u64::from(irq));
    let w = d::CTRL_STOP_ON_ERROR.set(w, u64::from(stop_on_error));
    d::CTRL_CHUNK_LOG2.set(w, u64::from(chunk_log2)) as u32
}

/// `control` with its `type` and `codec` fields set: `elem_type` is a type code of
/// docs/FORMAT.md (0 = raw), `zvcx` selects ZVC-X (else ZVC). Codes are written as given
/// (truncated to their fields), so tests can build bad descriptors.
pub fn with_type_and_codec(control: u32, elem_type: u8, zvcx: bool) -> u32 {
    let codec = if zvcx {
        d::DESC_CODEC_ZVCX
    } else {
        d::DESC_CODEC_ZVC
    };
    let w = d::CTRL_TYPE.set(u64::from(control), u64::from(elem_type));
    d::CTRL_CODEC.set(w, codec) as u32
}

impl Descriptor {
    /// The 64 bytes in memory (`status` and `bytes_written` zero).
    pub fn to_bytes(&self) -> [u8; DESC_LEN] {
        let mut b = [0u8; DESC_LEN];
        d::CONTROL_FIELD.put(&mut b, u64::from(self.control));
        d::SRC_LEN_FIELD.put(&mut b, u64::from(self.src_len));
        d::SRC_ADDR_FIELD.put(&mut b, self.src_addr);
        d::DST_ADDR_FIELD.put(&mut b, self.dst_addr);
        d::DST_CAP_FIELD.put(&mut b, u64::from(self.dst_cap));
        d::RESERVED0_FIELD.put(&mut b, u64::from(self.reserved0));
        d::META_ADDR_FIELD.put(&mut b, self.meta_addr);
        d::NEXT_FIELD.put(&mut b, self.next);
        d::RESERVED1_FIELD.put(&mut b, self.reserved1);
        b
    }

    /// Parses the 64 bytes of a descriptor (`status` and `bytes_written` are ignored).
    pub fn from_bytes(b: &[u8; DESC_LEN]) -> Descriptor {
        Descriptor {
            control: d::CONTROL_FIELD.get(b) as u32,
            src_len: d::SRC_LEN_FIELD.get(b) as u32,
            src_addr: d::SRC_ADDR_FIELD.get(b),
            dst_addr: d::DST_ADDR_FIELD.get(b),
            dst_cap: d::DST_CAP_FIELD.get(b) as u32,
            reserved0: d::RESERVED0_FIELD.get(b) as u32,
            meta_addr: d::META_ADDR_FIELD.get(b),
            next: d::NEXT_FIELD.get(b),
            reserved1: d::RESERVED1_FIELD.get(b),
        }
    }

    fn flag(&self, f: cdma_spec::BitField) -> bool {
        f.get(u64::from(self.control)) == 1
    }

    /// The `irq` flag.
    pub fn irq(&self) -> bool {
        self.flag(d::CTRL_IRQ)
    }

    /// The `stop_on_error` flag.
    pub fn stop_on_error(&self) -> bool {
        self.flag(d::CTRL_STOP_ON_ERROR)
    }
}

/// The status word the engine writes back: done = 1 and the error code.
pub fn status_word(error: ErrorCode) -> u32 {
    let w = d::STATUS_DONE.set(0, 1);
    d::STATUS_ERROR.set(w, u64::from(error.code)) as u32
}
