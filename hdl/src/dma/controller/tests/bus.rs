//! The controller's ports as plain values ([`Inputs`], [`Outputs`]) and [`Ctl`], one
//! controller type (one bus width) as the testbench drives it; implemented for the three
//! widths by `impl_ctl!`.
use super::super::*;
use crate::testutil::{clock_cycle, from_bus, settle, to_bus};

/// The controller's inputs as plain values (data buses as bytes, lane 0 first).
#[derive(Default)]
pub(super) struct Inputs {
    pub(super) rst: bool,
    pub(super) enable: bool,
    pub(super) doorbell: bool,
    pub(super) abort: bool,
    pub(super) head: u64,
    pub(super) rd_req_ready: bool,
    pub(super) rd_data: Vec<u8>,
    pub(super) rd_last: bool,
    pub(super) rd_err: bool,
    pub(super) rd_valid: bool,
    pub(super) rd_idle: bool,
    pub(super) wr_req_ready: bool,
    pub(super) wr_ready: bool,
    pub(super) wr_done: bool,
    pub(super) wr_err: bool,
    pub(super) wr_idle: bool,
    pub(super) dp_rd_ready: bool,
    pub(super) dp_wr_data: Vec<u8>,
    /// Strobes of the low `dp_wr_bytes` byte lanes.
    pub(super) dp_wr_bytes: usize,
    pub(super) dp_wr_last: bool,
    pub(super) dp_wr_valid: bool,
    pub(super) dp_idle: bool,
    pub(super) dp_error: bool,
    pub(super) dp_ck_open: bool,
    pub(super) dec_stored_len: u64,
    pub(super) dec_raw: bool,
    pub(super) dec_valid: bool,
    pub(super) ck_ready: bool,
}

/// The controller's outputs as plain values (after settling).
pub(super) struct Outputs {
    pub(super) busy: bool,
    pub(super) error: bool,
    pub(super) err_code: u64,
    pub(super) err_desc: u64,
    pub(super) desc_done: bool,
    pub(super) irq_done_set: bool,
    pub(super) irq_error_set: bool,
    pub(super) rd_req_addr: u64,
    pub(super) rd_req_beats: u64,
    pub(super) rd_req_valid: bool,
    pub(super) rd_ready: bool,
    pub(super) wr_req_addr: u64,
    pub(super) wr_req_valid: bool,
    pub(super) wr_data: Vec<u8>,
    /// Byte strobes, lane `i` at bit `i` (`BB ≤ 128`).
    pub(super) wr_strb: u128,
    pub(super) wr_last: bool,
    pub(super) wr_close: bool,
    pub(super) wr_jump: bool,
    pub(super) wr_jump_addr: u64,
    pub(super) wr_valid: bool,
    pub(super) abort_out: bool,
    pub(super) dp_rd_valid: bool,
    pub(super) dp_wr_ready: bool,
    pub(super) dp_start: bool,
    pub(super) dp_op: u64,
    pub(super) dp_elem: u64,
    pub(super) dp_src_len: u64,
    pub(super) dp_dst_len: u64,
    pub(super) dp_n_chunks: u64,
    pub(super) dec_ready: bool,
    pub(super) ck_stored_len: u64,
    pub(super) ck_raw: bool,
    pub(super) ck_chunk_len: u64,
    pub(super) ck_last: bool,
    pub(super) ck_valid: bool,
}

/// One controller type (one bus width) as the testbench sees it.
pub(super) trait Ctl: Block + Default {
    /// Bus bytes per beat.
    const BB: u64;
    /// The controller running the element widths of `elem_mask`.
    fn with_elem_mask(elem_mask: u8) -> Self;
    /// Drives every input (before settling).
    fn apply(&mut self, i: &Inputs);
    /// Every output (after settling).
    fn sample(&self) -> Outputs;
    /// One clock cycle.
    fn cycle(&mut self);
}

