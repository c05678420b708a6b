//! `CsrBlock`: the AXI4-Lite slave holding the engine's register map
//! (`cdma_spec::csr::ALL` and its bit tables; docs/DESCRIPTORS.md renders the same tables).
//!
//! Every address and bit position comes from `cdma-spec` (as `Constant`s set in the
//! constructor); nothing is repeated here as a literal.
//!
//! * **AXI4-Lite.** 32-bit data, 12-bit byte addresses, the low two address bits ignored. A
//!   write is taken when AW and W are both valid and no B response is pending (`awready =
//!   wready` in that cycle); its B response (always OKAY) is held until `bready`. A read is
//!   taken when no R response is pending; the data is registered and held until `rready`
//!   (always OKAY). One read and one write can be in progress together.
//! * **Unmapped addresses** read 0 and ignore writes, with an OKAY response (software probing
//!   the map never takes a bus error). Writes to read-only registers are ignored.
//! * **WSTRB** is honoured per byte for the RW registers (CTRL, HEAD_LO/HI, IRQ_ENABLE) and for
//!   the RW1C IRQ_STATUS (a byte without its strobe clears nothing); CTRL.abort fires only if
//!   its byte is strobed. Any write to DOORBELL rings it, whatever its data and strobes.
//! * **Outputs to the controller**: `enable` (CTRL.enable), `abort` and `doorbell` (one-cycle
//!   pulses the cycle after the write is taken), `head` (HEAD_HI:HEAD_LO), `irq` (OR of the
//!   enabled IRQ_STATUS causes, from registers only).
//! * **Inputs from the controller**: STATUS fields (`busy`, `error`, `err_code`), `desc_done`
//!   (pulse: DESC_DONE counts it, wrapping), `irq_done_set` / `irq_error_set` (pulses setting
//!   IRQ_STATUS bits; a set wins over a clear in the same cycle), `err_desc` (ERR_DESC_HI:LO).
//! * **Performance counters** (64 bits, wrapping, cleared by `rst` only), counted here from
//!   per-cycle event inputs: `perf_busy` (+1), `perf_rd_beat` (+ bus bytes: an R beat was
//!   taken), `perf_wr_bytes` (+ the strobed byte count of the W beat taken this cycle, 0 when
//!   none), `perf_stall` (+1). Reading a `_LO` register latches the counter's high word, which
//!   the `_HI` register returns, so LO-then-HI reads one consistent 64-bit value.

use cdma_spec::csr;
use cdma_spec::field::BitField;
use rust_hdl::core::prelude::*;

use crate::port_docs::PortDocs;
use rust_hdl::widgets::dff_setup;
use rust_hdl::widgets::prelude::DFF;

use crate::prims::{Join, ZeroExtend};

/// Port documentation of the CSR block, in Verilog port order: the `///` comments of
/// its port fields below, the one place its ports are documented (the emitted manifest and
/// the engine's port tables read it).
pub static CSR_PORTS: PortDocs = PortDocs::new(include_str!("mod.rs"), "CsrBlock");

/// An engine's configuration as HWCFG reports it (`cdma_spec::csr::HWCFG_BITS`, in order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwCfg {
    /// log2 of the data bus width in bytes.
    pub bus_bytes_log2: u32,
    /// 1: the engine computes and checks CRC32C (frame version 4).
    pub crc: u32,
    /// Bit `c` set iff the descriptor element code `c` runs.
    pub elem_mask: u32,
    /// Bit `c` set iff the descriptor codec code `c` runs.
    pub codec_mask: u32,
    /// Largest chunk_log2 the chunk buffers hold.
    pub chunk_log2_max: u32,
    /// Read bursts in flight.
    pub reads_in_flight: u32,
}

impl HwCfg {
    /// The field values in `cdma_spec::csr::HWCFG_BITS` order.
    fn fields(&self) -> [u32; 6] {
        [
            self.bus_bytes_log2,
            self.crc,
            self.elem_mask,
            self.codec_mask,
            self.chunk_log2_max,
            self.reads_in_flight,
        ]
    }

    /// The HWCFG register value.
    ///
    /// # Panics
    /// If a value does not fit its field.
    pub fn value(&self) -> u32 {
        let mut v = 0u64;
        for (f, x) in csr::HWCFG_BITS.iter().zip(self.fields()) {
            assert!(
                u64::from(x) << f.lsb <= f.mask(),
                "HWCFG.{} = {x} does not fit",
                f.name
            );
            v = f.set(v, x.into());
        }
        v as u32
    }
}

