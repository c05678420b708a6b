//! The spec as JSON, for software and testbenches outside Rust (the cocotb testbench reads
//! it; an IP package ships it as `<module>_spec.json`): register offsets and bit fields, the
//! descriptor's fields and control bits, operation, element-width, codec, element-type and
//! error codes, and the frame header. Every number comes from this crate's tables.

use serde_json::{json, Map, Value};

use crate::field::{BitField, Field};
use crate::{csr, desc, error, frame, zvcx};

fn fields(fs: &[Field]) -> Value {
    let mut m = Map::new();
    for f in fs {
        m.insert(
            f.name.to_string(),
            json!({"offset": f.offset, "size": f.size, "description": f.description}),
        );
    }
    Value::Object(m)
}

fn bits(bs: &[BitField]) -> Value {
    let mut m = Map::new();
    for b in bs {
        m.insert(
            b.name.to_string(),
            json!({"lsb": b.lsb, "width": b.width, "description": b.description}),
        );
    }
    Value::Object(m)
}

/// Every table of the spec as one JSON document (pretty-printed).
pub fn spec_json() -> String {
    let mut regs = Map::new();
    for r in csr::ALL {
        regs.insert(
            r.name.to_string(),
            json!({"addr": r.addr, "access": r.access.name(), "reset": r.reset,
                   "description": r.description}),
        );
    }
    let mut errors = Map::new();
    for e in error::ALL {
        errors.insert(
            e.name.to_string(),
            json!({"code": e.code, "description": e.description}),
        );
    }
    let mut types = Map::new();
    for t in zvcx::ELEM_TYPES {
        types.insert(t.name.to_string(), json!(t.code));
    }
    let doc = json!({
        "csr": regs,
        "csr_bits": {
            "CTRL": bits(&csr::CTRL_BITS),
            "STATUS": bits(&csr::STATUS_BITS),
            "IRQ": bits(&csr::IRQ_BITS),
            "HWCFG": bits(&csr::HWCFG_BITS),
        },
        "descriptor": {
            "len": desc::DESC_LEN,
            "fields": fields(&desc::DESC_FIELDS),
            "control_bits": bits(&desc::CONTROL_BITS),
            "status_bits": bits(&desc::STATUS_BITS),
            "ops": {"COPY": desc::OP_COPY, "COMPRESS": desc::OP_COMPRESS,
                    "DECOMPRESS": desc::OP_DECOMPRESS},
            "elem_codes": desc::ELEM_CODES.iter()
                .map(|(c, b)| (b.to_string(), json!(c)))
                .collect::<Map<String, Value>>(),
            "codecs": {"ZVC": desc::DESC_CODEC_ZVC, "ZVCX": desc::DESC_CODEC_ZVCX},
            "elem_types": types,
        },
        "errors": errors,
        "frame": {
            "header_len": frame::HEADER_LEN,
            "header_fields": fields(&frame::HEADER_FIELDS_TYPED),
            "index_entry_len": frame::INDEX_ENTRY_LEN,
            "index_entry_len_crc": frame::INDEX_ENTRY_LEN_CRC,
            "meta_crc_len": frame::META_CRC_LEN,
            "index_bits": bits(&frame::INDEX_FIELDS),
        },
    });
    serde_json::to_string_pretty(&doc).expect("a JSON value always serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_holds_the_tables() {
        let v: Value = serde_json::from_str(&spec_json()).unwrap();
        assert_eq!(v["csr"]["DOORBELL"]["addr"], json!(csr::DOORBELL.addr));
        assert_eq!(v["csr"].as_object().unwrap().len(), csr::ALL.len());
        assert_eq!(
            v["descriptor"]["fields"]["next"]["offset"],
            json!(desc::NEXT_FIELD.offset)
        );
        assert_eq!(
            v["descriptor"]["control_bits"]["op"]["lsb"],
            json!(desc::CTRL_OP.lsb)
        );
        assert_eq!(v["descriptor"]["elem_codes"]["16"], json!(1));
        assert_eq!(
            v["errors"]["BAD_PAYLOAD"]["code"],
            json!(error::BAD_PAYLOAD.code)
        );
        assert_eq!(v["descriptor"]["elem_types"]["bf16"], json!(2));
        assert_eq!(v["frame"]["header_len"], json!(frame::HEADER_LEN));
    }
}
