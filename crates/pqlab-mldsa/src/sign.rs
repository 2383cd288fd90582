//! Signing.
use crate::keys::{Signature, SigningKey};
use crate::params::ParameterSet;
pub(crate) fn sign_mu<P: ParameterSet>(
    _sk: &SigningKey<P>,
    _mu: &[u8; 64],
    _rnd: &[u8; 32],
) -> Signature<P> {
    todo!()
}
