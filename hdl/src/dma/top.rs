//! `DmaTop`: the DMA engine (docs/ARCHITECTURE.md, "DMA engine"), one type per data-bus
//! width (`DmaTopDw128`, `DmaTopDw256`, `DmaTopDw512`, `DmaTopDw1024`), each running the element widths of
//! its construction-time `elem_mask` (every width by default), chosen per descriptor.
//!
//! It instantiates the [`CsrBlock`] (AXI4-Lite slave), the controller, the AXI read and write
//! masters and the payload [`datapath`](super::datapath) and wires them:
//! * CSR ↔ controller: enable, doorbell, abort, head; busy, error, err_code, err_desc and the
//!   descriptor/IRQ pulses;
//! * controller ↔ read master (requests; beats: `rd_data`/`rd_last`/`rd_err` go from the read
//!   master to the controller and the datapath alike, the controller gates `valid`/`ready`
//!   with `dp_rd_valid`/`dp_rd_ready` while payload streams);
//! * controller ↔ write master (requests, beats: the datapath's packer beats `dp_wr_*` are
//!   muxed onto `wr_*` by the controller);
//! * controller ↔ datapath: `dp_start`/op/lengths, ChunkScan decisions `dec_*` in, chunk
//!   commands `ck_*` out, `dp_idle`, `dp_error`; `abort_out` aborts both masters and flushes
//!   the datapath;
//! * perf counters: `perf_busy` = controller busy, `perf_rd_beat` = R handshake,
//!   `perf_wr_bytes` = the write master's `w_bytes`, `perf_stall` = busy and an AR, AW or W
//!   beat waiting for its ready.
//!
//! External ports: [`DMA_TOP_PORTS`].

use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use cdma_spec::desc;

use super::axi_read::{
    AxiReadMasterDw1024, AxiReadMasterDw128, AxiReadMasterDw256, AxiReadMasterDw512,
    READS_IN_FLIGHT_DEFAULT,
};
use super::axi_write::{
    AxiWriteMasterDw1024, AxiWriteMasterDw128, AxiWriteMasterDw256, AxiWriteMasterDw512,
    WR_BURST_MAX_DEFAULT,
};
use super::check::ELEM_MASK_ALL;
use super::controller::{ControllerDw1024, ControllerDw128, ControllerDw256, ControllerDw512};
use super::csr::{CsrBlock, HwCfg};
use super::datapath::{
    DatapathDw1024, DatapathDw128, DatapathDw256, DatapathDw512, DatapathZxDw1024, DatapathZxDw128,
    DatapathZxDw256, DatapathZxDw512,
};
use super::params::{ENGINE_CHUNK_LOG2_MAX, IDX_WIN_LOG2};
use crate::emit::{make_top_from, Top};

/// Port documentation of the engine top, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static DMA_TOP_PORTS: PortDocs = PortDocs::new(include_str!("top.rs"), "$name");

