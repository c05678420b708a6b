//! [`AxiLiteDut`] on a [`FakeDut`] holding the register file.

use super::regfile::RegFile;
use crate::axi::fake::{port, FakeDut};
use crate::axi::Resp;
use crate::axil::{
    AxiLiteDut, AxiLiteMaster, AxiLitePorts, LiteAccess, LiteConfig, LiteMasterSignals,
};
use crate::error::TbError;
use cdma_sim::{Dir, Dut};

fn lite_ports() -> Vec<cdma_sim::PortInfo> {
    use Dir::{In, Out};
    vec![
        port("clock", 1, In),
        port("s_axil_awaddr", 12, In),
        port("s_axil_awvalid", 1, In),
        port("s_axil_awready", 1, Out),
        port("s_axil_wdata", 32, In),
        port("s_axil_wstrb", 4, In),
        port("s_axil_wvalid", 1, In),
        port("s_axil_wready", 1, Out),
        port("s_axil_bresp", 2, Out),
        port("s_axil_bvalid", 1, Out),
        port("s_axil_bready", 1, In),
        port("s_axil_araddr", 12, In),
        port("s_axil_arvalid", 1, In),
        port("s_axil_arready", 1, Out),
        port("s_axil_rdata", 32, Out),
        port("s_axil_rresp", 2, Out),
        port("s_axil_rvalid", 1, Out),
        port("s_axil_rready", 1, In),
    ]
}

/// The register file behind a fake DUT, driven the way a DMA testbench drives the real one.
struct DutBench {
    dut: FakeDut,
    csr: AxiLiteDut,
    rf: RegFile,
}

impl LiteAccess for DutBench {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        &mut self.csr.master
    }
}

fn dut_cycle(b: &mut DutBench) -> Result<(), TbError> {
    b.csr.drive(&mut b.dut);
    // The design: registered outputs from its state, then sample its inputs.
    let s = b.rf.outputs();
    for (n, v) in [
        ("awready", s.awready.into()),
        ("wready", s.wready.into()),
        ("bresp", s.bresp.bits()),
        ("bvalid", s.bvalid.into()),
        ("arready", s.arready.into()),
        ("rdata", s.rdata.into()),
        ("rresp", s.rresp.bits()),
        ("rvalid", s.rvalid.into()),
    ] {
        b.dut.poke(&format!("s_axil_{n}"), v);
    }
    b.dut.eval();
    b.csr.sample(&b.dut)?;
    let p = |n: &str| b.dut.peek(&format!("s_axil_{n}"));
    let m = LiteMasterSignals {
        awaddr: p("awaddr") as u32,
        awvalid: p("awvalid") != 0,
        wdata: p("wdata") as u32,
        wstrb: p("wstrb") as u8,
        wvalid: p("wvalid") != 0,
        bready: p("bready") != 0,
        araddr: p("araddr") as u32,
        arvalid: p("arvalid") != 0,
        rready: p("rready") != 0,
    };
    b.rf.update(&m);
    b.dut.tick();
    Ok(())
}

#[test]
fn dut_binding_drives_the_s_axil_ports() {
    let dut = FakeDut::new(lite_ports());
    let mut b = DutBench {
        csr: AxiLiteDut::new(&dut, "s_axil_", LiteConfig::random(5, 0.4)).unwrap(),
        dut,
        rf: RegFile::new(6, 0.4),
    };
    assert_eq!(b.csr.master.config().addr_bits, 12);
    assert_eq!(
        b.lite_write(0x3C, 0xDEAD_BEEF, 200, dut_cycle).unwrap(),
        Resp::Okay
    );
    assert_eq!(
        b.lite_write_strb(0x3C, 0x1234_5678, 0b0101, 200, dut_cycle)
            .unwrap(),
        Resp::Okay
    );
    assert_eq!(
        b.lite_read(0x3C, 200, dut_cycle).unwrap(),
        (0xDE34_BE78, Resp::Okay)
    );
    assert_eq!(
        b.lite_read(0x800, 200, dut_cycle).unwrap(),
        (0, Resp::Decerr)
    );
    // Missing and misshaped ports are reported by name.
    let ports: Vec<_> = lite_ports()
        .into_iter()
        .filter(|p| p.name != "s_axil_bready")
        .collect();
    let e = AxiLitePorts::bind(&FakeDut::new(ports), "s_axil_")
        .err()
        .unwrap();
    assert!(e.contains("s_axil_bready"), "{e}");
    let mut ports = lite_ports();
    ports[4].width = 64;
    let e = AxiLitePorts::bind(&FakeDut::new(ports), "s_axil_")
        .err()
        .unwrap();
    assert!(e.contains("s_axil_wdata is 64 bits, expected 32"), "{e}");
}

#[test]
#[should_panic(expected = "does not fit 12 bits")]
fn an_address_wider_than_the_port_is_refused() {
    let dut = FakeDut::new(lite_ports());
    let mut csr = AxiLiteDut::new(&dut, "s_axil_", LiteConfig::always()).unwrap();
    csr.master.start_read(0x1000);
}
