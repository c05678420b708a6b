// TEMP
#![allow(missing_docs)]
pub type ZvcxEncPathDw128 = super::zvcx_off::ZvcxEncOff<128>;
pub type ZvcxEncPathDw256 = super::zvcx_off::ZvcxEncOff<256>;
pub type ZvcxEncPathDw512 = super::zvcx_off::ZvcxEncOff<512>;
pub type ZvcxEncPathDw1024 = super::zvcx_off::ZvcxEncOff<1024>;
