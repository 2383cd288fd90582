//! Verification.
use crate::keys::{Signature, VerifyingKey};
use crate::params::ParameterSet;
pub(crate) fn verify_mu<P: ParameterSet>(
    _vk: &VerifyingKey<P>,
    _mu: &[u8; 64],
    _sig: &Signature<P>,
) -> bool {
    todo!()
}
