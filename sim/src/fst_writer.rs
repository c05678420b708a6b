//! A minimal safe interface to GTKWave's FST writer (`fstapi.c`, shipped with Verilator and
//! compiled by the build script into `libcdma_fstapi.a`): just what the VCD converter needs.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;
use std::ptr::NonNull;

/// An FST signal handle (`fstHandle`): 1 for the first signal, 0 means "no alias".
pub type Handle = u32;

/// `enum fstScopeType`: a Verilog module (`FST_ST_VCD_MODULE`).
pub const ST_VCD_MODULE: c_int = 0;
/// `enum fstVarType`: a `real` (`FST_VT_VCD_REAL`), whose values are `f64`s.
pub const VT_VCD_REAL: c_int = 3;
/// `enum fstVarType`: a `wire` (`FST_VT_VCD_WIRE`).
pub const VT_VCD_WIRE: c_int = 16;
/// `enum fstVarDir`: no direction (`FST_VD_IMPLICIT`; a VCD does not record one).
const VD_IMPLICIT: c_int = 0;

// The declarations of fstapi.h this file uses (enums are C ints).
extern "C" {
    fn fstWriterCreate(nam: *const c_char, use_compressed_hier: c_int) -> *mut c_void;
    fn fstWriterSetTimescale(ctx: *mut c_void, ts: c_int);
    fn fstWriterSetScope(
        ctx: *mut c_void,
        scopetype: c_int,
        scopename: *const c_char,
        scopecomp: *const c_char,
    );
    fn fstWriterSetUpscope(ctx: *mut c_void);
    fn fstWriterCreateVar(
        ctx: *mut c_void,
        vt: c_int,
        vd: c_int,
        len: u32,
        nam: *const c_char,
        alias_handle: Handle,
    ) -> Handle;
    fn fstWriterEmitTimeChange(ctx: *mut c_void, tim: u64);
    fn fstWriterEmitValueChange(ctx: *mut c_void, handle: Handle, val: *const c_void);
    fn fstWriterClose(ctx: *mut c_void);
}

/// An FST file being written; dropping it finishes (flushes and closes) the file.
pub struct FstWriter {
    ctx: NonNull<c_void>,
}

impl FstWriter {
    /// Create (truncate) the FST file `path`.
    pub fn create(path: &Path) -> Result<Self, String> {
        let name = c_string(&path.to_string_lossy())?;
        // SAFETY: `name` is a NUL-terminated string that outlives the call.
        let ctx = unsafe { fstWriterCreate(name.as_ptr(), 1) };
        NonNull::new(ctx)
            .map(|ctx| Self { ctx })
            .ok_or_else(|| "the FST writer could not create it".to_string())
    }

    /// Time unit as a power of ten of seconds (-12 = ps).
    pub fn set_timescale(&mut self, exponent: i32) {
        // SAFETY: `ctx` is the live writer owned by `self`.
        unsafe { fstWriterSetTimescale(self.ctx.as_ptr(), exponent) }
    }

    /// Open a scope (a level of the hierarchy) inside the current one.
    pub fn scope(&mut self, scope_type: c_int, name: &str) -> Result<(), String> {
        let name = c_string(name)?;
        // SAFETY: `ctx` is live; the strings outlive the call (the component may be null).
        unsafe {
            fstWriterSetScope(
                self.ctx.as_ptr(),
                scope_type,
                name.as_ptr(),
                std::ptr::null(),
            )
        }
        Ok(())
    }

    /// Close the current scope.
    pub fn upscope(&mut self) {
        // SAFETY: `ctx` is the live writer owned by `self`.
        unsafe { fstWriterSetUpscope(self.ctx.as_ptr()) }
    }

    /// Declare a signal of `bits` bits in the current scope; `alias` is 0 for a new signal,
    /// or the handle of the signal this one is another name of. Returns its handle.
    pub fn var(
        &mut self,
        var_type: c_int,
        bits: u32,
        name: &str,
        alias: Handle,
    ) -> Result<Handle, String> {
        let name = c_string(name)?;
        // SAFETY: `ctx` is live; `name` outlives the call.
        Ok(unsafe {
            fstWriterCreateVar(
                self.ctx.as_ptr(),
                var_type,
                VD_IMPLICIT,
                bits,
                name.as_ptr(),
                alias,
            )
        })
    }

    /// The following value changes happen at `time` (non-decreasing).
    pub fn time(&mut self, time: u64) {
        // SAFETY: `ctx` is the live writer owned by `self`.
        unsafe { fstWriterEmitTimeChange(self.ctx.as_ptr(), time) }
    }

    /// A new value of the bit-vector signal `handle`: exactly one `0 1 x z ...` character per
    /// bit, most significant first (the writer reads as many as the signal has bits).
    pub fn value(&mut self, handle: Handle, bits: &[u8]) {
        // SAFETY: `ctx` is live; the caller passes one byte per declared bit, which is what
        // the writer reads for a non-real signal.
        unsafe { fstWriterEmitValueChange(self.ctx.as_ptr(), handle, bits.as_ptr().cast()) }
    }

    /// A new value of the `real` signal `handle`.
    pub fn real(&mut self, handle: Handle, value: f64) {
        // SAFETY: `ctx` is live; a real signal's value is read as one double.
        unsafe {
            fstWriterEmitValueChange(self.ctx.as_ptr(), handle, std::ptr::from_ref(&value).cast())
        }
    }
}

impl Drop for FstWriter {
    fn drop(&mut self) {
        // SAFETY: `ctx` is owned by `self` and never used again; close flushes and frees it.
        unsafe { fstWriterClose(self.ctx.as_ptr()) }
    }
}

/// `s` as a C string (signal and file names never hold NUL; say so if one does).
fn c_string(s: &str) -> Result<CString, String> {
    CString::new(s).map_err(|_| format!("name {s:?} contains a NUL byte"))
}
