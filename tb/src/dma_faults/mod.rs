//! Fault scenarios for the DMA engine: one function per fault, each a [`Scenario`] whose
//! descriptors carry the error code they are meant to end with (`PlannedDesc::intent`), so
//! the golden model cross-checks the builder (and the builder the model) before any RTL runs.
//!
//! Most fault chains are `good COPY → faulty descriptor → good COPY`: the first shows the
//! engine still works before the fault, the last that the chain goes on after it
//! (`stop_on_error` = 0), except where the fault ends the chain (fetch failure, write-back
//! failure, `stop_on_error` = 1) and the last descriptor's intent is "not visited".
//!
//! Also here: the large COMPRESS / DECOMPRESS of the throughput goal, and the long chain an
//! abort is aimed at.

mod bus;
mod chains;
mod desc;
mod frame;
mod order;
mod parts;
mod zvcx;

pub use bus::{bus_fault, stop_on_error, Target};
pub use chains::{
    abort_chain, all_faults, round_trip_alone, throughput_compress, throughput_decompress,
    CodecType,
};
pub use desc::{bad_desc, dst_overflow, DescFault, Overflow};
pub use frame::{bad_header, bad_index, bad_payload, mask_past_end, HeaderFault, IndexFault};
pub use order::{stream_race, Race};
pub use parts::relu_data;
pub use zvcx::{zvcx_fault, ZvcxFault};

#[cfg(doc)]
use crate::dma_scenario::Scenario;
