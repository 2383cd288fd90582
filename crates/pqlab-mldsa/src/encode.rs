//! Encodings (FIPS 204, Section 7.1 and 7.2).
use crate::Error;
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::ParameterSet;

pub(crate) fn pk_encode<P: ParameterSet>(
    _rho: &[u8; 32],
    _t1: &[crate::poly::Poly],
    _out: &mut [u8],
) {
    todo!()
}
pub(crate) fn pk_decode<P: ParameterSet>(_bytes: &[u8]) -> VerifyingKey<P> {
    todo!()
}
pub(crate) fn sk_encode<P: ParameterSet>(_sk: &SigningKey<P>, _out: &mut [u8]) {
    todo!()
}
pub(crate) fn sk_decode<P: ParameterSet>(_bytes: &[u8]) -> Result<SigningKey<P>, Error> {
    todo!()
}
