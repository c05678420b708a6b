//! Tests of the CSR block: the register map, write strobes, pulses, IRQ status and enables, perf counters.

use super::*;
use crate::testutil::{clock_cycle, settle};

/// Cycles the pulses were seen high during one bus access.
#[derive(Default, Debug, PartialEq)]
struct Seen {
    doorbell: u32,
    abort: u32,
}

/// Settles the inputs just set, then one clock cycle.
fn step(uut: &mut CsrBlock) {
    settle(uut);
    clock_cycle!(uut);
}

fn csr_block() -> CsrBlock {
    let mut uut = CsrBlock::default();
    uut.connect_all();
    uut.rst.next = true;
    settle(&mut uut);
    step(&mut uut);
    step(&mut uut);
    uut.rst.next = false;
    settle(&mut uut);
    uut
}

fn tick(uut: &mut CsrBlock, seen: &mut Seen) {
    settle(uut);
    seen.doorbell += u32::from(uut.doorbell.val());
    seen.abort += u32::from(uut.abort.val());
    clock_cycle!(uut);
}

/// One AXI4-Lite write; `w_delay` cycles between AW and W, `b_delay` cycles of `bready`
/// low once B is valid. Returns the pulses seen from the request to two cycles after B.
fn write_ex(
    uut: &mut CsrBlock,
    addr: u32,
    data: u32,
    strb: u64,
    w_delay: u32,
    b_delay: u32,
) -> Seen {
    let mut seen = Seen::default();
    uut.s_axil_awaddr.next = u64::from(addr).into();
    uut.s_axil_wdata.next = u64::from(data).into();
    uut.s_axil_wstrb.next = strb.into();
    uut.s_axil_awvalid.next = true;
    uut.s_axil_bready.next = false;
    for _ in 0..w_delay {
        uut.s_axil_wvalid.next = false;
        settle(uut);
        assert!(!uut.s_axil_awready.val(), "AW taken without W");
        tick(uut, &mut seen);
    }
    uut.s_axil_wvalid.next = true;
    let mut n = 0;
    loop {
        settle(uut);
        let taken = uut.s_axil_awready.val() && uut.s_axil_wready.val();
        tick(uut, &mut seen);
        if taken {
            break;
        }
        n += 1;
        assert!(n < 10, "write not taken");
    }
    uut.s_axil_awvalid.next = false;
    uut.s_axil_wvalid.next = false;
    let mut waited = 0;
    loop {
        uut.s_axil_bready.next = waited >= b_delay;
        settle(uut);
        assert!(
            uut.s_axil_bvalid.val() || waited == 0,
            "B dropped before bready"
        );
        if uut.s_axil_bvalid.val() && uut.s_axil_bready.val() {
            assert_eq!(uut.s_axil_bresp.val().to_u64(), 0, "BRESP not OKAY");
            tick(uut, &mut seen);
            break;
        }
        tick(uut, &mut seen);
        waited += u32::from(uut.s_axil_bvalid.val());
        assert!(waited < 20, "no B response");
    }
    uut.s_axil_bready.next = false;
    tick(uut, &mut seen);
    tick(uut, &mut seen);
    seen
}

fn write(uut: &mut CsrBlock, addr: u32, data: u32) -> Seen {
    write_ex(uut, addr, data, 0xF, 0, 0)
}

fn read(uut: &mut CsrBlock, addr: u32) -> u32 {
    let mut seen = Seen::default();
    uut.s_axil_araddr.next = u64::from(addr).into();
    uut.s_axil_arvalid.next = true;
    uut.s_axil_rready.next = false;
    let mut n = 0;
    loop {
        settle(uut);
        let taken = uut.s_axil_arready.val();
        tick(uut, &mut seen);
        if taken {
            break;
        }
        n += 1;
        assert!(n < 10, "read not taken");
    }
    uut.s_axil_arvalid.next = false;
    // Hold rready low one cycle: the data must stay.
    settle(uut);
    assert!(uut.s_axil_rvalid.val(), "no R response");
    let data = uut.s_axil_rdata.val().to_u64() as u32;
    tick(uut, &mut seen);
    uut.s_axil_rready.next = true;
    settle(uut);
    assert!(uut.s_axil_rvalid.val(), "R dropped before rready");
    assert_eq!(
        uut.s_axil_rdata.val().to_u64() as u32,
        data,
        "R data changed"
    );
    assert_eq!(uut.s_axil_rresp.val().to_u64(), 0, "RRESP not OKAY");
    tick(uut, &mut seen);
    uut.s_axil_rready.next = false;
    settle(uut);
    assert!(!uut.s_axil_rvalid.val());
    data
}