macro_rules! dma_top {
    (
        $(#[$doc:meta])*
        $name:ident, $ctl:ty, $rd:ty, $wr:ty, $dp:ty, dw: $dw:tt, bb: $bb:tt, zvcx: $zvcx:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            /// Interrupt: OR of IRQ_STATUS & IRQ_ENABLE.
            pub irq: Signal<Out, Bit>,
            /// AXI4-Lite AW: byte address.
            pub s_axil_awaddr: Signal<In, Bits<12>>,
            /// AXI4-Lite AW: valid.
            pub s_axil_awvalid: Signal<In, Bit>,
            /// AXI4-Lite AW: ready.
            pub s_axil_awready: Signal<Out, Bit>,
            /// AXI4-Lite W: data.
            pub s_axil_wdata: Signal<In, Bits<32>>,
            /// AXI4-Lite W: byte strobes.
            pub s_axil_wstrb: Signal<In, Bits<4>>,
            /// AXI4-Lite W: valid.
            pub s_axil_wvalid: Signal<In, Bit>,
            /// AXI4-Lite W: ready.
            pub s_axil_wready: Signal<Out, Bit>,
            /// AXI4-Lite B: response (always OKAY).
            pub s_axil_bresp: Signal<Out, Bits<2>>,
            /// AXI4-Lite B: valid.
            pub s_axil_bvalid: Signal<Out, Bit>,
            /// AXI4-Lite B: ready.
            pub s_axil_bready: Signal<In, Bit>,
            /// AXI4-Lite AR: byte address.
            pub s_axil_araddr: Signal<In, Bits<12>>,
            /// AXI4-Lite AR: valid.
            pub s_axil_arvalid: Signal<In, Bit>,
            /// AXI4-Lite AR: ready.
            pub s_axil_arready: Signal<Out, Bit>,
            /// AXI4-Lite R: data.
            pub s_axil_rdata: Signal<Out, Bits<32>>,
            /// AXI4-Lite R: response (always OKAY).
            pub s_axil_rresp: Signal<Out, Bits<2>>,
            /// AXI4-Lite R: valid.
            pub s_axil_rvalid: Signal<Out, Bit>,
            /// AXI4-Lite R: ready.
            pub s_axil_rready: Signal<In, Bit>,
            /// AXI AW: ID (always 0).
            pub m_axi_awid: Signal<Out, Bit>,
            /// AXI AW: burst start address.
            pub m_axi_awaddr: Signal<Out, Bits<64>>,
            /// AXI AW: beats - 1.
            pub m_axi_awlen: Signal<Out, Bits<8>>,
            /// AXI AW: log2(bus bytes).
            pub m_axi_awsize: Signal<Out, Bits<3>>,
            /// AXI AW: INCR (1).
            pub m_axi_awburst: Signal<Out, Bits<2>>,
            /// AXI AW: 0b0011.
            pub m_axi_awcache: Signal<Out, Bits<4>>,
            /// AXI AW: 0.
            pub m_axi_awprot: Signal<Out, Bits<3>>,
            /// AXI AW: valid.
            pub m_axi_awvalid: Signal<Out, Bit>,
            /// AXI AW: ready.
            pub m_axi_awready: Signal<In, Bit>,
            /// AXI W: data.
            pub m_axi_wdata: Signal<Out, Bits<$dw>>,
            /// AXI W: byte strobes.
            pub m_axi_wstrb: Signal<Out, Bits<$bb>>,
            /// AXI W: last beat of the burst.
            pub m_axi_wlast: Signal<Out, Bit>,
            /// AXI W: valid.
            pub m_axi_wvalid: Signal<Out, Bit>,
            /// AXI W: ready.
            pub m_axi_wready: Signal<In, Bit>,
            /// AXI B: ID (ignored).
            pub m_axi_bid: Signal<In, Bit>,
            /// AXI B: response (bit 1 set: SLVERR/DECERR).
            pub m_axi_bresp: Signal<In, Bits<2>>,
            /// AXI B: valid.
            pub m_axi_bvalid: Signal<In, Bit>,
            /// AXI B: ready (always 1).
            pub m_axi_bready: Signal<Out, Bit>,
            /// AXI AR: ID (always 0).
            pub m_axi_arid: Signal<Out, Bit>,
            /// AXI AR: burst start address.
            pub m_axi_araddr: Signal<Out, Bits<64>>,
            /// AXI AR: beats - 1.
            pub m_axi_arlen: Signal<Out, Bits<8>>,
            /// AXI AR: log2(bus bytes).
            pub m_axi_arsize: Signal<Out, Bits<3>>,
            /// AXI AR: INCR (1).
            pub m_axi_arburst: Signal<Out, Bits<2>>,
            /// AXI AR: 0b0011.
            pub m_axi_arcache: Signal<Out, Bits<4>>,
            /// AXI AR: 0.
            pub m_axi_arprot: Signal<Out, Bits<3>>,
            /// AXI AR: valid.
            pub m_axi_arvalid: Signal<Out, Bit>,
            /// AXI AR: ready.
            pub m_axi_arready: Signal<In, Bit>,
            /// AXI R: ID (ignored).
            pub m_axi_rid: Signal<In, Bit>,
            /// AXI R: data.
            pub m_axi_rdata: Signal<In, Bits<$dw>>,
            /// AXI R: response (bit 1 set: SLVERR/DECERR).
            pub m_axi_rresp: Signal<In, Bits<2>>,
            /// AXI R: last beat of the burst.
            pub m_axi_rlast: Signal<In, Bit>,
            /// AXI R: valid.
            pub m_axi_rvalid: Signal<In, Bit>,
            /// AXI R: ready.
            pub m_axi_rready: Signal<Out, Bit>,
            // children
            csr: CsrBlock,
            ctl: $ctl,
            rd: $rd,
            wr: $wr,
            dp: $dp,
        }

        impl $name {
            /// The engine with `reads_in_flight` AR bursts outstanding, write bursts of at
            /// most `wr_burst_max` beats, running the element widths of `elem_mask` (bit `c`
            /// for the descriptor element code `c`).
            pub fn new(reads_in_flight: usize, wr_burst_max: usize, elem_mask: u8) -> Self {
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    irq: Default::default(),
                    s_axil_awaddr: Default::default(),
                    s_axil_awvalid: Default::default(),
                    s_axil_awready: Default::default(),
                    s_axil_wdata: Default::default(),
                    s_axil_wstrb: Default::default(),
                    s_axil_wvalid: Default::default(),
                    s_axil_wready: Default::default(),
                    s_axil_bresp: Default::default(),
                    s_axil_bvalid: Default::default(),
                    s_axil_bready: Default::default(),
                    s_axil_araddr: Default::default(),
                    s_axil_arvalid: Default::default(),
                    s_axil_arready: Default::default(),
                    s_axil_rdata: Default::default(),
                    s_axil_rresp: Default::default(),
                    s_axil_rvalid: Default::default(),
                    s_axil_rready: Default::default(),
                    m_axi_awid: Default::default(),
                    m_axi_awaddr: Default::default(),
                    m_axi_awlen: Default::default(),
                    m_axi_awsize: Default::default(),
                    m_axi_awburst: Default::default(),
                    m_axi_awcache: Default::default(),
                    m_axi_awprot: Default::default(),
                    m_axi_awvalid: Default::default(),
                    m_axi_awready: Default::default(),
                    m_axi_wdata: Default::default(),
                    m_axi_wstrb: Default::default(),
                    m_axi_wlast: Default::default(),
                    m_axi_wvalid: Default::default(),
                    m_axi_wready: Default::default(),
                    m_axi_bid: Default::default(),
                    m_axi_bresp: Default::default(),
                    m_axi_bvalid: Default::default(),
                    m_axi_bready: Default::default(),
                    m_axi_arid: Default::default(),
                    m_axi_araddr: Default::default(),
                    m_axi_arlen: Default::default(),
                    m_axi_arsize: Default::default(),
                    m_axi_arburst: Default::default(),
                    m_axi_arcache: Default::default(),
                    m_axi_arprot: Default::default(),
                    m_axi_arvalid: Default::default(),
                    m_axi_arready: Default::default(),
                    m_axi_rid: Default::default(),
                    m_axi_rdata: Default::default(),
                    m_axi_rresp: Default::default(),
                    m_axi_rlast: Default::default(),
                    m_axi_rvalid: Default::default(),
                    m_axi_rready: Default::default(),
                    // HWCFG tells software this engine's configuration; the bus width
                    // also sets the PERF_RD_BYTES step.
                    csr: CsrBlock::new(HwCfg {
                        bus_bytes_log2: ($bb as u32).trailing_zeros(),
                        crc: 1,
                        elem_mask: u32::from(elem_mask),
                        codec_mask: codec_mask($zvcx),
                        chunk_log2_max: ENGINE_CHUNK_LOG2_MAX as u32,
                        reads_in_flight: reads_in_flight as u32,
                    }),
                    ctl: <$ctl>::new(elem_mask, $zvcx, true),
                    rd: <$rd>::new(reads_in_flight),
                    wr: <$wr>::new(wr_burst_max),
                    dp: Default::default(),
                }
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new(READS_IN_FLIGHT_DEFAULT, WR_BURST_MAX_DEFAULT, ELEM_MASK_ALL)
            }
        }

        impl Logic for $name {
            #[hdl_gen]
            fn update(&mut self) {
                self.csr.clock.next = self.clock.val();
                self.ctl.clock.next = self.clock.val();
                self.rd.clock.next = self.clock.val();
                self.wr.clock.next = self.clock.val();
                self.dp.clock.next = self.clock.val();
                self.csr.rst.next = self.rst.val();
                self.ctl.rst.next = self.rst.val();
                self.rd.rst.next = self.rst.val();
                self.wr.rst.next = self.rst.val();
                self.dp.rst.next = self.rst.val();
                // ---- external ports
                self.irq.next = self.csr.irq.val();
                self.csr.s_axil_awaddr.next = self.s_axil_awaddr.val();
                self.csr.s_axil_awvalid.next = self.s_axil_awvalid.val();
                self.s_axil_awready.next = self.csr.s_axil_awready.val();
                self.csr.s_axil_wdata.next = self.s_axil_wdata.val();
                self.csr.s_axil_wstrb.next = self.s_axil_wstrb.val();
                self.csr.s_axil_wvalid.next = self.s_axil_wvalid.val();
                self.s_axil_wready.next = self.csr.s_axil_wready.val();
                self.s_axil_bresp.next = self.csr.s_axil_bresp.val();
                self.s_axil_bvalid.next = self.csr.s_axil_bvalid.val();
                self.csr.s_axil_bready.next = self.s_axil_bready.val();
                self.csr.s_axil_araddr.next = self.s_axil_araddr.val();
                self.csr.s_axil_arvalid.next = self.s_axil_arvalid.val();
                self.s_axil_arready.next = self.csr.s_axil_arready.val();
                self.s_axil_rdata.next = self.csr.s_axil_rdata.val();
                self.s_axil_rresp.next = self.csr.s_axil_rresp.val();
                self.s_axil_rvalid.next = self.csr.s_axil_rvalid.val();
                self.csr.s_axil_rready.next = self.s_axil_rready.val();
                self.m_axi_awid.next = self.wr.m_axi_awid.val();
                self.m_axi_awaddr.next = self.wr.m_axi_awaddr.val();
                self.m_axi_awlen.next = self.wr.m_axi_awlen.val();
                self.m_axi_awsize.next = self.wr.m_axi_awsize.val();
                self.m_axi_awburst.next = self.wr.m_axi_awburst.val();
                self.m_axi_awcache.next = self.wr.m_axi_awcache.val();
                self.m_axi_awprot.next = self.wr.m_axi_awprot.val();
                self.m_axi_awvalid.next = self.wr.m_axi_awvalid.val();
                self.wr.m_axi_awready.next = self.m_axi_awready.val();
                self.m_axi_wdata.next = self.wr.m_axi_wdata.val();
                self.m_axi_wstrb.next = self.wr.m_axi_wstrb.val();
                self.m_axi_wlast.next = self.wr.m_axi_wlast.val();
                self.m_axi_wvalid.next = self.wr.m_axi_wvalid.val();
                self.wr.m_axi_wready.next = self.m_axi_wready.val();
                self.wr.m_axi_bid.next = self.m_axi_bid.val();
                self.wr.m_axi_bresp.next = self.m_axi_bresp.val();
                self.wr.m_axi_bvalid.next = self.m_axi_bvalid.val();
                self.m_axi_bready.next = self.wr.m_axi_bready.val();
                self.m_axi_arid.next = self.rd.m_axi_arid.val();
                self.m_axi_araddr.next = self.rd.m_axi_araddr.val();
                self.m_axi_arlen.next = self.rd.m_axi_arlen.val();
                self.m_axi_arsize.next = self.rd.m_axi_arsize.val();
                self.m_axi_arburst.next = self.rd.m_axi_arburst.val();
                self.m_axi_arcache.next = self.rd.m_axi_arcache.val();
                self.m_axi_arprot.next = self.rd.m_axi_arprot.val();
                self.m_axi_arvalid.next = self.rd.m_axi_arvalid.val();
                self.rd.m_axi_arready.next = self.m_axi_arready.val();
                self.rd.m_axi_rid.next = self.m_axi_rid.val();
                self.rd.m_axi_rdata.next = self.m_axi_rdata.val();
                self.rd.m_axi_rresp.next = self.m_axi_rresp.val();
                self.rd.m_axi_rlast.next = self.m_axi_rlast.val();
                self.rd.m_axi_rvalid.next = self.m_axi_rvalid.val();
                self.m_axi_rready.next = self.rd.m_axi_rready.val();
                // ---- CSR <-> controller
                self.ctl.enable.next = self.csr.enable.val();
                self.ctl.doorbell.next = self.csr.doorbell.val();
                self.ctl.abort.next = self.csr.abort.val();
                self.ctl.head.next = self.csr.head.val();
                self.csr.busy.next = self.ctl.busy.val();
                self.csr.error.next = self.ctl.error.val();
                self.csr.err_code.next = self.ctl.err_code.val();
                self.csr.err_desc.next = self.ctl.err_desc.val();
                self.csr.desc_done.next = self.ctl.desc_done.val();
                self.csr.irq_done_set.next = self.ctl.irq_done_set.val();
                self.csr.irq_error_set.next = self.ctl.irq_error_set.val();
                // ---- perf counters
                self.csr.perf_busy.next = self.ctl.busy.val();
                self.csr.perf_rd_beat.next = self.m_axi_rvalid.val() & self.rd.m_axi_rready.val();
                self.csr.perf_wr_bytes.next = self.wr.w_bytes.val();
                self.csr.perf_stall.next = self.ctl.busy.val()
                    & ((self.rd.m_axi_arvalid.val() & !self.m_axi_arready.val())
                        | (self.wr.m_axi_awvalid.val() & !self.m_axi_awready.val())
                        | (self.wr.m_axi_wvalid.val() & !self.m_axi_wready.val()));
                // ---- controller <-> read master
                self.rd.rd_req_addr.next = self.ctl.rd_req_addr.val();
                self.rd.rd_req_beats.next = self.ctl.rd_req_beats.val();
                self.rd.rd_req_valid.next = self.ctl.rd_req_valid.val();
                self.ctl.rd_req_ready.next = self.rd.rd_req_ready.val();
                self.ctl.rd_data.next = self.rd.rd_data.val();
                self.ctl.rd_last.next = self.rd.rd_last.val();
                self.ctl.rd_err.next = self.rd.rd_err.val();
                self.ctl.rd_valid.next = self.rd.rd_valid.val();
                self.rd.rd_ready.next = self.ctl.rd_ready.val();
                self.ctl.rd_idle.next = self.rd.idle.val();
                self.rd.abort.next = self.ctl.abort_out.val();
                // ---- controller <-> write master
                self.wr.wr_req_addr.next = self.ctl.wr_req_addr.val();
                self.wr.wr_req_valid.next = self.ctl.wr_req_valid.val();
                self.ctl.wr_req_ready.next = self.wr.wr_req_ready.val();
                self.wr.wr_data.next = self.ctl.wr_data.val();
                self.wr.wr_strb.next = self.ctl.wr_strb.val();
                self.wr.wr_last.next = self.ctl.wr_last.val();
                self.wr.wr_close.next = self.ctl.wr_close.val();
                self.wr.wr_jump.next = self.ctl.wr_jump.val();
                self.wr.wr_jump_addr.next = self.ctl.wr_jump_addr.val();
                self.wr.wr_valid.next = self.ctl.wr_valid.val();
                self.ctl.wr_ready.next = self.wr.wr_ready.val();
                self.ctl.wr_done.next = self.wr.wr_done.val();
                self.ctl.wr_err.next = self.wr.wr_err.val();
                self.ctl.wr_idle.next = self.wr.idle.val();
                self.wr.abort.next = self.ctl.abort_out.val();
                // ---- controller <-> datapath
                self.dp.start.next = self.ctl.dp_start.val();
                self.dp.abort.next = self.ctl.abort_out.val();
                self.dp.op.next = self.ctl.dp_op.val();
                self.dp.elem.next = self.ctl.dp_elem.val();
                self.dp.zvcx.next = self.ctl.dp_zvcx.val();
                self.dp.ty.next = self.ctl.dp_ty.val();
                self.dp.crc.next = self.ctl.dp_crc.val();
                self.dp.src_len.next = self.ctl.dp_src_len.val();
                self.dp.dst_len.next = self.ctl.dp_dst_len.val();
                self.dp.chunk_log2.next = self.ctl.dp_chunk_log2.val();
                self.dp.in_data.next = self.rd.rd_data.val();
                self.dp.in_valid.next = self.ctl.dp_rd_valid.val();
                self.ctl.dp_rd_ready.next = self.dp.in_ready.val();
                self.ctl.dp_wr_data.next = self.dp.out_data.val();
                self.ctl.dp_wr_strb.next = self.dp.out_strb.val();
                self.ctl.dp_wr_last.next = self.dp.out_last.val();
                self.ctl.dp_wr_valid.next = self.dp.out_valid.val();
                self.dp.out_ready.next = self.ctl.dp_wr_ready.val();
                self.ctl.dp_idle.next = self.dp.idle.val();
                self.ctl.dp_error.next = self.dp.error.val();
                self.ctl.dp_ck_open.next = self.dp.ck_open.val();
                self.ctl.dp_need.next = self.dp.need_in.val();
                self.ctl.dp_crc_err.next = self.dp.crc_err.val();
                self.dp.mp.next = self.ctl.dp_mp.val();
                self.dp.mp_take.next = self.ctl.dp_mp_take.val();
                self.dp.mp_first.next = self.ctl.dp_mp_first.val();
                self.dp.mp_last.next = self.ctl.dp_mp_last.val();
                self.dp.mp_cnt.next = self.ctl.dp_mp_cnt.val();
                self.ctl.dp_mp_state.next = self.dp.mp_state.val();
                self.ctl.dp_mp_done.next = self.dp.mp_done.val();
                self.ctl.dec_crc.next = self.dp.dec_crc.val();
                self.dp.ck_crc.next = self.ctl.ck_crc.val();
                self.ctl.dec_stored_len.next = self.dp.dec_stored_len.val();
                self.ctl.dec_raw.next = self.dp.dec_raw.val();
                self.ctl.dec_valid.next = self.dp.dec_valid.val();
                self.dp.dec_ready.next = self.ctl.dec_ready.val();
                self.dp.ck_stored_len.next = self.ctl.ck_stored_len.val();
                self.dp.ck_raw.next = self.ctl.ck_raw.val();
                self.dp.ck_chunk_len.next = self.ctl.ck_chunk_len.val();
                self.dp.ck_last.next = self.ctl.ck_last.val();
                self.dp.ck_valid.next = self.ctl.ck_valid.val();
                self.ctl.ck_ready.next = self.dp.ck_ready.val();
            }
        }
    };
}

