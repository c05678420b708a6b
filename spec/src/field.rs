//! Field descriptions shared by every table of the spec, and their Markdown rendering.

/// A byte field of an in-memory structure (frame header, descriptor, CSR map).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Field name, as used in the documents and as a Verilog constant suffix.
    pub name: &'static str,
    /// Byte offset from the start of the structure.
    pub offset: usize,
    /// Size in bytes (little-endian).
    pub size: usize,
    /// Meaning, exactly as the documents show it.
    pub description: &'static str,
}

/// A bit field inside a word (descriptor control/status, CSR bits, index entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    /// Field name.
    pub name: &'static str,
    /// Least significant bit.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
    /// Meaning, exactly as the documents show it.
    pub description: &'static str,
}

impl Field {
    /// Reads the field from `bytes` as an unsigned little-endian integer (size ≤ 8).
    pub fn get(&self, bytes: &[u8]) -> u64 {
        let mut b = [0u8; 8];
        b[..self.size].copy_from_slice(&bytes[self.offset..self.offset + self.size]);
        u64::from_le_bytes(b)
    }

    /// Writes `value` into the field of `bytes` (little-endian, truncated to the field size).
    pub fn put(&self, bytes: &mut [u8], value: u64) {
        bytes[self.offset..self.offset + self.size]
            .copy_from_slice(&value.to_le_bytes()[..self.size]);
    }

    /// One past the last byte of the field.
    pub fn end(&self) -> usize {
        self.offset + self.size
    }
}

impl BitField {
    /// The field's mask in place (`width` ones shifted to `lsb`).
    pub fn mask(&self) -> u64 {
        (((1u128 << self.width) - 1) as u64) << self.lsb
    }

    /// Extracts the field from `word`.
    pub fn get(&self, word: u64) -> u64 {
        (word & self.mask()) >> self.lsb
    }

    /// Returns `word` with the field set to `value` (truncated to the field width).
    pub fn set(&self, word: u64, value: u64) -> u64 {
        (word & !self.mask()) | ((value << self.lsb) & self.mask())
    }

    /// The bit range as the documents write it: `7:4` or `3`.
    pub fn range(&self) -> String {
        if self.width == 1 {
            format!("{}", self.lsb)
        } else {
            format!("{}:{}", self.lsb + self.width - 1, self.lsb)
        }
    }
}

/// Renders byte fields as a Markdown table (`| offset | size | field | meaning |`), offsets
/// in hex when `hex` is set.
pub fn markdown_fields(fields: &[Field], hex: bool) -> String {
    let mut s = String::from("| offset | size | field | meaning |\n|---|---|---|---|\n");
    for f in fields {
        let off = if hex {
            format!("0x{:02X}", f.offset)
        } else {
            f.offset.to_string()
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            off, f.size, f.name, f.description
        ));
    }
    s
}

/// Renders bit fields as a Markdown table (`| bits | field | meaning |`).
pub fn markdown_bits(fields: &[BitField]) -> String {
    let mut s = String::from("| bits | field | meaning |\n|---|---|---|\n");
    for f in fields {
        s.push_str(&format!(
            "| {} | {} | {} |\n",
            f.range(),
            f.name,
            f.description
        ));
    }
    s
}

/// Checks that `fields` tile `0..len` in order without gaps or overlaps.
pub fn check_tiling(fields: &[Field], len: usize) -> Result<(), String> {
    let mut next = 0;
    for f in fields {
        if f.offset != next {
            return Err(format!(
                "field {} at {} does not follow its predecessor (expected {next})",
                f.name, f.offset
            ));
        }
        if f.size == 0 {
            return Err(format!("field {} is empty", f.name));
        }
        next = f.end();
    }
    if next != len {
        return Err(format!("fields end at {next}, structure is {len} bytes"));
    }
    Ok(())
}

/// Checks that bit fields do not overlap and fit in `word_bits`.
pub fn check_bits(fields: &[BitField], word_bits: u32) -> Result<(), String> {
    let mut used = 0u64;
    for f in fields {
        if f.width == 0 || f.lsb + f.width > word_bits {
            return Err(format!(
                "bit field {} does not fit {word_bits} bits",
                f.name
            ));
        }
        if used & f.mask() != 0 {
            return Err(format!("bit field {} overlaps another", f.name));
        }
        used |= f.mask();
    }
    Ok(())
}
