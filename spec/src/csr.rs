//! The AXI4-Lite register map (32-bit registers, byte addresses).

use crate::field::BitField;

/// Register access type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read-only.
    Ro,
    /// Read-write.
    Rw,
    /// Write-only (reads return 0).
    Wo,
    /// Read, write 1 to clear.
    Rw1c,
}

impl Access {
    /// As the documents write it.
    pub fn name(&self) -> &'static str {
        match self {
            Access::Ro => "RO",
            Access::Rw => "RW",
            Access::Wo => "WO",
            Access::Rw1c => "RW1C",
        }
    }
}

/// One 32-bit register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Csr {
    /// Register name (Verilog constant `CSR_<name>`).
    pub name: &'static str,
    /// Byte address.
    pub addr: u32,
    /// Access type.
    pub access: Access,
    /// Value after reset (RO registers with configuration values: see the description).
    pub reset: u32,
    /// Meaning.
    pub description: &'static str,
}

macro_rules! csrs {
    ($($id:ident = $addr:expr, $name:expr, $acc:ident, $reset:expr, $desc:expr;)*) => {
        $(
            #[doc = $desc]
            pub const $id: Csr = Csr {
                name: $name, addr: $addr, access: Access::$acc, reset: $reset, description: $desc,
            };
        )*
        /// All registers in address order.
        pub const ALL: &[Csr] = &[$($id),*];
    };
}

/// Value of the ID register: ASCII `cDMA` read as a little-endian word.
pub const ID_VALUE: u32 = u32::from_le_bytes(*b"cDMA");
/// Value of the VERSION register: the CSR map / descriptor version.
pub const VERSION_VALUE: u32 = 1;

csrs! {
    ID = 0x000, "ID", Ro, ID_VALUE, "ASCII `cDMA` (0x414D4463)";
    VERSION = 0x004, "VERSION", Ro, VERSION_VALUE, "register map and descriptor version (1)";
    HWCFG = 0x008, "HWCFG", Ro, 0, "engine parameters (bit table below)";
    CTRL = 0x010, "CTRL", Rw, 0, "control (bit table below)";
    STATUS = 0x014, "STATUS", Ro, 0, "status (bit table below)";
    DESC_DONE = 0x018, "DESC_DONE", Ro, 0, "descriptors finished since reset (with or without error), wrapping";
    HEAD_LO = 0x020, "HEAD_LO", Rw, 0, "chain head address, bits 31:0 (64-byte aligned)";
    HEAD_HI = 0x024, "HEAD_HI", Rw, 0, "chain head address, bits 63:32";
    DOORBELL = 0x028, "DOORBELL", Wo, 0, "any write starts the chain at HEAD when the engine is enabled and idle; ignored otherwise";
    IRQ_STATUS = 0x030, "IRQ_STATUS", Rw1c, 0, "interrupt causes (bit table below); write 1 to clear";
    IRQ_ENABLE = 0x034, "IRQ_ENABLE", Rw, 0, "interrupt enables, same bits as IRQ_STATUS; `irq` = OR of enabled causes";
    ERR_DESC_LO = 0x040, "ERR_DESC_LO", Ro, 0, "address of the last descriptor that failed, bits 31:0";
    ERR_DESC_HI = 0x044, "ERR_DESC_HI", Ro, 0, "address of the last descriptor that failed, bits 63:32";
    PERF_BUSY_LO = 0x080, "PERF_BUSY_LO", Ro, 0, "cycles busy, bits 31:0; reading it latches bits 63:32 for PERF_BUSY_HI";
    PERF_BUSY_HI = 0x084, "PERF_BUSY_HI", Ro, 0, "cycles busy, bits 63:32 (latched)";
    PERF_RD_BYTES_LO = 0x088, "PERF_RD_BYTES_LO", Ro, 0, "bytes read on m_axi (R beats × bus bytes), bits 31:0; latches the HI half";
    PERF_RD_BYTES_HI = 0x08C, "PERF_RD_BYTES_HI", Ro, 0, "bytes read, bits 63:32 (latched)";
    PERF_WR_BYTES_LO = 0x090, "PERF_WR_BYTES_LO", Ro, 0, "bytes written on m_axi (strobed bytes), bits 31:0; latches the HI half";
    PERF_WR_BYTES_HI = 0x094, "PERF_WR_BYTES_HI", Ro, 0, "bytes written, bits 63:32 (latched)";
    PERF_STALL_LO = 0x098, "PERF_STALL_LO", Ro, 0, "busy cycles with a beat waiting on a channel the memory did not take (valid && !ready on AR, AW or W), bits 31:0; latches the HI half";
    PERF_STALL_HI = 0x09C, "PERF_STALL_HI", Ro, 0, "stall cycles, bits 63:32 (latched)";
}

/// CTRL: engine enabled (doorbells are ignored while 0).
pub const CTRL_ENABLE: BitField = BitField {
    name: "enable",
    lsb: 0,
    width: 1,
    description: "1: the engine accepts doorbells",
};
/// CTRL: abort.
pub const CTRL_ABORT: BitField = BitField {
    name: "abort",
    lsb: 1,
    width: 1,
    description: "write 1: abort the running chain; the current descriptor ends with ABORTED and the engine is idle within the bound of docs/DESCRIPTORS.md; reads 0",
};
/// CTRL bits.
pub const CTRL_BITS: [BitField; 2] = [CTRL_ENABLE, CTRL_ABORT];