fn addr(r: csr::Csr) -> Constant<Bits<12>> {
    Constant::new(u64::from(r.addr).into())
}

fn mask(f: BitField) -> Constant<Bits<32>> {
    Constant::new(f.mask().into())
}

/// The CSR block (see the module documentation).
#[derive(LogicBlock)]
pub struct CsrBlock {
    /// Clock, rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub rst: Signal<In, Bit>,
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
    /// CTRL.enable: the engine accepts doorbells.
    pub enable: Signal<Out, Bit>,
    /// One-cycle pulse: CTRL.abort was written 1.
    pub abort: Signal<Out, Bit>,
    /// One-cycle pulse: DOORBELL was written.
    pub doorbell: Signal<Out, Bit>,
    /// HEAD_HI:HEAD_LO, the chain head address.
    pub head: Signal<Out, Bits<64>>,
    /// Interrupt: OR of the enabled IRQ_STATUS causes.
    pub irq: Signal<Out, Bit>,
    /// STATUS.busy.
    pub busy: Signal<In, Bit>,
    /// STATUS.error.
    pub error: Signal<In, Bit>,
    /// STATUS.err_code.
    pub err_code: Signal<In, Bits<8>>,
    /// Pulse: a descriptor finished (DESC_DONE += 1).
    pub desc_done: Signal<In, Bit>,
    /// Pulse: set IRQ_STATUS.done.
    pub irq_done_set: Signal<In, Bit>,
    /// Pulse: set IRQ_STATUS.error.
    pub irq_error_set: Signal<In, Bit>,
    /// ERR_DESC_HI:ERR_DESC_LO, the last failed descriptor's address.
    pub err_desc: Signal<In, Bits<64>>,
    /// This cycle counts as busy (PERF_BUSY += 1).
    pub perf_busy: Signal<In, Bit>,
    /// An R beat was taken this cycle (PERF_RD_BYTES += bus bytes).
    pub perf_rd_beat: Signal<In, Bit>,
    /// Strobed bytes of the W beat taken this cycle (PERF_WR_BYTES +=), else 0.
    pub perf_wr_bytes: Signal<In, Bits<8>>,
    /// This cycle counts as a stall (PERF_STALL += 1).
    pub perf_stall: Signal<In, Bit>,
    // --- AXI4-Lite response registers
    b_valid: DFF<Bit>,
    r_valid: DFF<Bit>,
    r_data: DFF<Bits<32>>,
    // --- registers
    ctrl: DFF<Bits<32>>,
    abort_q: DFF<Bit>,
    doorbell_q: DFF<Bit>,
    head_lo: DFF<Bits<32>>,
    head_hi: DFF<Bits<32>>,
    irq_status: DFF<Bits<32>>,
    irq_enable: DFF<Bits<32>>,
    desc_count: DFF<Bits<32>>,
    perf_busy_cnt: DFF<Bits<64>>,
    perf_rd_cnt: DFF<Bits<64>>,
    // PERF_WR_BYTES as its low byte and the 56 bits above it: a 64-bit adder of a variable
    // operand ripples through every bit in the generic flow (65 gate levels), so the low byte
    // takes the strobe count and its carry increments the high part (an incrementer is a
    // log-depth tree), the carry-select of a 9-bit add; the value is exact every cycle.
    perf_wr_lo: DFF<Bits<8>>,
    perf_wr_hi56: DFF<Bits<56>>,
    perf_stall_cnt: DFF<Bits<64>>,
    perf_busy_hi: DFF<Bits<32>>,
    perf_rd_hi: DFF<Bits<32>>,
    perf_wr_hi: DFF<Bits<32>>,
    perf_stall_hi: DFF<Bits<32>>,
    // --- locals
    wr_en: Signal<Local, Bit>,
    rd_en: Signal<Local, Bit>,
    waddr: Signal<Local, Bits<12>>,
    raddr: Signal<Local, Bits<12>>,
    bm: Signal<Local, Bits<32>>,
    wbits: Signal<Local, Bits<32>>,
    irq_clear: Signal<Local, Bits<32>>,
    irq_set: Signal<Local, Bits<32>>,
    status_word: Signal<Local, Bits<32>>,
    code_ext: ZeroExtend<8, 32>,
    head_cat: Join<32, 32, 64>,
    wr_lo_ext: ZeroExtend<8, 9>,
    wr_bytes_ext: ZeroExtend<8, 9>,
    wr_sum9: Signal<Local, Bits<9>>,
    perf_wr_cat: Join<8, 56, 64>,
    // --- register addresses (cdma_spec::csr)
    a_id: Constant<Bits<12>>,
    a_version: Constant<Bits<12>>,
    a_hwcfg: Constant<Bits<12>>,
    a_ctrl: Constant<Bits<12>>,
    a_status: Constant<Bits<12>>,
    a_desc_done: Constant<Bits<12>>,
    a_head_lo: Constant<Bits<12>>,
    a_head_hi: Constant<Bits<12>>,
    a_doorbell: Constant<Bits<12>>,
    a_irq_status: Constant<Bits<12>>,
    a_irq_enable: Constant<Bits<12>>,
    a_err_desc_lo: Constant<Bits<12>>,
    a_err_desc_hi: Constant<Bits<12>>,
    a_perf_busy_lo: Constant<Bits<12>>,
    a_perf_busy_hi: Constant<Bits<12>>,
    a_perf_rd_lo: Constant<Bits<12>>,
    a_perf_rd_hi: Constant<Bits<12>>,
    a_perf_wr_lo: Constant<Bits<12>>,
    a_perf_wr_hi: Constant<Bits<12>>,
    a_perf_stall_lo: Constant<Bits<12>>,
    a_perf_stall_hi: Constant<Bits<12>>,
    // --- values and bit masks (cdma_spec::csr)
    id_value: Constant<Bits<32>>,
    version_value: Constant<Bits<32>>,
    hwcfg_value: Constant<Bits<32>>,
    ctrl_enable: Constant<Bits<32>>,
    ctrl_abort: Constant<Bits<32>>,
    status_busy: Constant<Bits<32>>,
    status_error: Constant<Bits<32>>,
    status_code_lsb: Constant<Bits<5>>,
    irq_done: Constant<Bits<32>>,
    irq_error: Constant<Bits<32>>,
    irq_mask: Constant<Bits<32>>,
    // --- plumbing constants
    word_addr: Constant<Bits<12>>,
    byte0: Constant<Bits<32>>,
    byte1: Constant<Bits<32>>,
    byte2: Constant<Bits<32>>,
    byte3: Constant<Bits<32>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    one64: Constant<Bits<64>>,
    one56: Constant<Bits<56>>,
    zero56: Constant<Bits<56>>,
    zero8: Constant<Bits<8>>,
    zero64: Constant<Bits<64>>,
    bus_bytes: Constant<Bits<64>>,
    okay: Constant<Bits<2>>,
}

