//! Key generation.
use crate::keys::{SigningKey, VerifyingKey};
use crate::params::ParameterSet;
pub(crate) fn key_gen_internal<P: ParameterSet>(
    _xi: &[u8; 32],
) -> (VerifyingKey<P>, SigningKey<P>) {
    todo!()
}
pub(crate) fn verifying_key_from_secret<P: ParameterSet>(_sk: &SigningKey<P>) -> VerifyingKey<P> {
    todo!()
}
