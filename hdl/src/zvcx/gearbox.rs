//! Width converters between the ZVC-X codec's 128-byte words and an `N`-byte bus:
//! [`WordToBeats`] cuts a word into `128/N` beats, [`BeatsToWord`] gathers beats into words.
//! A word or beat carries a byte count (only a stream's last may be short) and a `last`
//! flag; a word's bytes start at its byte 0, so both directions are constant part-selects
//! chosen by a segment counter.

use rust_hdl::core::prelude::*;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use super::lanes::BLOCK_BITS;
use crate::prims::EnReg;

/// Bytes of a codec word.
pub const WORD_BYTES: usize = BLOCK_BITS / 8;

/// Segment `seg` of a word as an `N`-byte beat (`W = 8N`), and the reverse, as Verilog
/// case arms over `seg`: `(word part-select, beat part-select)` per segment.
fn segments(n: usize) -> Vec<(String, String)> {
    (0..WORD_BYTES / n)
        .map(|s| {
            (
                format!("[{} +: {}]", 8 * n * s, 8 * n),
                format!("[0 +: {}]", 8 * n),
            )
        })
        .collect()
}

/// The beat `seg` of `word` (`N`-byte beats).
fn word_part<const W: usize>(word: &Bits<BLOCK_BITS>, seg: usize) -> Bits<W> {
    let n = W / 8;
    (0..n).fold(Bits::<W>::default(), |y, j| {
        y | (Bits::<W>::from(word.get_bits::<8>(8 * (seg * n + j)).to_u64()) << (8 * j) as u64)
    })
}

/// Beat `seg` of a word: a constant part-select per segment.
#[derive(LogicBlock, Default)]
pub struct WordPart<const N: usize, const W: usize> {
    /// The word, byte `j` in bits `[8j +: 8]`.
    pub word: Signal<In, Bits<BLOCK_BITS>>,
    /// Which beat (`0 .. 128/N`).
    pub seg: Signal<In, Bits<3>>,
    /// Bytes `seg·N .. seg·N + N` of the word.
    pub y: Signal<Out, Bits<W>>,
}

impl<const N: usize, const W: usize> Logic for WordPart<N, W> {
    fn update(&mut self) {
        self.y.next = word_part::<W>(&self.word.val(), self.seg.val().to_u64() as usize);
    }
    fn connect(&mut self) {
        assert!(
            W == 8 * N && (16..=128).contains(&N),
            "WordPart: W = 8N, N in 16..=128"
        );
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        let mut v = format!("always @(*) begin\n    y = {W}'d0;\n    case (seg)\n");
        for (s, (w, b)) in segments(N).iter().enumerate() {
            v += &format!("        3'd{s}: y{b} = word{w};\n");
        }
        v += "        default: ;\n    endcase\nend\n";
        Verilog::Custom(v)
    }
}

/// Cuts 128-byte words into `N`-byte beats (`W = 8N`), one beat per cycle; the word is taken
/// with its last beat.
#[derive(LogicBlock)]
pub struct WordToBeats<const N: usize, const W: usize> {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub rst: Signal<In, Bit>,
    /// Input word, byte `j` in bits `[8j +: 8]`, held until taken.
    pub in_data: Signal<In, Bits<BLOCK_BITS>>,
    /// Valid bytes of the word, 1..128 (128 except a stream's last word).
    pub in_bytes: Signal<In, Bits<8>>,
    /// The stream's last word.
    pub in_last: Signal<In, Bit>,
    /// Input handshake: valid.
    pub in_valid: Signal<In, Bit>,
    /// Input handshake: the word is taken this cycle if `in_valid` (with its last beat).
    pub in_ready: Signal<Out, Bit>,
    /// Output beat, byte `j` in bits `[8j +: 8]` (bytes past `out_cnt` are the word's, and
    /// zero when the word's are).
    pub out_data: Signal<Out, Bits<W>>,
    /// Valid bytes of the beat: `N`, or fewer on the stream's last beat.
    pub out_cnt: Signal<Out, Bits<8>>,
    /// The stream's last beat.
    pub out_last: Signal<Out, Bit>,
    /// Output handshake: valid.
    pub out_valid: Signal<Out, Bit>,
    /// Output handshake: the beat is taken this cycle if `out_valid`.
    pub out_ready: Signal<In, Bit>,
    part: WordPart<N, W>,
    obuf: EnReg<W>,
    seg: DFF<Bits<3>>,
    soff: DFF<Bits<8>>,
    ov: DFF<Bit>,
    olast: DFF<Bit>,
    ocnt: DFF<Bits<8>>,
    rest: Signal<Local, Bits<8>>,
    last_beat: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    zero3: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    zero8: Constant<Bits<8>>,
    n8: Constant<Bits<8>>,
}

