//! `ZvcDecompressor` (placeholder logic; ports final).

use rust_hdl::core::prelude::*;

/// Port documentation of the decompressor, in Verilog port order.
pub const DECOMPRESSOR_PORTS: &[(&str, &str)] = &[
    ("clock", "clock, rising edge"),
    ("rst", "synchronous reset, active high; clears error"),
    ("in_data", "packed payload beat (same lane order as the compressor's out_data)"),
    ("in_count", "valid lanes in this beat (1..P)"),
    ("in_last", "last beat of the payload"),
    ("in_valid", "in_data/in_count/in_last are valid"),
    ("in_ready", "the decompressor takes the beat this cycle if in_valid"),
    ("out_data", "one decoded block, element i in lane i (a partial final block comes out zero-padded)"),
    ("out_last", "last block of the payload"),
    ("out_valid", "out_data/out_last are valid"),
    ("out_ready", "the sink takes the block this cycle if out_valid"),
    ("error", "sticky until rst: malformed payload (truncated, or in_count 0 or > P); input is then dropped"),
];

macro_rules! zvc_decompressor {
    ($name:ident, $e:tt, $bw:tt, $pw:tt) => {
        /// ZVC decompressor (see docs/ARCHITECTURE.md).
        #[derive(LogicBlock, Default)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// Packed payload beat.
            pub in_data: Signal<In, Bits<$pw>>,
            /// Valid lanes in the beat.
            pub in_count: Signal<In, Bits<7>>,
            /// Last beat of the payload.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: ready.
            pub in_ready: Signal<Out, Bit>,
            /// One decoded block.
            pub out_data: Signal<Out, Bits<$bw>>,
            /// Last block of the payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: ready.
            pub out_ready: Signal<In, Bit>,
            /// Sticky error.
            pub error: Signal<Out, Bit>,
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                self.in_ready.next = self.out_ready.val();
                self.out_data.next = 0.into();
                self.out_last.next = false;
                self.out_valid.next = false;
                self.error.next = false;
            }
        }
    };
}

zvc_decompressor!(ZvcDecompressorE8, 8, 256, 288);
zvc_decompressor!(ZvcDecompressorE16, 16, 512, 544);
zvc_decompressor!(ZvcDecompressorE32, 32, 1024, 1056);
