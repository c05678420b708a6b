//! The controller's struct: its ports (the CSR block, the read and write masters, the
//! datapath) and its internals, one type per bus width (`controller_struct!`, invoked by
//! `controller!` in the parent module, where the names it uses are in scope).

macro_rules! controller_struct {
    (
        $(#[$doc:meta])*
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, lgdw: $lgdw:tt,
        dwm32: $dwm32:tt, dwm64: $dwm64:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            // ---------------- CSR block
            /// CSR CTRL.enable: doorbells are ignored while low.
            pub enable: Signal<In, Bit>,
            /// Pulse: start the chain at head (when enabled and idle; ignored otherwise).
            pub doorbell: Signal<In, Bit>,
            /// Pulse: abort the running chain (ignored when idle).
            pub abort: Signal<In, Bit>,
            /// Chain head address (CSR HEAD).
            pub head: Signal<In, Bits<ADDR_BITS>>,
            /// A chain is running.
            pub busy: Signal<Out, Bit>,
            /// A descriptor of the current or last chain failed; cleared by the doorbell.
            pub error: Signal<Out, Bit>,
            /// Error code of the last failure.
            pub err_code: Signal<Out, Bits<CODE_BITS>>,
            /// Address of the last descriptor that failed.
            pub err_desc: Signal<Out, Bits<ADDR_BITS>>,
            /// Pulse: a descriptor finished: fetched (its status write-back was attempted) or not
            /// (unaligned address, fetch error, abort during its fetch).
            pub desc_done: Signal<Out, Bit>,
            /// Pulse: a descriptor with its irq flag finished, or the chain ended.
            pub irq_done_set: Signal<Out, Bit>,
            /// Pulse: a descriptor failed (error, err_code, err_desc updated).
            pub irq_error_set: Signal<Out, Bit>,
            // ---------------- read master
            /// Read request: bus-aligned byte address.
            pub rd_req_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Read request length in beats.
            pub rd_req_beats: Signal<Out, Bits<LEN_BITS>>,
            /// Read request handshake.
            pub rd_req_valid: Signal<Out, Bit>,
            /// Read request handshake.
            pub rd_req_ready: Signal<In, Bit>,
            /// Read beat data (also wired to the datapath by the top).
            pub rd_data: Signal<In, Bits<$dw>>,
            /// Last beat of the read request.
            pub rd_last: Signal<In, Bit>,
            /// The beat's RRESP was SLVERR/DECERR.
            pub rd_err: Signal<In, Bit>,
            /// Read beat handshake.
            pub rd_valid: Signal<In, Bit>,
            /// Read beat handshake: the controller's own beats, or the datapath's dp_rd_ready while
            /// payload is streaming.
            pub rd_ready: Signal<Out, Bit>,
            /// The read master has nothing outstanding.
            pub rd_idle: Signal<In, Bit>,
            // ---------------- write master
            /// Write stream request: bus-aligned byte address.
            pub wr_req_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Write request handshake.
            pub wr_req_valid: Signal<Out, Bit>,
            /// Write request handshake.
            pub wr_req_ready: Signal<In, Bit>,
            /// Write beat data: the datapath's (payload) or the controller's (header + index,
            /// status).
            pub wr_data: Signal<Out, Bits<$dw>>,
            /// Write beat byte strobes.
            pub wr_strb: Signal<Out, Bits<$bb>>,
            /// Last beat of the write stream.
            pub wr_last: Signal<Out, Bit>,
            /// The write beat closes its burst: the next beat jumps (a payload beat before an
            /// index beat; every beat of the controller's own).
            pub wr_close: Signal<Out, Bit>,
            /// The write beat goes to wr_jump_addr, not after the beat before it (an index beat,
            /// the payload beat after it, the controller's own beats).
            pub wr_jump: Signal<Out, Bit>,
            /// With wr_jump: the beat's bus-aligned byte address.
            pub wr_jump_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Write beat handshake.
            pub wr_valid: Signal<Out, Bit>,
            /// Write beat handshake.
            pub wr_ready: Signal<In, Bit>,
            /// Pulse: the write stream's B responses are all back.
            pub wr_done: Signal<In, Bit>,
            /// With wr_done: a B response was SLVERR/DECERR.
            pub wr_err: Signal<In, Bit>,
            /// The write master has nothing outstanding.
            pub wr_idle: Signal<In, Bit>,
            /// Level: stop issuing, drain and drop (masters and datapath); held until rd_idle,
            /// wr_idle and dp_idle.
            pub abort_out: Signal<Out, Bit>,
            // ---------------- datapath beats
            /// Payload read beat valid towards the datapath (rd_data/rd_last/rd_err wired
            /// directly).
            pub dp_rd_valid: Signal<Out, Bit>,
            /// The datapath takes the payload read beat.
            pub dp_rd_ready: Signal<In, Bit>,
            /// Payload write beat data from the datapath.
            pub dp_wr_data: Signal<In, Bits<$dw>>,
            /// Payload write beat strobes.
            pub dp_wr_strb: Signal<In, Bits<$bb>>,
            /// Last payload write beat (flushes the write stream).
            pub dp_wr_last: Signal<In, Bit>,
            /// Payload write beat valid.
            pub dp_wr_valid: Signal<In, Bit>,
            /// The write master takes the payload beat.
            pub dp_wr_ready: Signal<Out, Bit>,
            // ---------------- datapath control
            /// Pulse: start an operation with dp_op/dp_src_len/dp_dst_len/dp_chunk_log2/dp_n_chunks
            /// (held stable until the next start).
            pub dp_start: Signal<Out, Bit>,
            /// Operation: cdma_spec::desc OP_COPY / OP_COMPRESS / OP_DECOMPRESS.
            pub dp_op: Signal<Out, Bits<OP_BITS>>,
            /// Element width code (0 = 8, 1 = 16, 2 = 32 bits) of the descriptor.
            pub dp_elem: Signal<Out, Bits<ELEM_BITS>>,
            /// The codec is ZVC-X: the descriptor's (COMPRESS) or the frame's (DECOMPRESS).
            pub dp_zvcx: Signal<Out, Bit>,
            /// The element type code: the descriptor's (COMPRESS) or the frame's (DECOMPRESS).
            pub dp_ty: Signal<Out, Bits<TYPE_BITS>>,
            /// The frame carries CRC32C (version 4): the descriptor's (COMPRESS) or the frame's
            /// (DECOMPRESS).
            pub dp_crc: Signal<Out, Bit>,
            /// Bytes read from src (the last read beat holds src_len mod BB of them, 0 = all).
            pub dp_src_len: Signal<Out, Bits<LEN_BITS>>,
            /// Bytes to write at dst (COPY: src_len, DECOMPRESS: uncompressed_len, COMPRESS: 0 =
            /// not known).
            pub dp_dst_len: Signal<Out, Bits<LEN_BITS>>,
            /// Chunk size 2^dp_chunk_log2 bytes (COMPRESS, DECOMPRESS).
            pub dp_chunk_log2: Signal<Out, Bits<CL_BITS>>,
            /// Chunks of the operation (COMPRESS, DECOMPRESS).
            pub dp_n_chunks: Signal<Out, Bits<LEN_BITS>>,
            /// The datapath holds no beat and no chunk.
            pub dp_idle: Signal<In, Bit>,
            /// DECOMPRESS: a chunk does not decode to its size in exactly its stored size
            /// (BAD_PAYLOAD).
            pub dp_error: Signal<In, Bit>,
            /// DECOMPRESS: a chunk's data did not match its CRC32C (BAD_CRC; settled once
            /// dp_ck_open is low).
            pub dp_crc_err: Signal<In, Bit>,
            /// Metadata pass (DECOMPRESS of a version 4 frame, before the payload): level
            /// until dp_mp_done.
            pub dp_mp: Signal<Out, Bit>,
            /// Metadata pass: an index read beat (rd_data) is taken.
            pub dp_mp_take: Signal<Out, Bit>,
            /// Metadata pass: its first beat.
            pub dp_mp_first: Signal<Out, Bit>,
            /// Metadata pass: its last beat.
            pub dp_mp_last: Signal<Out, Bit>,
            /// Metadata pass: index bytes of the beat end at this lane.
            pub dp_mp_cnt: Signal<Out, Bits<8>>,
            /// Metadata pass: the raw CRC32C state after the index.
            pub dp_mp_state: Signal<In, Bits<32>>,
            /// Metadata pass: dp_mp_state is there (one cycle).
            pub dp_mp_done: Signal<In, Bit>,
            /// DECOMPRESS: the datapath holds a chunk command whose chunk is not finished
            /// (an index error is reported once it is low, after the chunks before the entry).
            pub dp_ck_open: Signal<In, Bit>,
            /// DECOMPRESS: the datapath cannot decide its next chunk without the next payload
            /// beat (a held read error is then reported).
            pub dp_need: Signal<In, Bit>,
            // ---------------- COMPRESS decisions
            /// COMPRESS decision: bytes the chunk takes in the payload (< 2^31).
            pub dec_stored_len: Signal<In, Bits<LEN_BITS>>,
            /// COMPRESS decision: the chunk is stored raw.
            pub dec_raw: Signal<In, Bit>,
            /// COMPRESS decision: the CRC32C of the chunk's data (version 4 frames).
            pub dec_crc: Signal<In, Bits<32>>,
            /// Decision handshake.
            pub dec_valid: Signal<In, Bit>,
            /// Decision handshake: shifted into the index beat being filled and forwarded as a
            /// chunk command (combinational from ck_ready; low while both index beat registers
            /// are full).
            pub dec_ready: Signal<Out, Bit>,
            // ---------------- chunk commands
            /// Chunk command: stored bytes of the chunk in the payload.
            pub ck_stored_len: Signal<Out, Bits<LEN_BITS>>,
            /// Chunk command: stored raw (else ZVC).
            pub ck_raw: Signal<Out, Bit>,
            /// Chunk command: uncompressed bytes of the chunk (2^chunk_log2 except the last).
            pub ck_chunk_len: Signal<Out, Bits<LEN_BITS>>,
            /// Chunk command: last chunk of the operation.
            pub ck_last: Signal<Out, Bit>,
            /// Chunk command (DECOMPRESS of a version 4 frame): the CRC32C of the chunk's data.
            pub ck_crc: Signal<Out, Bits<32>>,
            /// Chunk command handshake (COMPRESS: the decision passed the capacity check).
            pub ck_valid: Signal<Out, Bit>,
            /// Chunk command handshake (must not depend on ck_valid).
            pub ck_ready: Signal<In, Bit>,
            // ================= internals
            state: DFF<CtlState>,
            cur: DFF<Bits<ADDR_BITS>>,
            desc: EnReg<DESC_BITS>,
            hdr: EnReg<HDR_BITS>,
            ws: EnReg<$dw>,
            wv: DFF<Bits<$e>>,
            k: DFF<Bits<8>>,
            w: DFF<Bits<LEN_BITS>>,
            lim: DFF<Bits<LEN_BITS>>,
            rmode: DFF<Bits<2>>,
            smode: DFF<Bit>,
            got_last: DFF<Bit>,
            rerr: DFF<Bit>,
            flast: DFF<Bit>,
            req_addr: DFF<Bits<ADDR_BITS>>,
            req_beats: DFF<Bits<LEN_BITS>>,
            code: DFF<Bits<CODE_BITS>>,
            desc_read: DFF<Bit>,
            abort_pend: DFF<Bit>,
            serr: DFF<Bit>,
            n: DFF<Bits<LEN_BITS>>,
            cl: DFF<Bits<CL_BITS>>,
            dst_len: DFF<Bits<LEN_BITS>>,
            bw: DFF<Bits<LEN_BITS>>,
            off: DFF<Bits<LEN_BITS>>,
            rem: DFF<Bits<LEN_BITS>>,
            wdone: DFF<Bit>,
            ck_cnt: DFF<Bits<LEN_BITS>>,
            busy_r: DFF<Bit>,
            err_r: DFF<Bit>,
            err_code_r: DFF<Bits<CODE_BITS>>,
            err_desc_r: DFF<Bits<ADDR_BITS>>,
            // Version 4: the metadata CRC is in the index (COMPRESS)
            mc_done: DFF<Bit>,
            // DECOMPRESS index windows: entries [wbase, wend) are read (index beats from
            // ir_addr) and checked into the RAM, then their payload is requested (pr_beats
            // beats so far, from pr_addr; pay_out not yet delivered) and their chunk commands
            // issued; the first entry that fails (stop_at, stop_code) ends the windows: its
            // chunks before it are finished (dp_ck_open low, stop_wait) before the code is
            // reported
            wbase: DFF<Bits<LEN_BITS>>,
            wend: DFF<Bits<LEN_BITS>>,
            ir_addr: DFF<Bits<ADDR_BITS>>,
            berr: DFF<Bit>,
            arem: DFF<Bits<LEN_BITS>>,
            stopped: DFF<Bit>,
            stop_at: DFF<Bits<LEN_BITS>>,
            stop_code: DFF<Bits<CODE_BITS>>,
            dstart: DFF<Bit>,
            pr_addr: DFF<Bits<ADDR_BITS>>,
            pr_beats: DFF<Bits<LEN_BITS>>,
            pay_out: DFF<Bits<LEN_BITS>>,
            stop_wait: DFF<Bit>,
            // DECOMPRESS: the header's CRC and ZVC-X flags and type (registered in HdrCheck), the
            // payload bytes left after the good entries (payload_len - off) and the metadata
            // word of the frame's last entry, so the entry checks start from registers
            h_crc: DFF<Bit>,
            h_zvcx: DFF<Bit>,
            h_ty: DFF<Bits<TYPE_BITS>>,
            left: DFF<Bits<LEN_BITS>>,
            last_w: DFF<Bits<LEN_BITS>>,
            // DECOMPRESS: the window's bounds in metadata words and index beats, registered
            // from wbase and wend every cycle (IdxWait lets them settle before IdxWin)
            wlo_r: DFF<Bits<LEN_BITS>>,
            whi_r: DFF<Bits<LEN_BITS>>,
            fw_r: DFF<Bits<LEN_BITS>>,
            bhi_r: DFF<Bits<LEN_BITS>>,
            blo_r: DFF<Bits<LEN_BITS>>,
            // DECOMPRESS: the payload beats the checked entries cover, not yet requested
            // (registered every cycle: off and pr_beats hold a cycle before IdxCheck)
            pay_new_r: DFF<Bits<LEN_BITS>>,
            pay_all_r: DFF<Bits<LEN_BITS>>,
            // The checkers' codes, registered every cycle (the descriptor and the header hold
            // a cycle before Check and HdrCheck)
            ccode_r: DFF<Bits<CODE_BITS>>,
            hcode_r: DFF<Bits<CODE_BITS>>,
            // HdrCheck's second cycle (its code comes two cycles after the header: a register
            // stage in HdrCheck, then hcode_r)
            h_wait: DFF<Bit>,
            // COMPRESS: dst_cap - off, the room left for payload
            room: DFF<Bits<LEN_BITS>>,
            // children
            chk: DescCheck,
            hchk: HdrCheck,
            iwin: IndexWindow,
            hpack: HeaderPack,
            // DECOMPRESS: the entry RAMs and the chunk commands
            ckis: CmdIssue,
            // COMPRESS index streaming and the write beat source
            ixs: IdxStream<$dw, $bb, $e, $dwm32, $dwm64>,
            mcrc: MetaCrc,
            mpass: MetaPass<$dw, $bb, $e, $lge, $lgdw>,
            // the payload read beats while streaming, and the read error (held on COMPRESS)
            rdh: ReadHold,
            wjoin: Join<$dwm32, 32, $dw>,
            djoin: Join<DESC_REST, 32, DESC_BITS>,
            hjoin: Join<HDR_REST, 32, HDR_BITS>,
            strb: LaneMask<$e, 4, $bb>,
            fill: FillWord<$lge>,
            pext: ZeroExtend<LEN_BITS, ADDR_BITS>,
            // locals
            push_entry: Signal<Local, Bit>,
            idx_room: Signal<Local, Bit>,
            crc_on: Signal<Local, Bit>,
            own_valid: Signal<Local, Bit>,
            ix_fin: Signal<Local, Bit>,
            ix_pad: Signal<Local, Bit>,
            ix_send: Signal<Local, Bit>,
            csz: Signal<Local, Bits<LEN_BITS>>,
            size: Signal<Local, Bits<LEN_BITS>>,
            rem_small: Signal<Local, Bit>,
            csz_mask: Signal<Local, Bits<LEN_BITS>>,
            rem_next: Signal<Local, Bits<LEN_BITS>>,
            fits: Signal<Local, Bit>,
            cw: Signal<Local, Bits<LEN_BITS>>,
            sa: Signal<Local, Bits<ADDR_BITS>>,
            can_abort: Signal<Local, Bit>,
            wr_sel_dp: Signal<Local, Bit>,
            ws_load: Signal<Local, Bit>,
            hdr_pack: Signal<Local, Bit>,
            hdr_shift: Signal<Local, Bit>,
            is_comp: Signal<Local, Bit>,
            is_dec: Signal<Local, Bit>,
            rd_hold: Signal<Local, Bit>,
            // constants
            rm_desc: Constant<Bits<2>>,
            rm_hdr: Constant<Bits<2>>,
            rm_idx: Constant<Bits<2>>,
            op_comp: Constant<Bits<OP_BITS>>,
            op_dec: Constant<Bits<OP_BITS>>,
            desc_mask: Constant<Bits<ADDR_BITS>>,
            bb_inv: Constant<Bits<ADDR_BITS>>,
            desc_words: Constant<Bits<LEN_BITS>>,
            desc_beats: Constant<Bits<LEN_BITS>>,
            hdr_beats: Constant<Bits<LEN_BITS>>,
            hdr_words: Constant<Bits<LEN_BITS>>,
            status_off: Constant<Bits<ADDR_BITS>>,
            e_m1_32: Constant<Bits<LEN_BITS>>,
            one32: Constant<Bits<LEN_BITS>>,
            zero32: Constant<Bits<LEN_BITS>>,
            k_e: Constant<Bits<8>>,
            k_e_m1: Constant<Bits<8>>,
            k_one: Constant<Bits<8>>,
            k_zero: Constant<Bits<8>>,
            wv_top: Constant<Bits<$e>>,
            cl_tiny: Constant<Bits<CL_BITS>>,
            elem_32: Constant<Bits<ELEM_BITS>>,
            e_bad_crc: Constant<Bits<CODE_BITS>>,
            wv_zero: Constant<Bits<$e>>,
            ok: Constant<Bits<CODE_BITS>>,
            e_unaligned: Constant<Bits<CODE_BITS>>,
            e_read: Constant<Bits<CODE_BITS>>,
            e_write: Constant<Bits<CODE_BITS>>,
            e_bad_index: Constant<Bits<CODE_BITS>>,
            e_bad_payload: Constant<Bits<CODE_BITS>>,
            e_overflow: Constant<Bits<CODE_BITS>>,
            e_aborted: Constant<Bits<CODE_BITS>>,
            zero_addr: Constant<Bits<ADDR_BITS>>,
            bb_addr: Constant<Bits<ADDR_BITS>>,
            ia_hdr: Constant<Bits<ADDR_BITS>>,
            win_bytes: Constant<Bits<ADDR_BITS>>,
            win_bytes2: Constant<Bits<ADDR_BITS>>,
            win_ents: Constant<Bits<LEN_BITS>>,
            ones32: Constant<Bits<LEN_BITS>>,
            lg_bb: Constant<Bits<5>>,
        }
    };
}
