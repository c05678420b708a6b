//! The 1024-bit input and 1056-bit output of the real E=32 compressor cross the bridge intact:
//! a block in, the packed beat out, laid out as docs/ARCHITECTURE.md and docs/FORMAT.md say.

use cdma_sim::CdmaZvcCompressorE32;

/// Drive one block as the tensor's only (last) block and return (beat, count, last, cycles).
fn compress_one(block: &[u32; 32]) -> ([u32; 33], u64, bool, u32) {
    let mut c = CdmaZvcCompressorE32::new();
    c.set_rst(true);
    c.tick();
    c.set_rst(false);
    c.set_out_ready(true);
    c.set_in_data(block);
    c.set_in_last(true);
    c.set_in_valid(true);
    c.eval();
    assert!(c.in_ready(), "compressor not ready after reset");
    c.tick();
    c.set_in_valid(false);
    for cycles in 1..=16 {
        c.eval();
        if c.out_valid() {
            return (c.out_data(), c.out_count(), c.out_last(), cycles);
        }
        c.tick();
    }
    panic!("no output beat within 16 cycles");
}

#[test]
fn all_non_zero_block_packs_mask_then_elements() {
    // Distinct values that use every bit position, none zero.
    let block: [u32; 32] =
        std::array::from_fn(|i| 0x8000_0001u32.rotate_left(i as u32) ^ (i as u32 * 0x0101_0101));
    assert!(block.iter().all(|&x| x != 0));
    let (beat, count, last, cycles) = compress_one(&block);
    assert_eq!(beat[0], 0xFFFF_FFFF, "mask lane");
    assert_eq!(&beat[1..], &block[..], "element lanes");
    assert_eq!((count, last), (33, true));
    // Ten register stages from the input to the output buffer (docs/ARCHITECTURE.md).
    assert!(cycles <= 10, "latency {cycles} cycles");
}

#[test]
fn sparse_block_packs_only_non_zero_elements() {
    let mut block = [0u32; 32];
    block[5] = 0x8000_0000; // -0.0 is non-zero
    block[31] = 0x7FC0_0000; // NaN
    let (beat, count, last, _) = compress_one(&block);
    assert_eq!(
        &beat[..3],
        &[(1 << 5) | (1 << 31), 0x8000_0000, 0x7FC0_0000]
    );
    assert_eq!((count, last), (3, true));
}

#[test]
fn dynamic_interface_sees_the_real_ports() {
    let d = cdma_sim::new_dut("cdma_zvc_compressor_e32").unwrap();
    let p = &d.ports()[d.port("out_data").unwrap()];
    assert_eq!((p.width, p.words()), (1056, 33));
    assert_eq!(d.ports()[d.port("in_data").unwrap()].width, 1024);
    assert!(d.params().contains(&("E", 32)));
}