impl CsrBlock {
    /// A CSR block for an engine of configuration `hw` (HWCFG; the bus width also sets the
    /// PERF_RD_BYTES increment).
    ///
    /// # Panics
    /// If a value does not fit its HWCFG field, or the register map has changed without
    /// this block being updated (see [`DECODED`]).
    pub fn new(hw: HwCfg) -> Self {
        let bus_bytes_log2 = hw.bus_bytes_log2;
        assert_eq!(
            csr::ALL.iter().map(|r| r.name).collect::<Vec<_>>(),
            DECODED,
            "cdma_spec::csr::ALL changed: update CsrBlock"
        );
        assert_eq!(csr::ADDR_BITS, 12);
        assert_eq!(csr::STATUS_ERR_CODE.width, cdma_spec::error::CODE_BITS);
        assert_eq!(csr::STATUS_ERR_CODE.width, 8);
        let irq_mask = csr::IRQ_BITS
            .iter()
            .map(BitField::mask)
            .fold(0, |a, m| a | m);
        Self {
            clock: Default::default(),
            rst: Default::default(),
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
            enable: Default::default(),
            abort: Default::default(),
            doorbell: Default::default(),
            head: Default::default(),
            irq: Default::default(),
            busy: Default::default(),
            error: Default::default(),
            err_code: Default::default(),
            desc_done: Default::default(),
            irq_done_set: Default::default(),
            irq_error_set: Default::default(),
            err_desc: Default::default(),
            perf_busy: Default::default(),
            perf_rd_beat: Default::default(),
            perf_wr_bytes: Default::default(),
            perf_stall: Default::default(),
            b_valid: Default::default(),
            r_valid: Default::default(),
            r_data: Default::default(),
            ctrl: Default::default(),
            abort_q: Default::default(),
            doorbell_q: Default::default(),
            head_lo: Default::default(),
            head_hi: Default::default(),
            irq_status: Default::default(),
            irq_enable: Default::default(),
            desc_count: Default::default(),
            perf_busy_cnt: Default::default(),
            perf_rd_cnt: Default::default(),
            perf_wr_lo: Default::default(),
            perf_wr_hi56: Default::default(),
            perf_stall_cnt: Default::default(),
            perf_busy_hi: Default::default(),
            perf_rd_hi: Default::default(),
            perf_wr_hi: Default::default(),
            perf_stall_hi: Default::default(),
            wr_en: Default::default(),
            rd_en: Default::default(),
            waddr: Default::default(),
            raddr: Default::default(),
            bm: Default::default(),
            wbits: Default::default(),
            irq_clear: Default::default(),
            irq_set: Default::default(),
            status_word: Default::default(),
            code_ext: Default::default(),
            head_cat: Default::default(),
            wr_lo_ext: Default::default(),
            wr_bytes_ext: Default::default(),
            wr_sum9: Default::default(),
            perf_wr_cat: Default::default(),
            a_id: addr(csr::ID),
            a_version: addr(csr::VERSION),
            a_hwcfg: addr(csr::HWCFG),
            a_ctrl: addr(csr::CTRL),
            a_status: addr(csr::STATUS),
            a_desc_done: addr(csr::DESC_DONE),
            a_head_lo: addr(csr::HEAD_LO),
            a_head_hi: addr(csr::HEAD_HI),
            a_doorbell: addr(csr::DOORBELL),
            a_irq_status: addr(csr::IRQ_STATUS),
            a_irq_enable: addr(csr::IRQ_ENABLE),
            a_err_desc_lo: addr(csr::ERR_DESC_LO),
            a_err_desc_hi: addr(csr::ERR_DESC_HI),
            a_perf_busy_lo: addr(csr::PERF_BUSY_LO),
            a_perf_busy_hi: addr(csr::PERF_BUSY_HI),
            a_perf_rd_lo: addr(csr::PERF_RD_BYTES_LO),
            a_perf_rd_hi: addr(csr::PERF_RD_BYTES_HI),
            a_perf_wr_lo: addr(csr::PERF_WR_BYTES_LO),
            a_perf_wr_hi: addr(csr::PERF_WR_BYTES_HI),
            a_perf_stall_lo: addr(csr::PERF_STALL_LO),
            a_perf_stall_hi: addr(csr::PERF_STALL_HI),
            id_value: Constant::new(u64::from(csr::ID_VALUE).into()),
            version_value: Constant::new(u64::from(csr::VERSION_VALUE).into()),
            hwcfg_value: Constant::new(u64::from(hw.value()).into()),
            ctrl_enable: mask(csr::CTRL_ENABLE),
            ctrl_abort: mask(csr::CTRL_ABORT),
            status_busy: mask(csr::STATUS_BUSY),
            status_error: mask(csr::STATUS_ERROR),
            status_code_lsb: Constant::new(u64::from(csr::STATUS_ERR_CODE.lsb).into()),
            irq_done: mask(csr::IRQ_DONE),
            irq_error: mask(csr::IRQ_ERROR),
            irq_mask: Constant::new(irq_mask.into()),
            word_addr: Constant::new(((1u64 << csr::ADDR_BITS) - 4).into()),
            byte0: Constant::new(0xFFu64.into()),
            byte1: Constant::new(0xFF00u64.into()),
            byte2: Constant::new(0xFF_0000u64.into()),
            byte3: Constant::new(0xFF00_0000u64.into()),
            zero32: Constant::new(0u64.into()),
            one32: Constant::new(1u64.into()),
            one64: Constant::new(1u64.into()),
            one56: Constant::new(1u64.into()),
            zero56: Constant::new(0u64.into()),
            zero8: Constant::new(0u64.into()),
            zero64: Constant::new(0u64.into()),
            bus_bytes: Constant::new((1u64 << bus_bytes_log2).into()),
            okay: Constant::new(0u64.into()),
        }
    }
}

