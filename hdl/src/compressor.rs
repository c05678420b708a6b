//! `ZvcCompressor` (placeholder logic; ports final).

use rust_hdl::core::prelude::*;

/// Port documentation of the compressor, in Verilog port order (kept next to the block;
/// docs/ARCHITECTURE.md's port table says the same, checked by a test).
pub const COMPRESSOR_PORTS: &[(&str, &str)] = &[
    ("clock", "clock, rising edge"),
    ("rst", "synchronous reset, active high"),
    ("in_data", "one 32-element block, element i in lane i (bits [i*E +: E])"),
    ("in_last", "this block is the last of the tensor: flush the packer"),
    ("in_valid", "in_data/in_last are valid"),
    ("in_ready", "the compressor takes the block this cycle if in_valid"),
    ("out_data", "packed payload beat: stream element k of the beat in lane k"),
    ("out_count", "valid lanes in this beat (P except on a final partial beat; never 0)"),
    ("out_last", "last beat of the tensor's payload"),
    ("out_valid", "out_data/out_count/out_last are valid"),
    ("out_ready", "the sink takes the beat this cycle if out_valid"),
];

macro_rules! zvc_compressor {
    ($name:ident, $e:tt, $bw:tt, $pw:tt) => {
        /// ZVC compressor (see docs/ARCHITECTURE.md).
        #[derive(LogicBlock, Default)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// One block: element i in lane i.
            pub in_data: Signal<In, Bits<$bw>>,
            /// Last block of the tensor.
            pub in_last: Signal<In, Bit>,
            /// Input handshake: valid.
            pub in_valid: Signal<In, Bit>,
            /// Input handshake: ready.
            pub in_ready: Signal<Out, Bit>,
            /// Packed payload beat.
            pub out_data: Signal<Out, Bits<$pw>>,
            /// Valid lanes in the beat.
            pub out_count: Signal<Out, Bits<7>>,
            /// Last beat of the payload.
            pub out_last: Signal<Out, Bit>,
            /// Output handshake: valid.
            pub out_valid: Signal<Out, Bit>,
            /// Output handshake: ready.
            pub out_ready: Signal<In, Bit>,
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                self.in_ready.next = self.out_ready.val();
                self.out_data.next = 0.into();
                self.out_count.next = 0.into();
                self.out_last.next = false;
                self.out_valid.next = false;
            }
        }
    };
}

zvc_compressor!(ZvcCompressorE8, 8, 256, 288);
zvc_compressor!(ZvcCompressorE16, 16, 512, 544);
zvc_compressor!(ZvcCompressorE32, 32, 1024, 1056);
