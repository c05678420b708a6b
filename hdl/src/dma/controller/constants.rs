//! The controller's constructor: its constants (codes, masks, word counts) for one bus width
//! and the element widths it runs (`controller_default!`, invoked by `controller!` in the
//! parent module).

macro_rules! controller_default {
    (
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, lgdw: $lgdw:tt,
        dwm32: $dwm32:tt, dwm64: $dwm64:tt
    ) => {
        impl Default for $name {
            /// The controller of an engine that runs every element width.
            fn default() -> Self {
                Self::new(ELEM_MASK_ALL, false, true)
            }
        }

        impl $name {
            /// The controller of an engine that runs the element widths of `elem_mask` (bit
            /// `c` for the descriptor element code `c`, HWCFG `elem_mask`), with the ZVC-X
            /// codec iff `has_zvcx` and CRC32C (version 4 frames) iff `has_crc`.
            pub fn new(elem_mask: u8, has_zvcx: bool, has_crc: bool) -> Self {
                let dw: usize = $dw;
                let bb = dw / 8;
                let e = dw / 32;
                assert_eq!(bb, $bb);
                assert_eq!(e, $e);
                assert_eq!(u64::from($lge as u32), log2(e));
                // An index window is whole index beats.
                assert_eq!((1usize << IDX_WIN_LOG2) % e, 0);
                // The status word and bytes_written are written back as adjacent words.
                assert_eq!(
                    desc::BYTES_WRITTEN_FIELD.offset,
                    desc::STATUS_FIELD.offset + 4
                );
                assert_eq!(desc::STATUS_FIELD.size, 4);
                assert_eq!(frame::INDEX_ENTRY_LEN, 4);
                fn c<const N: usize>(v: u64) -> Constant<Bits<N>> {
                    Constant::new(v.into())
                }
                let code = |x: error::ErrorCode| c::<CODE_BITS>(u64::from(x.code));
                let hdr_words = (frame::HEADER_LEN / frame::INDEX_ENTRY_LEN) as u64;
                Self {
                    clock: Default::default(),
                    rst: Default::default(),
                    enable: Default::default(),
                    doorbell: Default::default(),
                    abort: Default::default(),
                    head: Default::default(),
                    busy: Default::default(),
                    error: Default::default(),
                    err_code: Default::default(),
                    err_desc: Default::default(),
                    desc_done: Default::default(),
                    irq_done_set: Default::default(),
                    irq_error_set: Default::default(),
                    rd_req_addr: Default::default(),
                    rd_req_beats: Default::default(),
                    rd_req_valid: Default::default(),
                    rd_req_ready: Default::default(),
                    rd_data: Default::default(),
                    rd_last: Default::default(),
                    rd_err: Default::default(),
                    rd_valid: Default::default(),
                    rd_ready: Default::default(),
                    rd_idle: Default::default(),
                    wr_req_addr: Default::default(),
                    wr_req_valid: Default::default(),
                    wr_req_ready: Default::default(),
                    wr_data: Default::default(),
                    wr_strb: Default::default(),
                    wr_last: Default::default(),
                    wr_close: Default::default(),
                    wr_jump: Default::default(),
                    wr_jump_addr: Default::default(),
                    wr_valid: Default::default(),
                    wr_ready: Default::default(),
                    wr_done: Default::default(),
                    wr_err: Default::default(),
                    wr_idle: Default::default(),
                    abort_out: Default::default(),
                    dp_rd_valid: Default::default(),
                    dp_rd_ready: Default::default(),
                    dp_wr_data: Default::default(),
                    dp_wr_strb: Default::default(),
                    dp_wr_last: Default::default(),
                    dp_wr_valid: Default::default(),
                    dp_wr_ready: Default::default(),
                    dp_start: Default::default(),
                    dp_op: Default::default(),
                    dp_elem: Default::default(),
                    dp_zvcx: Default::default(),
                    dp_ty: Default::default(),
                    dp_crc: Default::default(),
                    dp_src_len: Default::default(),
                    dp_dst_len: Default::default(),
                    dp_chunk_log2: Default::default(),
                    dp_n_chunks: Default::default(),
                    dp_idle: Default::default(),
                    dp_error: Default::default(),
                    dp_crc_err: Default::default(),
                    dp_mp: Default::default(),
                    dp_mp_take: Default::default(),
                    dp_mp_first: Default::default(),
                    dp_mp_last: Default::default(),
                    dp_mp_cnt: Default::default(),
                    dp_mp_state: Default::default(),
                    dp_mp_done: Default::default(),
                    dp_ck_open: Default::default(),
                    dp_need: Default::default(),
                    dec_stored_len: Default::default(),
                    dec_raw: Default::default(),
                    dec_crc: Default::default(),
                    dec_valid: Default::default(),
                    dec_ready: Default::default(),
                    ck_stored_len: Default::default(),
                    ck_raw: Default::default(),
                    ck_chunk_len: Default::default(),
                    ck_last: Default::default(),
                    ck_crc: Default::default(),
                    ck_valid: Default::default(),
                    ck_ready: Default::default(),
                    state: Default::default(),
                    cur: Default::default(),
                    desc: Default::default(),
                    hdr: Default::default(),
                    ws: Default::default(),
                    wv: Default::default(),
                    k: Default::default(),
                    w: Default::default(),
                    lim: Default::default(),
                    rmode: Default::default(),
                    smode: Default::default(),
                    got_last: Default::default(),
                    rerr: Default::default(),
                    flast: Default::default(),
                    req_addr: Default::default(),
                    req_beats: Default::default(),
                    code: Default::default(),
                    desc_read: Default::default(),
                    abort_pend: Default::default(),
                    serr: Default::default(),
                    n: Default::default(),
                    cl: Default::default(),
                    dst_len: Default::default(),
                    bw: Default::default(),
                    off: Default::default(),
                    rem: Default::default(),
                    wdone: Default::default(),
                    ck_cnt: Default::default(),
                    busy_r: Default::default(),
                    err_r: Default::default(),
                    err_code_r: Default::default(),
                    err_desc_r: Default::default(),
                    mc_done: Default::default(),
                    wbase: Default::default(),
                    wend: Default::default(),
                    ir_addr: Default::default(),
                    berr: Default::default(),
                    arem: Default::default(),
                    stopped: Default::default(),
                    stop_at: Default::default(),
                    stop_code: Default::default(),
                    dstart: Default::default(),
                    pr_addr: Default::default(),
                    pr_beats: Default::default(),
                    pay_out: Default::default(),
                    stop_wait: Default::default(),
                    chk: DescCheck::new(dw, elem_mask, has_zvcx, has_crc),
                    hchk: HdrCheck::new(has_zvcx, has_crc),
                    iwin: IndexWindow::new(dw),
                    hpack: HeaderPack::default(),
                    ckis: Default::default(),
                    ixs: Default::default(),
                    mcrc: Default::default(),
                    mpass: Default::default(),
                    rdh: ReadHold::new(bb),
                    wjoin: Default::default(),
                    djoin: Default::default(),
                    hjoin: Default::default(),
                    strb: Default::default(),
                    fill: Default::default(),
                    pext: Default::default(),
                    push_entry: Default::default(),
                    idx_room: Default::default(),
                    crc_on: Default::default(),
                    own_valid: Default::default(),
                    ix_fin: Default::default(),
                    ix_pad: Default::default(),
                    ix_send: Default::default(),
                    csz: Default::default(),
                    size: Default::default(),
                    room: Default::default(),
                    fits: Default::default(),
                    cw: Default::default(),
                    sa: Default::default(),
                    can_abort: Default::default(),
                    wr_sel_dp: Default::default(),
                    ws_load: Default::default(),
                    hdr_pack: Default::default(),
                    hdr_shift: Default::default(),
                    is_comp: Default::default(),
                    is_dec: Default::default(),
                    rd_hold: Default::default(),
                    rm_desc: c(0),
                    rm_hdr: c(1),
                    rm_idx: c(2),
                    op_comp: c(desc::OP_COMPRESS),
                    op_dec: c(desc::OP_DECOMPRESS),
                    desc_mask: c(desc::DESC_LEN as u64 - 1),
                    bb_inv: c(!(bb as u64 - 1)),
                    desc_words: c((desc::DESC_LEN / 4) as u64),
                    desc_beats: c((desc::DESC_LEN / bb).max(1) as u64),
                    // The 32-byte header: one beat, two at 128 bits.
                    hdr_beats: c((frame::HEADER_LEN / bb).max(1) as u64),
                    hdr_words: c(hdr_words),
                    status_off: c(desc::STATUS_FIELD.offset as u64),
                    e_m1_32: c(e as u64 - 1),
                    one32: c(1),
                    zero32: c(0),
                    k_e: c(e as u64),
                    k_e_m1: c(e as u64 - 1),
                    k_one: c(1),
                    k_zero: c(0),
                    wv_top: c(1 << (e - 1)),
                    // CRC entries of 128-byte chunks of 32-bit elements (idx_stream.rs).
                    cl_tiny: c(u64::from(frame::CHUNK_LOG2_MIN)),
                    elem_32: c(desc::ELEM_CODES[2].0),
                    e_bad_crc: code(error::BAD_CRC),
                    wv_zero: c(0),
                    ok: code(error::OK),
                    e_unaligned: code(error::UNALIGNED),
                    e_read: code(error::READ_ERROR),
                    e_write: code(error::WRITE_ERROR),
                    e_bad_index: code(error::BAD_INDEX),
                    e_bad_payload: code(error::BAD_PAYLOAD),
                    e_overflow: code(error::DST_OVERFLOW),
                    e_aborted: code(error::ABORTED),
                    zero_addr: c(0),
                    bb_addr: c(bb as u64),
                    // The beat holding the first index entry (metadata byte 32).
                    ia_hdr: c((hdr_words / e as u64) * bb as u64),
                    // The index beats of a window start 4·W bytes after the last one's (W is a
                    // multiple of E entries per beat).
                    win_bytes: c(4 << IDX_WIN_LOG2),
                    // (8-byte entries.)
                    win_bytes2: c(8 << IDX_WIN_LOG2),
                    lg_bb: c(log2(bb)),
                }
            }
        }
    };
}
