//! Error codes the engine writes into a descriptor's status word and the STATUS CSR.

/// One error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorCode {
    /// Symbolic name (Verilog constant `ERR_<name>`).
    pub name: &'static str,
    /// The code.
    pub code: u8,
    /// When the engine reports it.
    pub description: &'static str,
}

macro_rules! codes {
    ($($id:ident = $code:expr, $name:expr, $desc:expr;)*) => {
        $(
            #[doc = $desc]
            pub const $id: ErrorCode = ErrorCode { name: $name, code: $code, description: $desc };
        )*
        /// All error codes in code order.
        pub const ALL: &[ErrorCode] = &[$($id),*];
    };
}

codes! {
    OK = 0, "OK", "no error";
    BAD_DESC = 1, "BAD_DESC", "descriptor invalid: reserved operation, element width or bits set, chunk size out of range, or a length that is not a whole number of elements";
    UNALIGNED = 2, "UNALIGNED", "a source, destination, metadata or descriptor address is not aligned as docs/DESCRIPTORS.md requires";
    UNSUPPORTED = 3, "UNSUPPORTED", "valid descriptor this engine configuration cannot run (an element width not in HWCFG elem_mask, a codec not in codec_mask, or a chunk size beyond its parameters)";
    READ_ERROR = 4, "READ_ERROR", "SLVERR or DECERR on the read channel";
    WRITE_ERROR = 5, "WRITE_ERROR", "SLVERR or DECERR on the write response channel";
    BAD_HEADER = 6, "BAD_HEADER", "DECOMPRESS: frame header invalid (magic, version, codec, element width, chunk size, chunk count, lengths)";
    BAD_INDEX = 7, "BAD_INDEX", "DECOMPRESS: chunk index invalid (raw size differs from the chunk, compressed size not smaller, sizes do not sum to the payload length)";
    BAD_PAYLOAD = 8, "BAD_PAYLOAD", "DECOMPRESS: a compressed chunk does not decode to its chunk size in exactly its stored size";
    DST_OVERFLOW = 9, "DST_OVERFLOW", "the output would exceed the destination capacity (nothing is written past it)";
    ABORTED = 10, "ABORTED", "abort was requested through CTRL";
    BAD_CRC = 11, "BAD_CRC", "DECOMPRESS of a version 4 frame: the metadata CRC32C does not match the header and index (reported before any payload is read), or a chunk's data does not match its CRC32C (reported when the payload has been written, unless another error ended the descriptor first)";
}

/// The code's width in the status word.
pub const CODE_BITS: u32 = 8;

/// Looks a code up.
pub fn by_code(code: u8) -> Option<ErrorCode> {
    ALL.iter().copied().find(|e| e.code == code)
}

/// Markdown table of the codes.
pub fn markdown_table() -> String {
    let mut s = String::from("| code | name | meaning |\n|---|---|---|\n");
    for e in ALL {
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            e.code, e.name, e.description
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_dense_and_unique() {
        for (i, e) in ALL.iter().enumerate() {
            assert_eq!(e.code as usize, i, "{}", e.name);
        }
        assert_eq!(by_code(9), Some(DST_OVERFLOW));
        assert_eq!(by_code(200), None);
    }
}
