//! [`XorMatrix`]: a constant 32×`N` matrix over GF(2) applied to a vector, each output bit the
//! parity of the input bits its row selects (the CRC units' beat update and unshift).

use rust_hdl::core::prelude::*;

/// `y[i] = ^(x & row[i])` for 32 constant rows of `N` bits. A `#[hdl_gen]` body would need
/// 32 wide constants as separate fields; here each row is one masked reduction in Verilog.
/// The rows are plain data, not signals, so `Block` is implemented by hand (the derive would
/// visit every field).
pub struct XorMatrix<const N: usize> {
    /// The input vector.
    pub x: Signal<In, Bits<N>>,
    /// The product: bit `i` is the parity of `x & row[i]`.
    pub y: Signal<Out, Bits<32>>,
    rows: Vec<Bits<N>>,
}

impl<const N: usize> XorMatrix<N> {
    /// The matrix with `rows[i][k]` set iff input bit `k` takes part in output bit `i`.
    ///
    /// # Panics
    /// Unless there are 32 rows of `N` bits.
    pub fn new(rows: &[Vec<bool>]) -> Self {
        assert_eq!(rows.len(), 32, "XorMatrix: 32 rows");
        let mut bits = Vec::with_capacity(32);
        for r in rows {
            assert_eq!(r.len(), N, "XorMatrix: rows of N bits");
            let mut b = Bits::<N>::default();
            for (k, &on) in r.iter().enumerate() {
                if on {
                    b = b | (Bits::<N>::from(1u64) << (k as u64));
                }
            }
            bits.push(b);
        }
        Self {
            x: Default::default(),
            y: Default::default(),
            rows: bits,
        }
    }
}

impl<const N: usize> Block for XorMatrix<N> {
    fn connect_all(&mut self) {
        self.connect();
        self.x.connect_all();
        self.y.connect_all();
    }
    fn update_all(&mut self) {
        self.update();
        self.x.update_all();
        self.y.update_all();
    }
    fn has_changed(&self) -> bool {
        self.x.has_changed() || self.y.has_changed()
    }
    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        probe.visit_start_scope(name, self);
        self.x.accept("x", probe);
        self.y.accept("y", probe);
        probe.visit_end_scope(name, self);
    }
}

impl<const N: usize> Logic for XorMatrix<N> {
    fn update(&mut self) {
        let x = self.x.val();
        let y = self
            .rows
            .iter()
            .enumerate()
            .fold(0u64, |y, (i, r)| y | (u64::from((x & *r).xor()) << i));
        self.y.next = y.into();
    }
    fn connect(&mut self) {
        self.y.connect();
    }
    fn hdl(&self) -> Verilog {
        // Hex digits, most significant first (a partial top digit when N % 4 != 0).
        let hex = |r: &Bits<N>| -> String {
            (0..N.div_ceil(4))
                .rev()
                .map(|d| {
                    let v = (0..4)
                        .filter(|&t| 4 * d + t < N && r.get_bit(4 * d + t))
                        .fold(0u32, |v, t| v | 1 << t);
                    char::from_digit(v, 16).expect("a hex digit")
                })
                .collect()
        };
        let body: String = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| format!("  y[{i}] = ^(x & {N}'h{});\n", hex(r)))
            .collect();
        Verilog::Custom(format!("always @(*) begin\n{body}end"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::settle;

    #[test]
    fn each_output_is_the_parity_of_its_row() {
        // Row i selects input bits i and i + 32 (and bit 69 for row 0).
        let rows: Vec<Vec<bool>> = (0..32)
            .map(|i| {
                (0..70)
                    .map(|k| k == i || k == i + 32 || (i == 0 && k == 69))
                    .collect()
            })
            .collect();
        let mut uut = XorMatrix::<70>::new(&rows);
        uut.connect_all();
        let x = (Bits::<70>::from(0xF0F0_F0F0_0000_FFFFu64)) | (Bits::<70>::from(1u64) << 69);
        uut.x.next = x;
        settle(&mut uut);
        let lo = 0x0000_FFFFu32;
        let hi = 0xF0F0_F0F0u32;
        assert_eq!(uut.y.val().to_u64() as u32, (lo ^ hi) ^ 1);
        let Verilog::Custom(text) = uut.hdl() else {
            panic!("custom Verilog expected")
        };
        assert!(
            text.contains("y[0] = ^(x & 70'h200000000100000001);"),
            "{text}"
        );
        assert!(
            text.contains("y[31] = ^(x & 70'h008000000080000000);"),
            "{text}"
        );
    }
}
