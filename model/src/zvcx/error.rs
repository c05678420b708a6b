//! What can be wrong inside a ZVC-X chunk (docs/FORMAT.md, "ZVC-X decoding rules"): one
//! variant per rule, each naming the block (counted from the chunk's start) and the bit
//! offset where it starts.

/// A malformed ZVC-X chunk payload.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZvcxError {
    /// The payload ends inside a block.
    #[error("ZVC-X block {block} (bit {bit}) needs {needed} more bits, {available} are left")]
    EndsInsideBlock {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// Bits the next field needs.
        needed: u32,
        /// Bits left in the payload.
        available: u64,
    },
    /// A coded block announces no non-zero element (a mask or group map of 0).
    #[error("ZVC-X block {block} (bit {bit}) is coded but has no non-zero element")]
    NoNonZero {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
    },
    /// A position (list index, mask bit, group bit) lies past the end of the final, partial
    /// block.
    #[error(
        "ZVC-X block {block} (bit {bit}) has a non-zero at element {elem}, past its {len} elements"
    )]
    PositionPastEnd {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// The element position.
        elem: u32,
        /// Elements the block holds.
        len: u32,
    },
    /// A list's indices are not strictly increasing.
    #[error("ZVC-X block {block} (bit {bit}): list index {index} does not follow {previous}")]
    ListNotIncreasing {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// The index read.
        index: u32,
        /// The index before it.
        previous: u32,
    },
    /// A group map announces a group whose 4-bit mask is 0.
    #[error("ZVC-X block {block} (bit {bit}): group {group} is announced but its mask is 0")]
    EmptyGroup {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// The group.
        group: u32,
    },
    /// The largest-exponent delta leaves the exponent's range.
    #[error("ZVC-X block {block} (bit {bit}): largest exponent {value} is outside 0..={max}")]
    MaxExpOutOfRange {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// The exponent the delta gives.
        value: i64,
        /// Largest exponent of the type.
        max: u32,
    },
    /// The offset width `k` is larger than the exponent.
    #[error("ZVC-X block {block} (bit {bit}): k = {k} is more than the {exp_bits} exponent bits")]
    KTooLarge {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// The `k` read.
        k: u32,
        /// Exponent bits of the type.
        exp_bits: u32,
    },
    /// The escape count is not the number of all-ones offsets (or is not 0 where `k` allows
    /// no escape: k = 0 or k = exponent bits).
    #[error("ZVC-X block {block} (bit {bit}): {declared} escapes declared, {found} offsets escape (k = {k})")]
    EscapeCount {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// The escape count read.
        declared: u32,
        /// All-ones offsets found.
        found: u32,
        /// The block's `k`.
        k: u32,
    },
    /// An exponent offset is larger than the block's largest exponent.
    #[error(
        "ZVC-X block {block} (bit {bit}): element {elem}'s exponent offset {offset} is more than the largest exponent {max_exp}"
    )]
    ExponentUnderflow {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// Element index in the block.
        elem: u32,
        /// The offset.
        offset: u32,
        /// The block's largest exponent.
        max_exp: u32,
    },
    /// A non-zero position decodes to the element 0 (its sign, exponent and mantissa all 0).
    #[error("ZVC-X block {block} (bit {bit}): element {elem} is marked non-zero but decodes to 0")]
    ZeroElement {
        /// Block index.
        block: usize,
        /// Bit offset of the block.
        bit: u64,
        /// Element index in the block.
        elem: u32,
    },
    /// More than the padding to a byte boundary follows the last block.
    #[error("{bits} bits follow the last ZVC-X block (at most 7 bits of padding)")]
    ExcessPayload {
        /// Bits left after the last block.
        bits: u64,
    },
    /// The padding after the last block is not all zero.
    #[error("the padding after the last ZVC-X block is {value:#x}, must be 0")]
    PaddingNotZero {
        /// The padding bits.
        value: u64,
    },
}
