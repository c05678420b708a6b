//! The damage a campaign does to a frame: each [`Mutation`] is a kind of fault that storage,
//! links and software bugs produce, applied at positions drawn from the case's generator.

use cdma_spec::frame::{
    HEADER_FIELDS_TYPED, HEADER_LEN, INDEX_CRC_FIELD, INDEX_ENTRY_LEN, INDEX_ENTRY_LEN_CRC,
    INDEX_RAW, INDEX_SIZE, META_CRC_LEN, N_CHUNKS_FIELD, VERSION_CRC, VERSION_FIELD,
};
use rand::Rng;

/// A kind of damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutation {
    /// 1–8 random bits flipped anywhere in the frame.
    BitFlips,
    /// 1–4 random bytes overwritten with random values.
    Overwrite,
    /// The frame cut at a random length.
    Truncate,
    /// 1–64 random bytes appended.
    Extend,
    /// One header field set to a boundary or random value.
    Header,
    /// One index entry changed: raw flag flipped, stored size nudged or random, or two
    /// entries swapped.
    Index,
    /// A run of payload bytes copied over another place of the payload (misplaced data).
    Splice,
    /// Two or three of the above, one after the other.
    Several,
}

impl Mutation {
    /// Every kind, in report order.
    pub const ALL: [Mutation; 8] = [
        Mutation::BitFlips,
        Mutation::Overwrite,
        Mutation::Truncate,
        Mutation::Extend,
        Mutation::Header,
        Mutation::Index,
        Mutation::Splice,
        Mutation::Several,
    ];

    /// Lower-case name (reports, saved case names).
    pub fn name(self) -> &'static str {
        match self {
            Mutation::BitFlips => "bit-flips",
            Mutation::Overwrite => "overwrite",
            Mutation::Truncate => "truncate",
            Mutation::Extend => "extend",
            Mutation::Header => "header",
            Mutation::Index => "index",
            Mutation::Splice => "splice",
            Mutation::Several => "several",
        }
    }

    /// A kind drawn uniformly.
    pub fn draw(rng: &mut impl Rng) -> Mutation {
        Mutation::ALL[rng.gen_range(0..Mutation::ALL.len())]
    }

    /// Applies this damage to `frame` (a copy of a well-formed frame).
    pub fn apply(self, frame: &mut Vec<u8>, rng: &mut impl Rng) {
        match self {
            Mutation::BitFlips => {
                if !frame.is_empty() {
                    for _ in 0..rng.gen_range(1..=8) {
                        let bit = rng.gen_range(0..frame.len() * 8);
                        frame[bit / 8] ^= 1 << (bit % 8);
                    }
                }
            }
            Mutation::Overwrite => {
                if !frame.is_empty() {
                    for _ in 0..rng.gen_range(1..=4) {
                        let at = rng.gen_range(0..frame.len());
                        frame[at] = rng.gen();
                    }
                }
            }
            Mutation::Truncate => {
                let keep = rng.gen_range(0..frame.len().max(1));
                frame.truncate(keep);
            }
            Mutation::Extend => {
                for _ in 0..rng.gen_range(1..=64) {
                    frame.push(rng.gen());
                }
            }
            Mutation::Header => damage_header(frame, rng),
            Mutation::Index => damage_index(frame, rng),
            Mutation::Splice => splice_payload(frame, rng),
            Mutation::Several => {
                for _ in 0..rng.gen_range(2..=3) {
                    let m = Mutation::ALL[rng.gen_range(0..Mutation::ALL.len() - 1)];
                    m.apply(frame, rng);
                }
            }
        }
    }
}

/// A value for a field of `size` bytes that held `old`: zero, all ones, one more or less, one
/// bit flipped, or random.
fn field_value(old: u64, size: usize, rng: &mut impl Rng) -> u64 {
    let mask = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * size)) - 1
    };
    let v = match rng.gen_range(0..6) {
        0 => 0,
        1 => mask,
        2 => old.wrapping_add(1),
        3 => old.wrapping_sub(1),
        4 => old ^ (1u64 << rng.gen_range(0..8 * size)),
        _ => rng.gen(),
    };
    v & mask
}

fn damage_header(frame: &mut [u8], rng: &mut impl Rng) {
    if frame.len() < HEADER_LEN {
        return;
    }
    let f = HEADER_FIELDS_TYPED[rng.gen_range(0..HEADER_FIELDS_TYPED.len())];
    let old = f.get(frame);
    f.put(frame, field_value(old, f.size, rng));
}

/// Bytes of an index entry as the frame's version byte says: 8 with CRCs (version 4), else 4.
fn entry_len(frame: &[u8]) -> usize {
    if frame.len() > VERSION_FIELD.offset && VERSION_FIELD.get(frame) == u64::from(VERSION_CRC) {
        INDEX_ENTRY_LEN_CRC
    } else {
        INDEX_ENTRY_LEN
    }
}

/// Number of index entries the frame's header announces that the frame holds.
fn entries(frame: &[u8]) -> usize {
    if frame.len() < HEADER_LEN {
        return 0;
    }
    let n = N_CHUNKS_FIELD.get(frame) as usize;
    n.min((frame.len() - HEADER_LEN) / entry_len(frame))
}

fn damage_index(frame: &mut [u8], rng: &mut impl Rng) {
    let n = entries(frame);
    if n == 0 {
        return;
    }
    let el = entry_len(frame);
    let at = |i: usize| HEADER_LEN + el * i;
    let i = rng.gen_range(0..n);
    // A version 4 entry's CRC: a fifth kind of damage, a random value.
    if el == INDEX_ENTRY_LEN_CRC && rng.gen_range(0..5) == 4 {
        let c = at(i) + INDEX_CRC_FIELD.offset;
        frame[c..c + INDEX_CRC_FIELD.size].copy_from_slice(&rng.gen::<u32>().to_le_bytes());
        return;
    }
    let word = |f: &[u8], i: usize| {
        u32::from_le_bytes(f[at(i)..at(i) + INDEX_ENTRY_LEN].try_into().unwrap())
    };
    let w = word(frame, i);
    let new = match rng.gen_range(0..4) {
        0 => w ^ INDEX_RAW.mask() as u32,
        1 => {
            let d = rng.gen_range(1..=8u32);
            let len = INDEX_SIZE.get(u64::from(w)) as u32;
            let len = if rng.gen() {
                len.wrapping_add(d)
            } else {
                len.wrapping_sub(d)
            };
            // The raw flag kept, the size wrapped to its field.
            INDEX_SIZE.set(u64::from(w), u64::from(len)) as u32
        }
        2 => rng.gen(),
        _ => {
            let j = rng.gen_range(0..n);
            let other = word(frame, j);
            frame[at(j)..at(j) + INDEX_ENTRY_LEN].copy_from_slice(&w.to_le_bytes());
            other
        }
    };
    frame[at(i)..at(i) + INDEX_ENTRY_LEN].copy_from_slice(&new.to_le_bytes());
}

fn splice_payload(frame: &mut [u8], rng: &mut impl Rng) {
    let crc = if entry_len(frame) == INDEX_ENTRY_LEN_CRC {
        META_CRC_LEN
    } else {
        0
    };
    let start = (HEADER_LEN + entry_len(frame) * entries(frame) + crc).min(frame.len());
    let len = frame.len() - start;
    if len < 2 {
        return;
    }
    let run = rng.gen_range(1..=len / 2);
    let from = start + rng.gen_range(0..=len - run);
    let to = start + rng.gen_range(0..=len - run);
    frame.copy_within(from..from + run, to);
}