/// The registers [`CsrBlock`] decodes, in `cdma_spec::csr::ALL` order (the constructor
/// checks that the spec still lists exactly these).
pub const DECODED: &[&str] = &[
    "ID",
    "VERSION",
    "HWCFG",
    "CTRL",
    "STATUS",
    "DESC_DONE",
    "HEAD_LO",
    "HEAD_HI",
    "DOORBELL",
    "IRQ_STATUS",
    "IRQ_ENABLE",
    "ERR_DESC_LO",
    "ERR_DESC_HI",
    "PERF_BUSY_LO",
    "PERF_BUSY_HI",
    "PERF_RD_BYTES_LO",
    "PERF_RD_BYTES_HI",
    "PERF_WR_BYTES_LO",
    "PERF_WR_BYTES_HI",
    "PERF_STALL_LO",
    "PERF_STALL_HI",
];

impl Default for CsrBlock {
    /// The default engine configuration (`cdma_dma_top`): 1024-bit bus (128 bytes), every
    /// element width, ZVC, CRC32C, 4 KiB chunks, the default reads in flight.
    fn default() -> Self {
        Self::new(HwCfg {
            bus_bytes_log2: 7,
            crc: 1,
            elem_mask: u32::from(super::check::ELEM_MASK_ALL),
            codec_mask: 1 << cdma_spec::desc::DESC_CODEC_ZVC,
            chunk_log2_max: super::params::ENGINE_CHUNK_LOG2_MAX as u32,
            reads_in_flight: super::axi_read::READS_IN_FLIGHT_DEFAULT as u32,
        })
    }
}

