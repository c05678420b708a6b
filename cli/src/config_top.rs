//! `--config FILE` and `--preset NAME` for the commands that run or measure one configured
//! engine (`cdma regress`, `cdma sim`, `cdma synth`): the configs they name, and the Verilated
//! top of each.
//!
//! Verilation happens when `cdma` is built (the `cdma-sim` build script), so a configured
//! engine runs once the build has been told about its file: `CDMA_SIM_CONFIGS=FILE[,FILE…]
//! cargo build --release`; the presets are the built-in engines, always Verilated. The top is
//! looked up by the config's `module_prefix` and its generation parameters are compared with
//! the ones the config gives now, so an edited file is not run on a stale model.

use std::path::PathBuf;

use cdma_config::EngineConfig;

/// One engine named on the command line: where it came from (a file or a preset, for
/// messages) and its config.
pub struct Named {
    /// `FILE` or `preset NAME`.
    pub origin: String,
    /// The config it gives.
    pub config: EngineConfig,
    /// The file, when it came from one (for the rebuild hint).
    file: Option<PathBuf>,
}

/// The engines of `--config FILE…` then `--preset NAME…`, each loaded and checked by
/// `cdma-config` (the error names the file, line and field, or lists the presets).
pub fn named(configs: &[PathBuf], presets: &[String]) -> Result<Vec<Named>, String> {
    let mut out = Vec::new();
    for path in configs {
        out.push(Named {
            origin: path.display().to_string(),
            config: EngineConfig::load(path).map_err(|e| e.to_string())?,
            file: Some(path.clone()),
        });
    }
    for name in presets {
        out.push(Named {
            origin: format!("preset {name}"),
            config: EngineConfig::preset(name).map_err(|e| e.to_string())?,
            file: None,
        });
    }
    Ok(out)
}

/// The generated top of `n` (module, Verilog, parameters), or the generator's refusal naming
/// the field.
pub fn generated(n: &Named) -> Result<cdma_hdl::Top, String> {
    cdma_hdl::ip::engine_top(&n.config).map_err(|e| format!("{}: {e}", n.origin))
}

/// The Verilated top of engine `n`, or an error saying what to do.
pub fn verilated_top(n: &Named) -> Result<String, String> {
    let want = generated(n)?;
    let rebuild = match &n.file {
        Some(path) => format!(
            "build it in with `CDMA_SIM_CONFIGS={} cargo build --release`",
            path.display()
        ),
        None => "rebuild cdma".to_string(),
    };
    let Some(top) = cdma_sim::TOPS.iter().find(|t| t.module == want.module) else {
        return Err(format!(
            "{}: its engine `{}` is not Verilated in this build; {rebuild}",
            n.origin, want.module
        ));
    };
    let built: Vec<(String, u64)> = top
        .params
        .iter()
        .map(|&(k, v)| (k.to_string(), v))
        .collect();
    if built != want.params {
        return Err(format!(
            "{}: `{}` was Verilated from another configuration ({built:?}, the config now gives \
             {:?}); {rebuild}",
            n.origin, want.module, want.params
        ));
    }
    Ok(want.module)
}
