//! `--config FILE` for the commands that run Verilated RTL (`cdma regress`, `cdma sim`): the
//! engine a config file describes, found among the tops Verilated into this build.
//!
//! Verilation happens when `cdma` is built (the `cdma-sim` build script), so a configured
//! engine runs once the build has been told about its file: `CDMA_SIM_CONFIGS=FILE[,FILE…]
//! cargo build --release`. The top is looked up by the config's `module_prefix` and its
//! generation parameters are compared with the ones the file gives now, so an edited file is
//! not run on a stale model.

use std::path::Path;

use cdma_config::EngineConfig;

/// The Verilated top of the engine `path` describes, or an error saying what to do.
pub fn config_top(path: &Path) -> Result<String, String> {
    let cfg = EngineConfig::load(path).map_err(|e| e.to_string())?;
    let want = cdma_hdl::ip::engine_top(&cfg).map_err(|e| format!("{}: {e}", path.display()))?;
    let rebuild = format!(
        "build it in with `CDMA_SIM_CONFIGS={} cargo build --release`",
        path.display()
    );
    let Some(top) = cdma_sim::TOPS.iter().find(|t| t.module == want.module) else {
        return Err(format!(
            "{}: its engine `{}` is not Verilated in this build; {rebuild}",
            path.display(),
            want.module
        ));
    };
    let built: Vec<(String, u64)> = top
        .params
        .iter()
        .map(|&(k, v)| (k.to_string(), v))
        .collect();
    if built != want.params {
        return Err(format!(
            "{}: `{}` was Verilated from another configuration ({built:?}, the file now gives \
             {:?}); {rebuild}",
            path.display(),
            want.module,
            want.params
        ));
    }
    Ok(want.module)
}