/// The HWCFG of a ZVC engine.
fn hw(bus_bytes_log2: u32, elem_mask: u32, chunk_log2_max: u32, reads_in_flight: u32) -> HwCfg {
    HwCfg {
        bus_bytes_log2,
        crc: 0,
        elem_mask,
        codec_mask: 1,
        chunk_log2_max,
        reads_in_flight,
    }
}

#[test]
fn map_reads_reset_values_ids_and_hwcfg() {
    let mut uut = csr_block();
    for r in csr::ALL {
        let want = if r.name == "HWCFG" {
            HwCfg {
                crc: 1,
                ..hw(7, 0b111, 12, 8)
            }
            .value()
        } else {
            r.reset
        };
        assert_eq!(read(&mut uut, r.addr), want, "{}", r.name);
    }
    assert_eq!(read(&mut uut, csr::ID.addr), 0x414D_4463);
    assert_eq!(hw(7, 0b111, 12, 8).value(), 0x080C_1707);
    let zvcx = HwCfg {
        codec_mask: 0b11,
        ..hw(4, 0b100, 9, 2)
    };
    assert_eq!(zvcx.value(), 0x0209_3404);
    // Unmapped addresses read 0 (OKAY); writes to them and to RO registers are ignored.
    for a in [0x00C, 0x02C, 0x0A0, 0xFFC] {
        write(&mut uut, a, 0xFFFF_FFFF);
        assert_eq!(read(&mut uut, a), 0, "{a:#x}");
    }
    write(&mut uut, csr::ID.addr, 0);
    write(&mut uut, csr::DESC_DONE.addr, 5);
    assert_eq!(read(&mut uut, csr::ID.addr), csr::ID_VALUE);
    assert_eq!(read(&mut uut, csr::DESC_DONE.addr), 0);
    // The low two address bits are ignored.
    assert_eq!(read(&mut uut, csr::VERSION.addr + 2), csr::VERSION_VALUE);
}

#[test]
fn rw_registers_honour_wstrb_and_drive_outputs() {
    let mut uut = csr_block();
    write(&mut uut, csr::HEAD_LO.addr, 0x1122_3344);
    write_ex(&mut uut, csr::HEAD_LO.addr, 0xAABB_CCDD, 0b0101, 2, 3);
    write(&mut uut, csr::HEAD_HI.addr, 0x8765_4321);
    assert_eq!(read(&mut uut, csr::HEAD_LO.addr), 0x11BB_33DD);
    assert_eq!(read(&mut uut, csr::HEAD_HI.addr), 0x8765_4321);
    assert_eq!(uut.head.val().to_u64(), 0x8765_4321_11BB_33DD);
    write(&mut uut, csr::IRQ_ENABLE.addr, 0xFFFF_FFFF);
    assert_eq!(read(&mut uut, csr::IRQ_ENABLE.addr), 0b11);
    assert!(!uut.enable.val());
    // Enable without abort: every other bit written 1, CTRL reads just enable.
    let s = write(&mut uut, csr::CTRL.addr, !(csr::CTRL_ABORT.mask() as u32));
    assert_eq!(s, Seen::default());
    assert!(uut.enable.val());
    assert_eq!(read(&mut uut, csr::CTRL.addr), 1);
    // No strobes: nothing changes, no abort.
    let s = write_ex(&mut uut, csr::CTRL.addr, 0b10, 0, 0, 0);
    assert_eq!(s, Seen::default());
    assert!(uut.enable.val());
}