impl<const N: usize, const W: usize> Default for WordToBeats<N, W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rst: Default::default(),
            in_data: Default::default(),
            in_bytes: Default::default(),
            in_last: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            out_data: Default::default(),
            out_cnt: Default::default(),
            out_last: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            part: Default::default(),
            obuf: Default::default(),
            seg: Default::default(),
            soff: Default::default(),
            ov: Default::default(),
            olast: Default::default(),
            ocnt: Default::default(),
            rest: Default::default(),
            last_beat: Default::default(),
            free: Default::default(),
            take: Default::default(),
            zero3: Constant::new(0.into()),
            one3: Constant::new(1.into()),
            zero8: Constant::new(0.into()),
            n8: Constant::new((N as u64).into()),
        }
    }
}

impl<const N: usize, const W: usize> Logic for WordToBeats<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, seg, soff, ov, olast, ocnt);
        clock!(self, clock, obuf);
        self.rest.next = self.in_bytes.val() - self.soff.q.val();
        self.last_beat.next = self.rest.val() <= self.n8.val();
        self.free.next = (!self.ov.q.val() | self.out_ready.val()) & !self.rst.val();
        self.take.next = self.in_valid.val() & self.free.val();
        self.in_ready.next = self.free.val() & self.last_beat.val();
        self.part.word.next = self.in_data.val();
        self.part.seg.next = self.seg.q.val();
        self.obuf.d.next = self.part.y.val();
        self.obuf.en.next = self.take.val();
        self.obuf.clr.next = self.rst.val();
        self.ov.d.next = (self.ov.q.val() & !self.out_ready.val()) | self.take.val();
        if self.take.val() {
            self.seg.d.next = self.seg.q.val() + self.one3.val();
            self.soff.d.next = self.soff.q.val() + self.n8.val();
            self.ocnt.d.next = self.n8.val();
            self.olast.d.next = false;
            if self.last_beat.val() {
                self.seg.d.next = self.zero3.val();
                self.soff.d.next = self.zero8.val();
                self.ocnt.d.next = self.rest.val();
                self.olast.d.next = self.in_last.val();
            }
        }
        if self.rst.val() {
            self.seg.d.next = self.zero3.val();
            self.soff.d.next = self.zero8.val();
            self.ov.d.next = false;
        }
        self.out_data.next = self.obuf.q.val();
        self.out_cnt.next = self.ocnt.q.val();
        self.out_last.next = self.olast.q.val();
        self.out_valid.next = self.ov.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_parts_are_the_words_beats() {
        let mut word = Bits::<BLOCK_BITS>::default();
        for j in 0..WORD_BYTES {
            word = word | (Bits::<BLOCK_BITS>::from(j as u64) << (8 * j) as u64);
        }
        let b: Bits<128> = word_part(&word, 3);
        assert_eq!(b.get_bits::<8>(0).to_u64(), 48);
        assert_eq!(b.get_bits::<8>(120).to_u64(), 63);
        let mut uut = WordPart::<16, 128>::default();
        uut.connect_all();
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom verilog expected")
        };
        assert!(
            text.contains("3'd3: y[0 +: 128] = word[384 +: 128];"),
            "{text}"
        );
        assert_eq!(text.matches("3'd").count(), 8);
    }
}