dma_top!(
    /// The 128-bit engine.
    DmaTopDw128, ControllerDw128, AxiReadMasterDw128, AxiWriteMasterDw128, DatapathDw128,
    dw: 128, bb: 16, zvcx: false
);
dma_top!(
    /// The 256-bit engine.
    DmaTopDw256, ControllerDw256, AxiReadMasterDw256, AxiWriteMasterDw256, DatapathDw256,
    dw: 256, bb: 32, zvcx: false
);
dma_top!(
    /// The 512-bit engine.
    DmaTopDw512, ControllerDw512, AxiReadMasterDw512, AxiWriteMasterDw512, DatapathDw512,
    dw: 512, bb: 64, zvcx: false
);
dma_top!(
    /// The 1024-bit engine.
    DmaTopDw1024, ControllerDw1024, AxiReadMasterDw1024, AxiWriteMasterDw1024, DatapathDw1024,
    dw: 1024, bb: 128, zvcx: false
);
dma_top!(
    /// The 128-bit engine with the ZVC-X codec beside ZVC.
    DmaTopZxDw128, ControllerDw128, AxiReadMasterDw128, AxiWriteMasterDw128, DatapathZxDw128,
    dw: 128, bb: 16, zvcx: true
);
dma_top!(
    /// The 256-bit engine with the ZVC-X codec beside ZVC.
    DmaTopZxDw256, ControllerDw256, AxiReadMasterDw256, AxiWriteMasterDw256, DatapathZxDw256,
    dw: 256, bb: 32, zvcx: true
);
dma_top!(
    /// The 512-bit engine with the ZVC-X codec beside ZVC.
    DmaTopZxDw512, ControllerDw512, AxiReadMasterDw512, AxiWriteMasterDw512, DatapathZxDw512,
    dw: 512, bb: 64, zvcx: true
);
dma_top!(
    /// The 1024-bit engine with the ZVC-X codec beside ZVC.
    DmaTopZxDw1024, ControllerDw1024, AxiReadMasterDw1024, AxiWriteMasterDw1024, DatapathZxDw1024,
    dw: 1024, bb: 128, zvcx: true
);