#[test]
fn doorbell_and_abort_are_one_cycle_pulses() {
    let mut uut = csr_block();
    let s = write(&mut uut, csr::DOORBELL.addr, 0);
    assert_eq!(
        s,
        Seen {
            doorbell: 1,
            abort: 0
        }
    );
    assert_eq!(read(&mut uut, csr::DOORBELL.addr), 0);
    write(&mut uut, csr::CTRL.addr, 1);
    let s = write(&mut uut, csr::CTRL.addr, 0b11);
    assert_eq!(
        s,
        Seen {
            doorbell: 0,
            abort: 1
        }
    );
    assert!(uut.enable.val(), "abort write cleared enable");
    assert_eq!(read(&mut uut, csr::CTRL.addr), 1, "abort bit reads 0");
    let s = write(&mut uut, csr::CTRL.addr, 0b10);
    assert_eq!(
        s,
        Seen {
            doorbell: 0,
            abort: 1
        }
    );
    assert!(!uut.enable.val());
}

#[test]
fn irq_status_is_rw1c_and_irq_follows_enables() {
    let mut uut = csr_block();
    uut.irq_done_set.next = true;
    step(&mut uut);
    uut.irq_done_set.next = false;
    settle(&mut uut);
    assert_eq!(read(&mut uut, csr::IRQ_STATUS.addr), 0b01);
    assert!(!uut.irq.val(), "irq while disabled");
    write(&mut uut, csr::IRQ_ENABLE.addr, 0b01);
    assert!(uut.irq.val());
    write(&mut uut, csr::IRQ_STATUS.addr, 0b10);
    assert_eq!(
        read(&mut uut, csr::IRQ_STATUS.addr),
        0b01,
        "cleared a 0 bit"
    );
    uut.irq_error_set.next = true;
    step(&mut uut);
    uut.irq_error_set.next = false;
    write_ex(&mut uut, csr::IRQ_STATUS.addr, 0b11, 0b0000, 0, 0);
    assert_eq!(
        read(&mut uut, csr::IRQ_STATUS.addr),
        0b11,
        "cleared without strobe"
    );
    write(&mut uut, csr::IRQ_STATUS.addr, 0b01);
    assert_eq!(read(&mut uut, csr::IRQ_STATUS.addr), 0b10);
    assert!(!uut.irq.val(), "irq from a disabled cause");
    // A set in the cycle the clearing write is taken wins.
    uut.s_axil_awaddr.next = u64::from(csr::IRQ_STATUS.addr).into();
    uut.s_axil_wdata.next = 0b10u64.into();
    uut.s_axil_wstrb.next = 0xFu64.into();
    uut.s_axil_awvalid.next = true;
    uut.s_axil_wvalid.next = true;
    uut.s_axil_bready.next = true;
    uut.irq_error_set.next = true;
    settle(&mut uut);
    assert!(uut.s_axil_awready.val() && uut.s_axil_wready.val());
    step(&mut uut);
    uut.s_axil_awvalid.next = false;
    uut.s_axil_wvalid.next = false;
    uut.irq_error_set.next = false;
    step(&mut uut);
    step(&mut uut);
    assert_eq!(read(&mut uut, csr::IRQ_STATUS.addr), 0b10);
    write(&mut uut, csr::IRQ_STATUS.addr, 0b10);
    assert_eq!(read(&mut uut, csr::IRQ_STATUS.addr), 0);
}

