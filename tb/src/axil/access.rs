//! Blocking CSR accesses over an [`AxiLiteMaster`] with a cycle limit.

use super::master::AxiLiteMaster;
use super::signals::LiteOutcome;
use crate::axi::Resp;
use crate::error::TbError;
use crate::watchdog::Watchdog;

/// master itself, an [`AxiLiteDut`](super::AxiLiteDut), or a whole testbench.
pub trait LiteAccess: Sized {
    /// The master to start accesses on.
    fn lite(&mut self) -> &mut AxiLiteMaster;

    /// Writes `value` (all four strobes) to `addr`, running `cycle` until B returns or `limit`
    /// cycles pass; returns `BRESP`.
    fn lite_write<F>(
        &mut self,
        addr: u32,
        value: u32,
        limit: u64,
        cycle: F,
    ) -> Result<Resp, TbError>
    where
        F: FnMut(&mut Self) -> Result<(), TbError>,
    {
        self.lite_write_strb(addr, value, 0xF, limit, cycle)
    }

    /// [`LiteAccess::lite_write`] with explicit byte strobes.
    fn lite_write_strb<F>(
        &mut self,
        addr: u32,
        value: u32,
        strb: u8,
        limit: u64,
        cycle: F,
    ) -> Result<Resp, TbError>
    where
        F: FnMut(&mut Self) -> Result<(), TbError>,
    {
        self.lite().start_write(addr, value, strb);
        match run_access(self, limit, cycle)? {
            LiteOutcome::Write(r) => Ok(r),
            LiteOutcome::Read(..) => unreachable!("a write finishes with B"),
        }
    }

    /// Reads `addr`, running `cycle` until R returns or `limit` cycles pass; returns `RDATA`
    /// and `RRESP`.
    fn lite_read<F>(&mut self, addr: u32, limit: u64, cycle: F) -> Result<(u32, Resp), TbError>
    where
        F: FnMut(&mut Self) -> Result<(), TbError>,
    {
        self.lite().start_read(addr);
        match run_access(self, limit, cycle)? {
            LiteOutcome::Read(d, r) => Ok((d, r)),
            LiteOutcome::Write(_) => unreachable!("a read finishes with R"),
        }
    }
}

fn run_access<H: LiteAccess, F>(h: &mut H, limit: u64, mut cycle: F) -> Result<LiteOutcome, TbError>
where
    F: FnMut(&mut H) -> Result<(), TbError>,
{
    let mut wd = Watchdog::new(limit);
    loop {
        if let Some(r) = h.lite().take_result() {
            return Ok(r);
        }
        wd.tick(|| h.lite().pending())?;
        cycle(h)?;
    }
}

impl LiteAccess for AxiLiteMaster {
    fn lite(&mut self) -> &mut AxiLiteMaster {
        self
    }
}
