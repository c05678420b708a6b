// TEMP
#![allow(missing_docs)]
pub type ZvcxDecPathDw128 = super::zvcx_off::ZvcxDecOff<16, 128>;
pub type ZvcxDecPathDw256 = super::zvcx_off::ZvcxDecOff<32, 256>;
pub type ZvcxDecPathDw512 = super::zvcx_off::ZvcxDecOff<64, 512>;
pub type ZvcxDecPathDw1024 = super::zvcx_off::ZvcxDecOff<128, 1024>;
