//! The GF(2) algebra of CRC32C behind the hardware: the state update over a whole beat as one
//! matrix, and its inverse over zero bytes (the "unshift" that removes a partial beat's
//! padding). Computed at construction time; the blocks only hold the resulting masks.
//!
//! CRC32C is reflected: the 32-bit state takes the message's bits least significant bit of
//! each byte first, bytes in memory order, and one bit `b` updates it as
//! `s' = (s >> 1) ^ (POLY if (s ^ b) & 1)`. Every step is linear in `(s, b)`, so any number of
//! bytes is a matrix over the state bits and the message bits. The *raw* state is what this
//! module computes: CRC32C of a message is the raw state from `0xFFFF_FFFF`, inverted.

/// CRC32C's polynomial `0x1EDC6F41`, bit-reversed for the reflected update.
pub const POLY: u32 = 0x82F6_3B78;
/// The initial raw state of CRC32C (and its final XOR).
pub const INIT: u32 = 0xFFFF_FFFF;

/// One message bit.
fn step(s: u32, bit: bool) -> u32 {
    let fb = (s ^ u32::from(bit)) & 1;
    (s >> 1) ^ if fb == 1 { POLY } else { 0 }
}

/// The inverse of one zero bit: `step(unstep(s), false) == s`. POLY's top bit is set and
/// `s >> 1` never sets bit 31, so bit 31 of the later state is the feedback bit.
fn unstep(s: u32) -> u32 {
    let fb = s >> 31;
    ((s ^ if fb == 1 { POLY } else { 0 }) << 1) | fb
}

/// The raw state after `data` from state `s`.
pub fn advance(s: u32, data: &[u8]) -> u32 {
    data.iter().fold(s, |s, &byte| {
        (0..8).fold(s, |s, i| step(s, (byte >> i) & 1 == 1))
    })
}

/// The raw state `zero_bytes` zero bytes *before* state `s`: `advance(unshift(s, n), &[0; n])
/// == s`.
pub fn unshift(s: u32, zero_bytes: usize) -> u32 {
    (0..8 * zero_bytes).fold(s, |s, _| unstep(s))
}

/// The rows of a linear map with 32 outputs: `rows[i][k]` says whether input bit `k` takes
/// part in output bit `i`, from the map's value on each unit input.
fn rows_of(inputs: usize, column: impl Fn(usize) -> u32) -> Vec<Vec<bool>> {
    let cols: Vec<u32> = (0..inputs).map(column).collect();
    (0..32)
        .map(|i| cols.iter().map(|c| (c >> i) & 1 == 1).collect())
        .collect()
}

/// The beat update of a `bb`-byte beat: inputs are the beat's `8·bb` bits (byte `j` at bits
/// `8j..8j+8`) and then the 32 state bits; output the state after the beat.
pub fn beat_rows(bb: usize) -> Vec<Vec<bool>> {
    rows_of(8 * bb + 32, |k| {
        let mut beat = vec![0u8; bb];
        if k < 8 * bb {
            beat[k / 8] = 1 << (k % 8);
            advance(0, &beat)
        } else {
            advance(1 << (k - 8 * bb), &beat)
        }
    })
}

/// The unshift over `zero_bytes` zero bytes as a 32×32 matrix.
pub fn unshift_rows(zero_bytes: usize) -> Vec<Vec<bool>> {
    rows_of(32, |k| unshift(1 << k, zero_bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(rows: &[Vec<bool>], input: &[bool]) -> u32 {
        rows.iter().enumerate().fold(0, |y, (i, r)| {
            let p = r.iter().zip(input).filter(|(a, b)| **a && **b).count() % 2;
            y | ((p as u32) << i)
        })
    }

    fn bits(bytes: &[u8], s: u32) -> Vec<bool> {
        let mut v: Vec<bool> = bytes
            .iter()
            .flat_map(|b| (0..8).map(move |i| (b >> i) & 1 == 1))
            .collect();
        v.extend((0..32).map(|i| (s >> i) & 1 == 1));
        v
    }

    #[test]
    fn crc32c_check_value_and_the_model_agree() {
        // CRC32C is the raw state from INIT, inverted.
        assert_eq!(advance(INIT, b"123456789") ^ INIT, 0xE306_9283);
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        assert_eq!(
            advance(INIT, &data) ^ INIT,
            cdma_model::layout::crc32c(&data)
        );
    }

    #[test]
    fn the_beat_matrix_is_the_serial_update() {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for bb in [16, 32] {
            let rows = beat_rows(bb);
            for _ in 0..20 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let beat: Vec<u8> = (0..bb).map(|j| (x >> (j % 57)) as u8).collect();
                let s = (x >> 17) as u32;
                assert_eq!(apply(&rows, &bits(&beat, s)), advance(s, &beat));
            }
        }
    }

    #[test]
    fn unshift_undoes_zero_bytes() {
        for (s, n) in [
            (0xFFFF_FFFFu32, 1usize),
            (0x8000_0001, 5),
            (0xDEAD_BEEF, 127),
        ] {
            assert_eq!(advance(unshift(s, n), &vec![0; n]), s);
            assert_eq!(unshift(advance(s, &vec![0; n]), n), s);
            assert_eq!(apply(&unshift_rows(n), &bits(&[], s)), unshift(s, n));
        }
    }
}