macro_rules! impl_ctl {
    ($ty:ident, dw: $dw:tt, bb: $bb:tt) => {
        impl Ctl for $ty {
            const BB: u64 = $bb;
            fn with_elem_mask(elem_mask: u8) -> Self {
                $ty::new(elem_mask, false, true)
            }
            fn apply(&mut self, i: &Inputs) {
                let bytes = |v: &[u8]| -> Bits<$dw> {
                    let lanes: Vec<u64> = (0..$bb)
                        .map(|k| v.get(k).map_or(0, |b| u64::from(*b)))
                        .collect();
                    to_bus::<$dw>(&lanes, 8)
                };
                let strb: Vec<u64> = (0..$bb).map(|k| u64::from(k < i.dp_wr_bytes)).collect();
                self.rst.next = i.rst;
                self.enable.next = i.enable;
                self.doorbell.next = i.doorbell;
                self.abort.next = i.abort;
                self.head.next = i.head.into();
                self.rd_req_ready.next = i.rd_req_ready;
                self.rd_data.next = bytes(&i.rd_data);
                self.rd_last.next = i.rd_last;
                self.rd_err.next = i.rd_err;
                self.rd_valid.next = i.rd_valid;
                self.rd_idle.next = i.rd_idle;
                self.wr_req_ready.next = i.wr_req_ready;
                self.wr_ready.next = i.wr_ready;
                self.wr_done.next = i.wr_done;
                self.wr_err.next = i.wr_err;
                self.wr_idle.next = i.wr_idle;
                self.dp_rd_ready.next = i.dp_rd_ready;
                self.dp_wr_data.next = bytes(&i.dp_wr_data);
                self.dp_wr_strb.next = to_bus::<$bb>(&strb, 1);
                self.dp_wr_last.next = i.dp_wr_last;
                self.dp_wr_valid.next = i.dp_wr_valid;
                self.dp_idle.next = i.dp_idle;
                self.dp_error.next = i.dp_error;
                self.dp_ck_open.next = i.dp_ck_open;
                self.dec_stored_len.next = i.dec_stored_len.into();
                self.dec_raw.next = i.dec_raw;
                self.dec_valid.next = i.dec_valid;
                self.ck_ready.next = i.ck_ready;
            }
            fn sample(&self) -> Outputs {
                let strb = self.wr_strb.val();
                Outputs {
                    busy: self.busy.val(),
                    error: self.error.val(),
                    err_code: self.err_code.val().to_u64(),
                    err_desc: self.err_desc.val().to_u64(),
                    desc_done: self.desc_done.val(),
                    irq_done_set: self.irq_done_set.val(),
                    irq_error_set: self.irq_error_set.val(),
                    rd_req_addr: self.rd_req_addr.val().to_u64(),
                    rd_req_beats: self.rd_req_beats.val().to_u64(),
                    rd_req_valid: self.rd_req_valid.val(),
                    rd_ready: self.rd_ready.val(),
                    wr_req_addr: self.wr_req_addr.val().to_u64(),
                    wr_req_valid: self.wr_req_valid.val(),
                    wr_data: from_bus(self.wr_data.val(), 8, $bb)
                        .into_iter()
                        .map(|b| b as u8)
                        .collect(),
                    wr_strb: (0..$bb)
                        .filter(|k| strb.get_bit(*k))
                        .map(|k| 1u128 << k)
                        .sum(),
                    wr_last: self.wr_last.val(),
                    wr_close: self.wr_close.val(),
                    wr_jump: self.wr_jump.val(),
                    wr_jump_addr: self.wr_jump_addr.val().to_u64(),
                    wr_valid: self.wr_valid.val(),
                    abort_out: self.abort_out.val(),
                    dp_rd_valid: self.dp_rd_valid.val(),
                    dp_wr_ready: self.dp_wr_ready.val(),
                    dp_start: self.dp_start.val(),
                    dp_op: self.dp_op.val().to_u64(),
                    dp_elem: self.dp_elem.val().to_u64(),
                    dp_src_len: self.dp_src_len.val().to_u64(),
                    dp_dst_len: self.dp_dst_len.val().to_u64(),
                    dp_n_chunks: self.dp_n_chunks.val().to_u64(),
                    dec_ready: self.dec_ready.val(),
                    ck_stored_len: self.ck_stored_len.val().to_u64(),
                    ck_raw: self.ck_raw.val(),
                    ck_chunk_len: self.ck_chunk_len.val().to_u64(),
                    ck_last: self.ck_last.val(),
                    ck_valid: self.ck_valid.val(),
                }
            }
            fn cycle(&mut self) {
                clock_cycle!(self);
            }
        }
    };
}

impl_ctl!(ControllerDw128, dw: 128, bb: 16);
impl_ctl!(ControllerDw256, dw: 256, bb: 32);
impl_ctl!(ControllerDw512, dw: 512, bb: 64);
impl_ctl!(ControllerDw1024, dw: 1024, bb: 128);
