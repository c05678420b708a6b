//! Every DMA block emitted standalone, for the lint tests and inspection: the AXI masters, the
//! CSR block and the controllers per bus width ([`standalone_blocks`]), the datapath blocks
//! per bus width ([`datapath_blocks`]). The engine top instantiates the blocks itself.

use super::params::BUS_WIDTHS;
use super::*;
use crate::emit::{standalone_block, StandaloneBlock};
use crate::port_docs::{PortDoc, PortDocs};

/// Every DMA block of this module, each as a standalone top with its default parameters.
pub fn standalone_blocks() -> Vec<StandaloneBlock> {
    let mut blocks = vec![
        standalone_block(
            AxiReadMasterDw128::default(),
            "cdma_dma_axi_read_dw128",
            &AXI_READ_PORTS,
        ),
        standalone_block(
            AxiReadMasterDw256::default(),
            "cdma_dma_axi_read_dw256",
            &AXI_READ_PORTS,
        ),
        standalone_block(
            AxiReadMasterDw512::default(),
            "cdma_dma_axi_read_dw512",
            &AXI_READ_PORTS,
        ),
        standalone_block(
            AxiReadMasterDw1024::default(),
            "cdma_dma_axi_read_dw1024",
            &AXI_READ_PORTS,
        ),
        standalone_block(
            AxiWriteMasterDw128::default(),
            "cdma_dma_axi_write_dw128",
            &AXI_WRITE_PORTS,
        ),
        standalone_block(
            AxiWriteMasterDw256::default(),
            "cdma_dma_axi_write_dw256",
            &AXI_WRITE_PORTS,
        ),
        standalone_block(
            AxiWriteMasterDw512::default(),
            "cdma_dma_axi_write_dw512",
            &AXI_WRITE_PORTS,
        ),
        standalone_block(
            AxiWriteMasterDw1024::default(),
            "cdma_dma_axi_write_dw1024",
            &AXI_WRITE_PORTS,
        ),
        standalone_block(CsrBlock::default(), "cdma_dma_csr", &CSR_PORTS),
    ];
    // The controllers go through emit.rs's top builder (same renaming, port probe).
    for dw in BUS_WIDTHS {
        let t = controller_top(dw);
        blocks.push(StandaloneBlock {
            module: t.module,
            verilog: t.verilog,
            ports: &CONTROLLER_PORTS,
        });
    }
    blocks
}

/// The datapath blocks' names (`cdma_dma_<name>_e<E>`) and port documentation tables.
static DATAPATH_PORTS: [(&str, &PortDocs); 2] = [
    ("chunk_scan", &chunk_scan::CHUNK_SCAN_PORTS),
    ("chunk_fifo", &chunk_fifo::CHUNK_FIFO_PORTS),
];

fn datapath_ports(name: &str) -> &'static [PortDoc] {
    DATAPATH_PORTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, ports)| &**ports)
        .unwrap_or_else(|| panic!("no port table for datapath block {name}"))
}

/// The datapath's own blocks (chunk scan, chunk FIFO) of a `dw`-bit bus (128, 256, 512 or
/// 1024), standalone (`cdma_dma_<block>_dw<DW>`).
///
/// # Panics
/// On any other bus width.
pub fn datapath_blocks(dw: usize) -> Vec<StandaloneBlock> {
    macro_rules! blocks {
        ($dw:literal, $($ty:ty => $name:literal),* $(,)?) => {
            vec![$(standalone_block(<$ty>::default(), &format!("cdma_dma_{}_dw{}", $name, $dw), datapath_ports($name))),*]
        };
    }
    match dw {
        128 => blocks!(
            128,
            chunk_scan::ChunkScanDw128 => "chunk_scan",
            chunk_fifo::ChunkFifoDw128 => "chunk_fifo",
        ),
        256 => blocks!(
            256,
            chunk_scan::ChunkScanDw256 => "chunk_scan",
            chunk_fifo::ChunkFifoDw256 => "chunk_fifo",
        ),
        512 => blocks!(
            512,
            chunk_scan::ChunkScanDw512 => "chunk_scan",
            chunk_fifo::ChunkFifoDw512 => "chunk_fifo",
        ),
        1024 => blocks!(
            1024,
            chunk_scan::ChunkScanDw1024 => "chunk_scan",
            chunk_fifo::ChunkFifoDw1024 => "chunk_fifo",
        ),
        other => panic!("cdma-hdl: unsupported bus width {other} bits"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The port documentation tables list exactly the module's ports, in order.
    #[test]
    fn port_tables_match_the_verilog_headers() {
        for b in standalone_blocks() {
            let start = b.verilog.find(&format!("module {}(", b.module)).unwrap();
            let rest = &b.verilog[start..];
            let args = &rest[rest.find('(').unwrap() + 1..rest.find(')').unwrap()];
            let names: Vec<&str> = args.split(',').map(str::trim).collect();
            let doc: Vec<&str> = b.ports.iter().map(|p| p.0).collect();
            assert_eq!(names, doc, "{}", b.module);
        }
    }

    /// Each datapath block's `…_PORTS` doc table lists exactly its Verilog ports, in order.
    #[test]
    fn port_tables_match_the_emitted_modules() {
        let blocks = datapath_blocks(256);
        assert_eq!(blocks.len(), DATAPATH_PORTS.len());
        for b in blocks {
            let head = &b.verilog[b.verilog.find(&format!("module {}(", b.module)).unwrap()..];
            let args = &head[head.find('(').unwrap() + 1..head.find(')').unwrap()];
            let ports: Vec<&str> = args.split(',').map(str::trim).collect();
            let listed: Vec<&str> = b.ports.iter().map(|p| p.0).collect();
            assert_eq!(ports, listed, "{}", b.module);
        }
    }
}