#[test]
fn status_desc_done_and_err_desc_inputs() {
    let mut uut = csr_block();
    uut.busy.next = true;
    uut.error.next = true;
    uut.err_code.next = 0xA5u64.into();
    uut.err_desc.next = 0x1234_5678_9ABC_DEC0u64.into();
    assert_eq!(read(&mut uut, csr::STATUS.addr), 0xA503);
    uut.busy.next = false;
    assert_eq!(read(&mut uut, csr::STATUS.addr), 0xA502);
    assert_eq!(read(&mut uut, csr::ERR_DESC_LO.addr), 0x9ABC_DEC0);
    assert_eq!(read(&mut uut, csr::ERR_DESC_HI.addr), 0x1234_5678);
    uut.desc_done.next = true;
    for _ in 0..3 {
        step(&mut uut);
    }
    uut.desc_done.next = false;
    assert_eq!(read(&mut uut, csr::DESC_DONE.addr), 3);
}

#[test]
fn perf_counters_count_and_lo_read_latches_hi() {
    let mut uut = csr_block();
    // Events for 3 cycles: busy, an R beat (128 bytes), 7 strobed bytes, a stall.
    uut.perf_busy.next = true;
    uut.perf_rd_beat.next = true;
    uut.perf_wr_bytes.next = 7u64.into();
    uut.perf_stall.next = true;
    for _ in 0..3 {
        step(&mut uut);
    }
    uut.perf_stall.next = false;
    uut.perf_wr_bytes.next = 100u64.into();
    step(&mut uut);
    uut.perf_busy.next = false;
    uut.perf_rd_beat.next = false;
    uut.perf_wr_bytes.next = 0u64.into();
    let pairs = [
        (csr::PERF_BUSY_LO, csr::PERF_BUSY_HI, 4),
        (csr::PERF_RD_BYTES_LO, csr::PERF_RD_BYTES_HI, 4 * 128),
        (csr::PERF_WR_BYTES_LO, csr::PERF_WR_BYTES_HI, 3 * 7 + 100),
        (csr::PERF_STALL_LO, csr::PERF_STALL_HI, 3),
    ];
    for (lo, hi, want) in pairs {
        assert_eq!(read(&mut uut, lo.addr), want, "{}", lo.name);
        assert_eq!(read(&mut uut, hi.addr), 0, "{}", hi.name);
    }
    // Carry into the high word: start the busy counter just below 2^32.
    uut.perf_busy_cnt.q.next = 0xFFFF_FFFEu64.into();
    settle(&mut uut);
    uut.perf_busy.next = true;
    for _ in 0..3 {
        step(&mut uut);
    }
    uut.perf_busy.next = false;
    assert_eq!(read(&mut uut, csr::PERF_BUSY_LO.addr), 1);
    // The counter moves on before HI is read: HI returns the word latched with LO.
    uut.perf_busy_cnt.q.next = 0x5_0000_0000u64.into();
    settle(&mut uut);
    assert_eq!(read(&mut uut, csr::PERF_BUSY_HI.addr), 1);
    assert_eq!(read(&mut uut, csr::PERF_BUSY_LO.addr), 0);
    assert_eq!(read(&mut uut, csr::PERF_BUSY_HI.addr), 5);
}

#[test]
fn perf_wr_bytes_carries_out_of_its_low_byte() {
    // PERF_WR_BYTES adds into its low byte and increments the 56 bits above it on that byte's
    // carry (a carry-select, see the block): start it at 0xFFFF_FFF0 so the first add carries
    // out of the low byte and into the high word, and the next ones carry out of the byte
    // again.
    let mut uut = csr_block();
    uut.perf_wr_lo.q.next = 0xF0u64.into();
    uut.perf_wr_hi56.q.next = 0xFF_FFFFu64.into();
    settle(&mut uut);
    uut.perf_wr_bytes.next = 0x20u64.into();
    step(&mut uut);
    uut.perf_wr_bytes.next = 200u64.into();
    for _ in 0..3 {
        step(&mut uut);
    }
    uut.perf_wr_bytes.next = 0u64.into();
    // 0xFFFF_FFF0 + 0x20 + 3 * 200 = 0x1_0000_0268
    assert_eq!(read(&mut uut, csr::PERF_WR_BYTES_LO.addr), 0x268);
    assert_eq!(read(&mut uut, csr::PERF_WR_BYTES_HI.addr), 1);
}
