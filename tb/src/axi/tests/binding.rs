//! [`AxiPorts`] and [`AxiSlave`] on a [`FakeDut`]: every signal by port name, and the
//! refusal of missing or misshaped ports.

use super::master::{apply, random_write, TestMaster};
use crate::axi::fake::{port, FakeDut};
use crate::axi::{
    Access, AxiMemConfig, AxiPorts, AxiSlave, ErrorRange, MasterSignals, Resp, SlaveSignals,
};
use cdma_sim::{Dir, Dut, PortInfo};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn axi_ports(bits: usize) -> Vec<PortInfo> {
    use Dir::{In, Out};
    vec![
        port("clock", 1, In),
        port("m_axi_awid", 1, Out),
        port("m_axi_awaddr", 64, Out),
        port("m_axi_awlen", 8, Out),
        port("m_axi_awsize", 3, Out),
        port("m_axi_awburst", 2, Out),
        port("m_axi_awcache", 4, Out),
        port("m_axi_awprot", 3, Out),
        port("m_axi_awvalid", 1, Out),
        port("m_axi_awready", 1, In),
        port("m_axi_wdata", bits, Out),
        port("m_axi_wstrb", bits / 8, Out),
        port("m_axi_wlast", 1, Out),
        port("m_axi_wvalid", 1, Out),
        port("m_axi_wready", 1, In),
        port("m_axi_bid", 1, In),
        port("m_axi_bresp", 2, In),
        port("m_axi_bvalid", 1, In),
        port("m_axi_bready", 1, Out),
        port("m_axi_arid", 1, Out),
        port("m_axi_araddr", 64, Out),
        port("m_axi_arlen", 8, Out),
        port("m_axi_arsize", 3, Out),
        port("m_axi_arburst", 2, Out),
        port("m_axi_arcache", 4, Out),
        port("m_axi_arprot", 3, Out),
        port("m_axi_arvalid", 1, Out),
        port("m_axi_arready", 1, In),
        port("m_axi_rid", 1, In),
        port("m_axi_rdata", bits, In),
        port("m_axi_rresp", 2, In),
        port("m_axi_rlast", 1, In),
        port("m_axi_rvalid", 1, In),
        port("m_axi_rready", 1, Out),
    ]
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// The design side, written independently of [`AxiPorts`] so the two cross-check.
fn poke_master(d: &mut FakeDut, m: &MasterSignals) {
    let p = |s: &str| format!("m_axi_{s}");
    for (s, v) in [
        ("awid", m.awid),
        ("awaddr", m.awaddr),
        ("awlen", m.awlen),
        ("awsize", m.awsize),
        ("awburst", m.awburst),
        ("awvalid", m.awvalid.into()),
        ("wlast", m.wlast.into()),
        ("wvalid", m.wvalid.into()),
        ("bready", m.bready.into()),
        ("arid", m.arid),
        ("araddr", m.araddr),
        ("arlen", m.arlen),
        ("arsize", m.arsize),
        ("arburst", m.arburst),
        ("arvalid", m.arvalid.into()),
        ("rready", m.rready.into()),
    ] {
        d.poke(&p(s), v);
    }
    d.poke_words(&p("wdata"), &words(&m.wdata));
    let strb: Vec<u32> = (0..m.wdata.len().div_ceil(32))
        .map(|i| (m.wstrb >> (32 * i)) as u32)
        .collect();
    d.poke_words(&p("wstrb"), &strb);
}

fn peek_slave(d: &FakeDut) -> SlaveSignals {
    let p = |s: &str| d.peek(&format!("m_axi_{s}"));
    SlaveSignals {
        awready: p("awready") != 0,
        wready: p("wready") != 0,
        bid: p("bid"),
        bresp: Resp::from_bits(p("bresp")),
        bvalid: p("bvalid") != 0,
        arready: p("arready") != 0,
        rid: p("rid"),
        rdata: d
            .peek_words("m_axi_rdata")
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
        rresp: Resp::from_bits(p("rresp")),
        rlast: p("rlast") != 0,
        rvalid: p("rvalid") != 0,
    }
}

#[test]
fn dut_binding_carries_every_signal_by_port_name() {
    // 1024 bits: the strobes span four words, so their assembly is exercised too.
    for bits in [256usize, 1024] {
        let bb = bits / 8;
        let mut dut = FakeDut::new(axi_ports(bits));
        let mut cfg = AxiMemConfig::random(bits as u32, 8);
        cfg.read_latency = (0, 10);
        let mut slave = AxiSlave::new(&dut, "m_axi_", cfg).unwrap();
        slave
            .mem
            .add_error(ErrorRange::new(0x5000, 0x5001, Resp::Decerr, Access::Both));
        let mut m = TestMaster::new(bb, 8);
        m.p_ready = 0.2;
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let wr = random_write(&mut rng, bb, 1, 0x1_0000_4000, 12);
        m.write(&wr);
        m.write(&random_write(&mut rng, bb, 0, 0x5000, 2));
        let mut step = |m: &mut TestMaster| {
            slave.drive(&mut dut);
            dut.eval();
            let s = peek_slave(&dut);
            poke_master(&mut dut, &m.outputs());
            slave.sample(&dut).unwrap();
            m.update(&s);
        };
        for _ in 0..2000 {
            if m.done() {
                break;
            }
            step(&mut m);
        }
        assert!(m.done());
        assert_eq!(
            m.writes.iter().map(|w| w.resp).collect::<Vec<_>>(),
            [Resp::Okay, Resp::Decerr]
        );
        m.read(1, 0x1_0000_4000, 12);
        for _ in 0..2000 {
            if m.done() {
                break;
            }
            step(&mut m);
        }
        assert!(m.done());
        let mut shadow = vec![0; 12 * bb];
        apply(&mut shadow, wr.addr, &wr, bb);
        assert_eq!(m.reads[0].data, shadow, "{bits} bits");
        assert_eq!(slave.mem.read_bytes(wr.addr, shadow.len()), shadow);
    }
}

#[test]
fn binding_rejects_missing_or_misshaped_ports() {
    let without = |name: &str| {
        let ports = axi_ports(512)
            .into_iter()
            .filter(|p| p.name != name)
            .collect();
        FakeDut::new(ports)
    };
    let e = AxiPorts::bind(&without("m_axi_wlast"), "m_axi_")
        .err()
        .unwrap();
    assert!(e.contains("m_axi_wlast"), "{e}");
    // Optional ports may be absent.
    AxiPorts::bind(&without("m_axi_arprot"), "m_axi_").unwrap();
    AxiPorts::bind(&without("m_axi_rid"), "m_axi_").unwrap();
    let mut ports = axi_ports(512);
    ports
        .iter_mut()
        .find(|p| p.name == "m_axi_wstrb")
        .unwrap()
        .width = 32;
    let e = AxiPorts::bind(&FakeDut::new(ports), "m_axi_")
        .err()
        .unwrap();
    assert!(e.contains("m_axi_wstrb is 32 bits, expected 64"), "{e}");
    let mut ports = axi_ports(512);
    ports
        .iter_mut()
        .find(|p| p.name == "m_axi_rready")
        .unwrap()
        .dir = Dir::In;
    let e = AxiPorts::bind(&FakeDut::new(ports), "m_axi_")
        .err()
        .unwrap();
    assert!(e.contains("m_axi_rready is an input"), "{e}");
    let e = AxiSlave::new(
        &FakeDut::new(axi_ports(512)),
        "m_axi_",
        AxiMemConfig::fixed(1024, 0),
    )
    .err()
    .unwrap();
    assert!(
        e.contains("512 bits but the memory is configured for 1024"),
        "{e}"
    );
}