impl Logic for CsrBlock {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            b_valid,
            r_valid,
            r_data,
            ctrl,
            abort_q,
            doorbell_q,
            head_lo,
            head_hi,
            irq_status,
            irq_enable,
            desc_count,
            perf_busy_cnt,
            perf_rd_cnt,
            perf_wr_lo,
            perf_wr_hi56,
            perf_stall_cnt,
            perf_busy_hi,
            perf_rd_hi,
            perf_wr_hi,
            perf_stall_hi
        );
        self.code_ext.x.next = self.err_code.val();
        self.wr_bytes_ext.x.next = self.perf_wr_bytes.val();
        self.wr_lo_ext.x.next = self.perf_wr_lo.q.val();
        self.perf_wr_cat.lo.next = self.perf_wr_lo.q.val();
        self.perf_wr_cat.hi.next = self.perf_wr_hi56.q.val();
        // ---- write channel: AW and W together, one B outstanding
        self.wr_en.next = self.s_axil_awvalid.val()
            & self.s_axil_wvalid.val()
            & !self.b_valid.q.val()
            & !self.rst.val();
        self.s_axil_awready.next = self.wr_en.val();
        self.s_axil_wready.next = self.wr_en.val();
        self.waddr.next = self.s_axil_awaddr.val() & self.word_addr.val();
        self.bm.next = self.zero32.val();
        if self.s_axil_wstrb.val().get_bit(0) {
            self.bm.next = self.bm.val() | self.byte0.val();
        }
        if self.s_axil_wstrb.val().get_bit(1) {
            self.bm.next = self.bm.val() | self.byte1.val();
        }
        if self.s_axil_wstrb.val().get_bit(2) {
            self.bm.next = self.bm.val() | self.byte2.val();
        }
        if self.s_axil_wstrb.val().get_bit(3) {
            self.bm.next = self.bm.val() | self.byte3.val();
        }
        // The strobed bits of the write data.
        self.wbits.next = self.s_axil_wdata.val() & self.bm.val();
        if self.b_valid.q.val() & self.s_axil_bready.val() {
            self.b_valid.d.next = false;
        }
        self.abort_q.d.next = false;
        self.doorbell_q.d.next = false;
        self.irq_clear.next = self.zero32.val();
        if self.wr_en.val() {
            self.b_valid.d.next = true;
            if self.waddr.val() == self.a_ctrl.val() {
                self.ctrl.d.next = ((self.ctrl.q.val() & !self.bm.val()) | self.wbits.val())
                    & self.ctrl_enable.val();
                self.abort_q.d.next = (self.wbits.val() & self.ctrl_abort.val()).any();
            }
            if self.waddr.val() == self.a_head_lo.val() {
                self.head_lo.d.next = (self.head_lo.q.val() & !self.bm.val()) | self.wbits.val();
            }
            if self.waddr.val() == self.a_head_hi.val() {
                self.head_hi.d.next = (self.head_hi.q.val() & !self.bm.val()) | self.wbits.val();
            }
            if self.waddr.val() == self.a_doorbell.val() {
                self.doorbell_q.d.next = true;
            }
            if self.waddr.val() == self.a_irq_status.val() {
                self.irq_clear.next = self.wbits.val();
            }
            if self.waddr.val() == self.a_irq_enable.val() {
                self.irq_enable.d.next = ((self.irq_enable.q.val() & !self.bm.val())
                    | self.wbits.val())
                    & self.irq_mask.val();
            }
        }
        // ---- interrupt causes: set by the controller's pulses (set wins), RW1C
        self.irq_set.next = self.zero32.val();
        if self.irq_done_set.val() {
            self.irq_set.next = self.irq_set.val() | self.irq_done.val();
        }
        if self.irq_error_set.val() {
            self.irq_set.next = self.irq_set.val() | self.irq_error.val();
        }
        self.irq_status.d.next = ((self.irq_status.q.val() & !self.irq_clear.val())
            | self.irq_set.val())
            & self.irq_mask.val();
        // ---- counters
        if self.desc_done.val() {
            self.desc_count.d.next = self.desc_count.q.val() + self.one32.val();
        }
        if self.perf_busy.val() {
            self.perf_busy_cnt.d.next = self.perf_busy_cnt.q.val() + self.one64.val();
        }
        if self.perf_rd_beat.val() {
            self.perf_rd_cnt.d.next = self.perf_rd_cnt.q.val() + self.bus_bytes.val();
        }
        self.wr_sum9.next = self.wr_lo_ext.y.val() + self.wr_bytes_ext.y.val();
        self.perf_wr_lo.d.next = self.wr_sum9.val().get_bits::<8>(0);
        if self.wr_sum9.val().get_bit(8) {
            self.perf_wr_hi56.d.next = self.perf_wr_hi56.q.val() + self.one56.val();
        }
        if self.perf_stall.val() {
            self.perf_stall_cnt.d.next = self.perf_stall_cnt.q.val() + self.one64.val();
        }
        // ---- read channel: one R outstanding, data registered
        self.status_word.next = self.code_ext.y.val() << self.status_code_lsb.val();
        if self.busy.val() {
            self.status_word.next = self.status_word.val() | self.status_busy.val();
        }
        if self.error.val() {
            self.status_word.next = self.status_word.val() | self.status_error.val();
        }
        self.rd_en.next = self.s_axil_arvalid.val() & !self.r_valid.q.val() & !self.rst.val();
        self.s_axil_arready.next = self.rd_en.val();
        self.raddr.next = self.s_axil_araddr.val() & self.word_addr.val();
        if self.r_valid.q.val() & self.s_axil_rready.val() {
            self.r_valid.d.next = false;
        }
        if self.rd_en.val() {
            self.r_valid.d.next = true;
            // Unmapped addresses (and DOORBELL, write-only) read 0.
            self.r_data.d.next = self.zero32.val();
            if self.raddr.val() == self.a_id.val() {
                self.r_data.d.next = self.id_value.val();
            }
            if self.raddr.val() == self.a_version.val() {
                self.r_data.d.next = self.version_value.val();
            }
            if self.raddr.val() == self.a_hwcfg.val() {
                self.r_data.d.next = self.hwcfg_value.val();
            }
            if self.raddr.val() == self.a_ctrl.val() {
                self.r_data.d.next = self.ctrl.q.val();
            }
            if self.raddr.val() == self.a_status.val() {
                self.r_data.d.next = self.status_word.val();
            }
            if self.raddr.val() == self.a_desc_done.val() {
                self.r_data.d.next = self.desc_count.q.val();
            }
            if self.raddr.val() == self.a_head_lo.val() {
                self.r_data.d.next = self.head_lo.q.val();
            }
            if self.raddr.val() == self.a_head_hi.val() {
                self.r_data.d.next = self.head_hi.q.val();
            }
            if self.raddr.val() == self.a_irq_status.val() {
                self.r_data.d.next = self.irq_status.q.val();
            }
            if self.raddr.val() == self.a_irq_enable.val() {
                self.r_data.d.next = self.irq_enable.q.val();
            }
            if self.raddr.val() == self.a_err_desc_lo.val() {
                self.r_data.d.next = self.err_desc.val().get_bits::<32>(0);
            }
            if self.raddr.val() == self.a_err_desc_hi.val() {
                self.r_data.d.next = self.err_desc.val().get_bits::<32>(32);
            }
            if self.raddr.val() == self.a_perf_busy_lo.val() {
                self.r_data.d.next = self.perf_busy_cnt.q.val().get_bits::<32>(0);
                self.perf_busy_hi.d.next = self.perf_busy_cnt.q.val().get_bits::<32>(32);
            }
            if self.raddr.val() == self.a_perf_busy_hi.val() {
                self.r_data.d.next = self.perf_busy_hi.q.val();
            }
            if self.raddr.val() == self.a_perf_rd_lo.val() {
                self.r_data.d.next = self.perf_rd_cnt.q.val().get_bits::<32>(0);
                self.perf_rd_hi.d.next = self.perf_rd_cnt.q.val().get_bits::<32>(32);
            }
            if self.raddr.val() == self.a_perf_rd_hi.val() {
                self.r_data.d.next = self.perf_rd_hi.q.val();
            }
            if self.raddr.val() == self.a_perf_wr_lo.val() {
                self.r_data.d.next = self.perf_wr_cat.y.val().get_bits::<32>(0);
                self.perf_wr_hi.d.next = self.perf_wr_cat.y.val().get_bits::<32>(32);
            }
            if self.raddr.val() == self.a_perf_wr_hi.val() {
                self.r_data.d.next = self.perf_wr_hi.q.val();
            }
            if self.raddr.val() == self.a_perf_stall_lo.val() {
                self.r_data.d.next = self.perf_stall_cnt.q.val().get_bits::<32>(0);
                self.perf_stall_hi.d.next = self.perf_stall_cnt.q.val().get_bits::<32>(32);
            }
            if self.raddr.val() == self.a_perf_stall_hi.val() {
                self.r_data.d.next = self.perf_stall_hi.q.val();
            }
        }
        // ---- reset: every register of the map to its reset value
        if self.rst.val() {
            self.b_valid.d.next = false;
            self.r_valid.d.next = false;
            self.ctrl.d.next = self.zero32.val();
            self.abort_q.d.next = false;
            self.doorbell_q.d.next = false;
            self.head_lo.d.next = self.zero32.val();
            self.head_hi.d.next = self.zero32.val();
            self.irq_status.d.next = self.zero32.val();
            self.irq_enable.d.next = self.zero32.val();
            self.desc_count.d.next = self.zero32.val();
            self.perf_busy_cnt.d.next = self.zero64.val();
            self.perf_rd_cnt.d.next = self.zero64.val();
            self.perf_wr_lo.d.next = self.zero8.val();
            self.perf_wr_hi56.d.next = self.zero56.val();
            self.perf_stall_cnt.d.next = self.zero64.val();
            self.perf_busy_hi.d.next = self.zero32.val();
            self.perf_rd_hi.d.next = self.zero32.val();
            self.perf_wr_hi.d.next = self.zero32.val();
            self.perf_stall_hi.d.next = self.zero32.val();
        }
        // ---- outputs (from registers only, except the handshake readies above)
        self.s_axil_bvalid.next = self.b_valid.q.val();
        self.s_axil_bresp.next = self.okay.val();
        self.s_axil_rvalid.next = self.r_valid.q.val();
        self.s_axil_rdata.next = self.r_data.q.val();
        self.s_axil_rresp.next = self.okay.val();
        self.enable.next = (self.ctrl.q.val() & self.ctrl_enable.val()).any();
        self.abort.next = self.abort_q.q.val();
        self.doorbell.next = self.doorbell_q.q.val();
        self.head_cat.lo.next = self.head_lo.q.val();
        self.head_cat.hi.next = self.head_hi.q.val();
        self.head.next = self.head_cat.y.val();
        self.irq.next = (self.irq_status.q.val() & self.irq_enable.q.val()).any();
    }
}

#[cfg(test)]
mod tests;