/// The engine for data-bus width `dw` (128, 256, 512, 1024) as the Verilog top `module`, with
/// the default generation parameters (every element width).
///
/// # Panics
/// On any other width.
pub fn dma_top(dw: usize, module: &str) -> Top {
    dma_top_with(
        dw,
        module,
        READS_IN_FLIGHT_DEFAULT,
        WR_BURST_MAX_DEFAULT,
        ELEM_MASK_ALL,
        false,
    )
}

/// HWCFG `codec_mask` of an engine with ZVC and, iff `zvcx`, ZVC-X.
const fn codec_mask(zvcx: bool) -> u32 {
    let zvc = 1 << desc::DESC_CODEC_ZVC;
    if zvcx {
        zvc | 1 << desc::DESC_CODEC_ZVCX
    } else {
        zvc
    }
}

/// The element widths of `elem_mask`, e.g. `8/16/32` (for the emitted header comment).
fn widths_of(elem_mask: u8) -> String {
    let widths: Vec<String> = cdma_spec::desc::elem_widths_of(elem_mask)
        .iter()
        .map(u32::to_string)
        .collect();
    widths.join("/")
}

/// The engine for data-bus width `dw` (128, 256, 512, 1024) as the Verilog top `module`, with
/// `reads_in_flight` read bursts in flight, write bursts of at most `wr_burst_max` beats and
/// the element widths of `elem_mask` (bit `c` for the descriptor element code `c`): the
/// construction-time parameters, they change no port width.
///
/// # Panics
/// On any other width, or parameters the read / write master refuse.
pub fn dma_top_with(
    dw: usize,
    module: &str,
    reads_in_flight: usize,
    wr_burst_max: usize,
    elem_mask: u8,
    zvcx: bool,
) -> Top {
    let params = vec![
        ("DW".into(), dw as u64),
        ("ELEM_MASK".into(), u64::from(elem_mask)),
        ("CODEC_MASK".into(), u64::from(codec_mask(zvcx))),
        ("CHUNK_LOG2_MAX".into(), ENGINE_CHUNK_LOG2_MAX),
        ("IDX_WIN_LOG2".into(), IDX_WIN_LOG2 as u64),
        ("READS_IN_FLIGHT".into(), reads_in_flight as u64),
        ("WR_BURST_MAX".into(), wr_burst_max as u64),
    ];
    let codecs = if zvcx { "ZVC, ZVC-X" } else { "ZVC" };
    let config = format!(
        "DW = {dw}, elements of {} bits, codecs {codecs}",
        widths_of(elem_mask)
    );
    macro_rules! top {
        ($ty:ty) => {
            make_top_from(
                <$ty>::new(reads_in_flight, wr_burst_max, elem_mask),
                module,
                &config,
                &DMA_TOP_PORTS,
                params,
            )
        };
    }
    match (dw, zvcx) {
        (128, false) => top!(DmaTopDw128),
        (256, false) => top!(DmaTopDw256),
        (512, false) => top!(DmaTopDw512),
        (1024, false) => top!(DmaTopDw1024),
        (128, true) => top!(DmaTopZxDw128),
        (256, true) => top!(DmaTopZxDw256),
        (512, true) => top!(DmaTopZxDw512),
        (1024, true) => top!(DmaTopZxDw1024),
        (other, _) => panic!("cdma-hdl: unsupported data-bus width {other}"),
    }
}
