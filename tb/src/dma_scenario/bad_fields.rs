//! The RTL fault campaign's chains: random descriptor chains with bad fields, and chains of
//! DECOMPRESSes of damaged frames, from `cdma_fuzz::chains` (the generator `cdma fuzz
//! --chains` runs on the golden model) as [`Scenario`]s, so the Verilated engine runs them and
//! its memory, status words and CSRs are compared with the model's byte for byte, guard bytes
//! included.

use cdma_fuzz::chains::{
    draw_damaged_for, draw_for, ChainCase, DESC_BASE, FILL, MAX_DESCS, REGION_BASE, REGION_STRIDE,
};
use cdma_model::dma::{BusError, ChainEnd, EngineConfig, Op};

use super::scenario::{PlannedDesc, Region, RegionKind, Scenario, Segment};
use crate::axi::{Access, ErrorRange, Resp};

/// Chain `index` of the campaign `seed` on `engine` as a scenario, or `None` if the model says
/// it would not end without an abort (a `next` into its own data that happens to point back).
pub fn bad_field_chain(engine: &EngineConfig, seed: u64, index: u64) -> Option<Scenario> {
    let case = draw_for(engine, seed, index);
    let scn = scenario_of(&case, &format!("bad fields {seed}/{index}"));
    (scn.expect().outcome.end != ChainEnd::Limit).then_some(scn)
}

/// Chain `index` of the damaged-frame campaign `seed` on `engine` as a scenario: six
/// DECOMPRESSes of damaged frames (version 4 mostly), none stopping the chain.
pub fn damaged_frame_chain(engine: &EngineConfig, seed: u64, index: u64) -> Scenario {
    let case = draw_damaged_for(engine, seed, index);
    scenario_of(&case, &format!("damaged frames {seed}/{index}"))
}

fn scenario_of(case: &ChainCase, name: &str) -> Scenario {
    // Every descriptor slot and region slot a chain may use, whatever this chain's length: a
    // bench reused across chains still holds the previous chain's bytes there, and a chain
    // may read into slots it does not own (a damaged `src_len`).
    let mut regions = Vec::new();
    for i in 0..MAX_DESCS {
        let dd = case.descs.get(i);
        let label = dd.map_or(format!("d{i} unused"), |dd| {
            let faults: Vec<&str> = dd.faults.iter().map(|f| f.name()).collect();
            format!("d{i} {:?} [{}]", dd.op, faults.join(", "))
        });
        let at = DESC_BASE + 64 * i as u64;
        regions.push(Region {
            range: at..at + 64,
            kind: RegionKind::Descriptor,
            label: label.clone(),
        });
        for (k, kind) in [
            RegionKind::Source,
            RegionKind::Destination,
            RegionKind::Metadata,
        ]
        .into_iter()
        .enumerate()
        {
            let at = REGION_BASE + (3 * i as u64 + k as u64) * REGION_STRIDE;
            regions.push(Region {
                range: at..at + REGION_STRIDE,
                kind,
                label: format!("{label} {kind:?}"),
            });
        }
    }
    let mut descs = Vec::new();
    let mut compress_in = 0;
    for (i, dd) in case.descs.iter().enumerate() {
        if dd.op == Op::Compress {
            compress_in += dd.data.len() as u64;
        }
        descs.push(PlannedDesc {
            addr: dd.addr,
            desc: dd.desc,
            label: regions[4 * i].label.clone(),
            intent: None,
        });
    }
    let errors = case
        .errors
        .iter()
        .map(|e| {
            let resp = match e.resp {
                BusError::SlvErr => Resp::Slverr,
                BusError::DecErr => Resp::Decerr,
            };
            let on = if e.on_read {
                Access::Read
            } else {
                Access::Write
            };
            ErrorRange::new(e.range.start, e.range.end, resp, on)
        })
        .collect();
    Scenario {
        name: name.to_string(),
        engine: case.cfg,
        fill: FILL,
        head: case.head,
        descs,
        regions: regions.clone(),
        // Every region whole, fill bytes included: a bench reused across chains still holds
        // the previous chain's bytes there.
        image: regions
            .iter()
            .map(|r| Segment {
                addr: r.range.start,
                data: case
                    .mem
                    .peek(r.range.start, (r.range.end - r.range.start) as usize),
            })
            .collect(),
        errors,
        round_trips: Vec::new(),
        irq_enable: 0b11,
        compress_in,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scenario's memory is the chain's: the model gives the same outcome either way.
    #[test]
    fn the_scenario_is_the_chain() {
        let engine = EngineConfig::new(32).unwrap().with_zvcx(true);
        let mut ran = 0;
        for i in 0..200 {
            let case = draw_for(&engine, 4, i);
            let scn = scenario_of(&case, "t");
            let mut mem = case.mem.clone();
            let direct = cdma_model::dma::run_chain(&mut mem, case.head, &case.cfg);
            let exp = scn.expect();
            assert_eq!(exp.outcome, direct, "chain {i}");
            assert!(exp.mem.diff(&mem).is_empty(), "chain {i}");
            ran += usize::from(bad_field_chain(&engine, 4, i).is_some());
        }
        assert!(ran > 190, "{ran} of 200 chains end without an abort");
    }
}
