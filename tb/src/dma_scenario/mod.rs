//! DMA scenarios: a memory image, a descriptor chain in it, injected bus errors, and what the
//! golden model (`cdma_model::dma::run_chain`) says the engine must leave behind.
//!
//! A [`Scenario`] is pure data (no DUT): the testbench in [`crate::dma`] loads its
//! [`Scenario::image`] into the AXI memory model, rings the doorbell at [`Scenario::head`] and
//! compares the result with [`Scenario::expect`]. Scenarios are built with a [`ChainBuilder`]
//! (hand-made fault cases in [`crate::dma_faults`]) or at random by [`random_chain`].
//!
//! Layout rules the builder keeps, so that a stray access is always visible:
//! - every region (descriptor, source, destination, metadata) is surrounded by guard bytes
//!   holding a random pattern: 64–256 bytes, measured from the bus-beat boundaries around the
//!   region, so a whole-beat access (reads cover whole beats, a partial last write beat is
//!   strobed) never leaves the region's guarded block;
//! - blocks (region + guards) never overlap; destinations and metadata start with random
//!   garbage, so bytes the engine must not write are not accidentally equal to its output.
//!
//! Files: `scenario.rs` (the data and the model's expectation), `builder.rs` (placement with
//! guards), `descs.rs` (descriptor and frame helpers), `random.rs` (random chains),
//! `bad_fields.rs` (the RTL fault campaign's chains with bad fields, drawn by
//! `cdma_fuzz::chains` in regions of its own, fill bytes as guards). The
//! scenario checks against the model are the integration tests in `tb/tests/chains.rs`.

mod bad_fields;
mod builder;
mod descs;
pub(crate) mod random;
mod scenario;

pub use bad_fields::{bad_field_chain, damaged_frame_chain};
pub use builder::{
    seeded_elem, window_for, ChainBuilder, DEFAULT_WINDOW, FILL, LARGE_WINDOW, MAX_TRANSFER,
};
pub use descs::{
    chunk_range, compress_desc, copy_desc, decompress_desc, desc_op, frame_parts, frame_parts_crc,
    frame_parts_with, meta_bytes, with_flags, with_no_crc, FrameParts,
};
pub use random::{random_chain, random_chain_with, RandomOpts};
pub use scenario::{
    check_intents, Expected, PlannedDesc, Region, RegionKind, RoundTrip, Scenario, Segment, Tensor,
};
