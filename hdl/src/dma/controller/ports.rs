//! The controller's struct: its ports (the CSR block, the read and write masters, the
//! datapath) and its internals, one type per bus width (`controller_struct!`, invoked by
//! `controller!` in the parent module, where the names it uses are in scope).

macro_rules! controller_struct {
    (
        $(#[$doc:meta])*
        $name:ident, dw: $dw:tt, bb: $bb:tt, e: $e:tt, lge: $lge:tt, dwm32: $dwm32:tt
    ) => {
        $(#[$doc])*
        #[derive(LogicBlock)]
        pub struct $name {
            /// Clock, rising edge.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub rst: Signal<In, Bit>,
            // ---------------- CSR block
            /// CTRL.enable: doorbells are ignored while low.
            pub enable: Signal<In, Bit>,
            /// Pulse: start the chain at `head` (when enabled and idle).
            pub doorbell: Signal<In, Bit>,
            /// Pulse: abort the running chain.
            pub abort: Signal<In, Bit>,
            /// Chain head address.
            pub head: Signal<In, Bits<ADDR_BITS>>,
            /// A chain is running.
            pub busy: Signal<Out, Bit>,
            /// Sticky error flag, cleared by the doorbell.
            pub error: Signal<Out, Bit>,
            /// Error code of the last failure.
            pub err_code: Signal<Out, Bits<CODE_BITS>>,
            /// Address of the last failed descriptor.
            pub err_desc: Signal<Out, Bits<ADDR_BITS>>,
            /// Pulse: a descriptor finished (fetched or not).
            pub desc_done: Signal<Out, Bit>,
            /// Pulse: a descriptor with the irq flag finished or the chain ended.
            pub irq_done_set: Signal<Out, Bit>,
            /// Pulse: a descriptor failed.
            pub irq_error_set: Signal<Out, Bit>,
            // ---------------- read master
            /// Read request address (bus aligned).
            pub rd_req_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Read request length in beats.
            pub rd_req_beats: Signal<Out, Bits<LEN_BITS>>,
            /// Read request valid.
            pub rd_req_valid: Signal<Out, Bit>,
            /// Read request ready.
            pub rd_req_ready: Signal<In, Bit>,
            /// Read beat data.
            pub rd_data: Signal<In, Bits<$dw>>,
            /// Last beat of the read request.
            pub rd_last: Signal<In, Bit>,
            /// The beat had a read error.
            pub rd_err: Signal<In, Bit>,
            /// Read beat valid.
            pub rd_valid: Signal<In, Bit>,
            /// Read beat ready (the controller's or the datapath's).
            pub rd_ready: Signal<Out, Bit>,
            /// The read master has nothing outstanding.
            pub rd_idle: Signal<In, Bit>,
            // ---------------- write master
            /// Write stream address (bus aligned).
            pub wr_req_addr: Signal<Out, Bits<ADDR_BITS>>,
            /// Write request valid.
            pub wr_req_valid: Signal<Out, Bit>,
            /// Write request ready.
            pub wr_req_ready: Signal<In, Bit>,
            /// Write beat data.
            pub wr_data: Signal<Out, Bits<$dw>>,
            /// Write beat strobes.
            pub wr_strb: Signal<Out, Bits<$bb>>,
            /// Last beat of the write stream.
            pub wr_last: Signal<Out, Bit>,
            /// Write beat valid.
            pub wr_valid: Signal<Out, Bit>,
            /// Write beat ready.
            pub wr_ready: Signal<In, Bit>,
            /// Pulse: the write stream's B responses are all back.
            pub wr_done: Signal<In, Bit>,
            /// With `wr_done`: a B response was an error.
            pub wr_err: Signal<In, Bit>,
            /// The write master has nothing outstanding.
            pub wr_idle: Signal<In, Bit>,
            /// Abort the masters and the datapath (level, until all idle).
            pub abort_out: Signal<Out, Bit>,
            // ---------------- datapath beats
            /// Payload read beat valid towards the datapath.
            pub dp_rd_valid: Signal<Out, Bit>,
            /// The datapath takes the payload read beat.
            pub dp_rd_ready: Signal<In, Bit>,
            /// Payload write beat from the LanePacker.
            pub dp_wr_data: Signal<In, Bits<$dw>>,
            /// Payload write beat strobes.
            pub dp_wr_strb: Signal<In, Bits<$bb>>,
            /// Last payload write beat.
            pub dp_wr_last: Signal<In, Bit>,
            /// Payload write beat valid.
            pub dp_wr_valid: Signal<In, Bit>,
            /// The write master takes the payload beat.
            pub dp_wr_ready: Signal<Out, Bit>,
            // ---------------- datapath control
            /// Pulse: start an operation.
            pub dp_start: Signal<Out, Bit>,
            /// Operation code.
            pub dp_op: Signal<Out, Bits<OP_BITS>>,
            /// Bytes read from src.
            pub dp_src_len: Signal<Out, Bits<LEN_BITS>>,
            /// Bytes to write at dst (0 for COMPRESS: not known).
            pub dp_dst_len: Signal<Out, Bits<LEN_BITS>>,
            /// Chunk size log2.
            pub dp_chunk_log2: Signal<Out, Bits<CL_BITS>>,
            /// Chunks of the operation.
            pub dp_n_chunks: Signal<Out, Bits<LEN_BITS>>,
            /// The datapath is idle.
            pub dp_idle: Signal<In, Bit>,
            /// DECOMPRESS payload error.
            pub dp_error: Signal<In, Bit>,
            // ---------------- COMPRESS decisions
            /// Stored bytes of the chunk.
            pub dec_stored_len: Signal<In, Bits<LEN_BITS>>,
            /// The chunk is stored raw.
            pub dec_raw: Signal<In, Bit>,
            /// Decision valid.
            pub dec_valid: Signal<In, Bit>,
            /// Decision taken.
            pub dec_ready: Signal<Out, Bit>,
            // ---------------- chunk commands
            /// Stored bytes of the chunk.
            pub ck_stored_len: Signal<Out, Bits<LEN_BITS>>,
            /// The chunk is stored raw.
            pub ck_raw: Signal<Out, Bit>,
            /// Uncompressed bytes of the chunk.
            pub ck_chunk_len: Signal<Out, Bits<LEN_BITS>>,
            /// Last chunk.
            pub ck_last: Signal<Out, Bit>,
            /// Command valid.
            pub ck_valid: Signal<Out, Bit>,
            /// Command taken.
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
            bad: DFF<Bit>,
            wdone: DFF<Bit>,
            ck_cnt: DFF<Bits<LEN_BITS>>,
            ck_v: DFF<Bit>,
            ck_fetch: DFF<Bit>,
            ck_len_r: DFF<Bits<LEN_BITS>>,
            ck_raw_r: DFF<Bit>,
            ck_size_r: DFF<Bits<LEN_BITS>>,
            ck_last_r: DFF<Bit>,
            busy_r: DFF<Bit>,
            err_r: DFF<Bit>,
            err_code_r: DFF<Bits<CODE_BITS>>,
            err_desc_r: DFF<Bits<ADDR_BITS>>,
            // children
            chk: DescCheck,
            hchk: HdrCheck,
            hpack: HeaderPack,
            ram: RAM<Bits<ENTRY_BITS>, IDX_LOG2>,
            wjoin: Join<$dwm32, 32, $dw>,
            djoin: Join<DESC_REST, 32, DESC_BITS>,
            hjoin: Join<HDR_REST, 32, HDR_BITS>,
            strb: LaneMask<$e, 4, $bb>,
            code32: ZeroExtend<CODE_BITS, 32>,
            // locals
            word: Signal<Local, Bits<32>>,
            wvalid: Signal<Local, Bit>,
            csz: Signal<Local, Bits<LEN_BITS>>,
            size: Signal<Local, Bits<LEN_BITS>>,
            e_len: Signal<Local, Bits<LEN_BITS>>,
            e_raw: Signal<Local, Bit>,
            ent_idx: Signal<Local, Bits<IDX_LOG2>>,
            ent_nxt: Signal<Local, Bits<IDX_LOG2>>,
            room: Signal<Local, Bits<LEN_BITS>>,
            fits: Signal<Local, Bit>,
            sa: Signal<Local, Bits<ADDR_BITS>>,
            soff: Signal<Local, Bits<$lge>>,
            cw: Signal<Local, Bits<LEN_BITS>>,
            idx_words: Signal<Local, Bits<LEN_BITS>>,
            hidx_words: Signal<Local, Bits<LEN_BITS>>,
            status32: Signal<Local, Bits<32>>,
            can_abort: Signal<Local, Bit>,
            wr_sel_dp: Signal<Local, Bit>,
            ws_load: Signal<Local, Bit>,
            hdr_pack: Signal<Local, Bit>,
            hdr_shift: Signal<Local, Bit>,
            is_comp: Signal<Local, Bit>,
            is_dec: Signal<Local, Bit>,
            // constants
            rm_desc: Constant<Bits<2>>,
            rm_hdr: Constant<Bits<2>>,
            rm_idx: Constant<Bits<2>>,
            op_comp: Constant<Bits<OP_BITS>>,
            op_dec: Constant<Bits<OP_BITS>>,
            desc_mask: Constant<Bits<ADDR_BITS>>,
            bb_inv: Constant<Bits<ADDR_BITS>>,
            hdr_words_i: Constant<Bits<IDX_LOG2>>,
            hdr_words_m1_i: Constant<Bits<IDX_LOG2>>,
            status_off: Constant<Bits<ADDR_BITS>>,
            desc_words: Constant<Bits<LEN_BITS>>,
            desc_beats: Constant<Bits<LEN_BITS>>,
            hdr_words: Constant<Bits<LEN_BITS>>,
            e_m1_32: Constant<Bits<LEN_BITS>>,
            lg_e: Constant<Bits<5>>,
            one32: Constant<Bits<LEN_BITS>>,
            zero32: Constant<Bits<LEN_BITS>>,
            k_e: Constant<Bits<8>>,
            k_e_m1: Constant<Bits<8>>,
            k_one: Constant<Bits<8>>,
            k_zero: Constant<Bits<8>>,
            wv_top: Constant<Bits<$e>>,
            wv_zero: Constant<Bits<$e>>,
            soff_one: Constant<Bits<$lge>>,
            size_mask: Constant<Bits<LEN_BITS>>,
            raw_mask: Constant<Bits<LEN_BITS>>,
            eb_mask: Constant<Bits<LEN_BITS>>,
            st_done: Constant<Bits<32>>,
            st_err_lsb: Constant<Bits<5>>,
            ok: Constant<Bits<CODE_BITS>>,
            e_unaligned: Constant<Bits<CODE_BITS>>,
            e_read: Constant<Bits<CODE_BITS>>,
            e_write: Constant<Bits<CODE_BITS>>,
            e_bad_index: Constant<Bits<CODE_BITS>>,
            e_bad_payload: Constant<Bits<CODE_BITS>>,
            e_overflow: Constant<Bits<CODE_BITS>>,
            e_aborted: Constant<Bits<CODE_BITS>>,
            zero_addr: Constant<Bits<ADDR_BITS>>,
        }
    };
}