/// STATUS: engine busy.
pub const STATUS_BUSY: BitField = BitField {
    name: "busy",
    lsb: 0,
    width: 1,
    description: "1: a chain is running",
};
/// STATUS: the last chain had an error.
pub const STATUS_ERROR: BitField = BitField {
    name: "error",
    lsb: 1,
    width: 1,
    description: "1: a descriptor of the current or last chain failed; cleared by the doorbell",
};
/// STATUS: last error code.
pub const STATUS_ERR_CODE: BitField = BitField {
    name: "err_code",
    lsb: 8,
    width: 8,
    description: "error code of the last failed descriptor",
};
/// STATUS bits.
pub const STATUS_BITS: [BitField; 3] = [STATUS_BUSY, STATUS_ERROR, STATUS_ERR_CODE];

/// IRQ: a descriptor with its `irq` flag finished, or a chain ended.
pub const IRQ_DONE: BitField = BitField {
    name: "done",
    lsb: 0,
    width: 1,
    description: "a descriptor with its `irq` flag finished, or the chain ended",
};
/// IRQ: a descriptor failed.
pub const IRQ_ERROR: BitField = BitField {
    name: "error",
    lsb: 1,
    width: 1,
    description: "a descriptor failed",
};
/// IRQ_STATUS / IRQ_ENABLE bits.
pub const IRQ_BITS: [BitField; 2] = [IRQ_DONE, IRQ_ERROR];

/// HWCFG: log2 of the data bus width in bytes.
pub const HWCFG_BUS_LOG2: BitField = BitField {
    name: "bus_bytes_log2",
    lsb: 0,
    width: 4,
    description: "log2 of the m_axi data width in bytes (4, 5, 6 or 7 for 128, 256, 512, 1024 bits); also the alignment src/dst/meta need",
};
/// HWCFG: the engine computes and checks CRC32C (frame version 4).
pub const HWCFG_CRC: BitField = BitField {
    name: "crc",
    lsb: 4,
    width: 1,
    description: "1: COMPRESS writes version 4 frames with CRC32C (unless the descriptor says no_crc) and DECOMPRESS checks them; 0 (an engine without CRC32C; cdma generates none today): both are UNSUPPORTED",
};
/// HWCFG: the element widths the engine was generated for, one bit per descriptor `elem`
/// code (`desc::ELEM_CODES`).
pub const HWCFG_ELEM_MASK: BitField = BitField {
    name: "elem_mask",
    lsb: 8,
    width: 4,
    description: "element widths the engine compresses: bit c set iff the descriptor elem code c runs (bit 0: 8, bit 1: 16, bit 2: 32 bits)",
};
/// HWCFG: the codecs the engine was generated with, one bit per descriptor `codec` code
/// (`desc::DESC_CODEC_ZVC`, `desc::DESC_CODEC_ZVCX`).
pub const HWCFG_CODEC_MASK: BitField = BitField {
    name: "codec_mask",
    lsb: 12,
    width: 4,
    description: "codecs the engine runs: bit c set iff the descriptor codec code c runs (bit 0: ZVC, always; bit 1: ZVC-X)",
};
/// HWCFG: largest chunk_log2.
pub const HWCFG_CHUNK_LOG2_MAX: BitField = BitField {
    name: "chunk_log2_max",
    lsb: 16,
    width: 8,
    description: "largest chunk_log2 the chunk buffers hold",
};
/// HWCFG: read bursts in flight.
pub const HWCFG_READS_IN_FLIGHT: BitField = BitField {
    name: "reads_in_flight",
    lsb: 24,
    width: 8,
    description: "read bursts the engine keeps in flight",
};
/// HWCFG bits.
pub const HWCFG_BITS: [BitField; 6] = [
    HWCFG_BUS_LOG2,
    HWCFG_CRC,
    HWCFG_ELEM_MASK,
    HWCFG_CODEC_MASK,
    HWCFG_CHUNK_LOG2_MAX,
    HWCFG_READS_IN_FLIGHT,
];

/// Address bits the CSR block decodes.
pub const ADDR_BITS: u32 = 12;

/// Markdown table of the register map.
pub fn markdown_table() -> String {
    let mut s =
        String::from("| address | name | access | reset | meaning |\n|---|---|---|---|---|\n");
    for r in ALL {
        s.push_str(&format!(
            "| 0x{:03X} | {} | {} | 0x{:X} | {} |\n",
            r.addr,
            r.name,
            r.access.name(),
            r.reset,
            r.description
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::check_bits;

    #[test]
    fn map_is_ordered_aligned_and_unique() {
        for w in ALL.windows(2) {
            assert!(w[0].addr < w[1].addr, "{} / {}", w[0].name, w[1].name);
        }
        for r in ALL {
            assert_eq!(r.addr % 4, 0);
            assert!(r.addr < 1 << ADDR_BITS);
        }
        assert_eq!(ID_VALUE, 0x414D_4463);
        for bits in [&CTRL_BITS[..], &STATUS_BITS, &IRQ_BITS, &HWCFG_BITS] {
            check_bits(bits, 32).unwrap();
        }
    }
}
