//! The cross-check that comes before a peer is timed: the two implementations must agree, so
//! that the comparison is of equal work. Signatures: each side's signature verifies under the
//! other's code, and a corrupted one is rejected by both. KEMs: each side decapsulates what the
//! other encapsulated to it, to the same shared secret. A peer of a related algorithm that is
//! not byte-compatible (FN-DSA beside Falcon) runs its own check of what can be compared.

use crate::LabError;
use crate::registry::{Entry, KemImpl, KeyPair, SignatureImpl, Verifier};

fn fail(msg: String) -> LabError {
    LabError::Implementation(msg)
}

/// Whether `verifier` rejects `sig` with one bit flipped in its middle, and `sig` on another
/// message.
pub(crate) fn rejects_tampering(verifier: &dyn Verifier, msg: &[u8], sig: &[u8]) -> bool {
    let mut bad = sig.to_vec();
    if let Some(b) = bad.get_mut(sig.len() / 2) {
        *b ^= 0x01;
    }
    !verifier.verify(msg, &bad) && !verifier.verify(b"another message", sig)
}

fn check_signatures(
    ours: &dyn SignatureImpl,
    peer: &dyn SignatureImpl,
) -> Result<String, LabError> {
    let (o, p) = (ours.info(), peer.info());
    let mut msg = [0u8; 100];
    getrandom::fill(&mut msg).map_err(|e| fail(format!("OS randomness: {e}")))?;
    for (signer_impl, verifier_impl) in [(peer, ours), (ours, peer)] {
        let (s, v) = (signer_impl.info(), verifier_impl.info());
        let mut keys = KeyPair::default();
        signer_impl.keygen(&mut keys)?;
        let mut sig = Vec::new();
        signer_impl.signer(&keys.secret)?.sign(&msg, &mut sig)?;
        let verifier = verifier_impl.verifier(&keys.public)?;
        if !verifier.verify(&msg, &sig) {
            return Err(fail(format!(
                "a {} signature of {} does not verify under {}",
                s.implementation, s.alg, v.implementation
            )));
        }
        if !rejects_tampering(verifier.as_ref(), &msg, &sig) {
            return Err(fail(format!(
                "{} accepts a corrupted {} signature",
                v.implementation, s.implementation
            )));
        }
    }
    Ok(format!(
        "{} and {} verify each other's {} signatures and reject corrupted ones",
        o.implementation, p.implementation, o.alg
    ))
}

fn check_kems(ours: &dyn KemImpl, peer: &dyn KemImpl) -> Result<String, LabError> {
    let (o, p) = (ours.info(), peer.info());
    for (owner, sender) in [(peer, ours), (ours, peer)] {
        let mut keys = KeyPair::default();
        owner.keygen(&mut keys)?;
        let (mut ct, mut ss, mut back) = (Vec::new(), [0u8; 32], [1u8; 32]);
        sender
            .encapsulator(&keys.public)?
            .encaps(&mut ct, &mut ss)?;
        owner.decapsulator(&keys.secret)?.decaps(&ct, &mut back)?;
        if ss != back {
            return Err(fail(format!(
                "{} decapsulates a {} ciphertext of {} to a different secret",
                owner.info().implementation,
                sender.info().implementation,
                o.alg
            )));
        }
    }
    Ok(format!(
        "{} and {} agree on {} shared secrets in both directions",
        o.implementation, p.implementation, o.alg
    ))
}

/// Checks `peer` against `ours` (the same algorithm, or FN-DSA against Falcon): a description
/// of what was checked, or what failed.
pub fn cross_check(ours: &Entry, peer: &Entry) -> Result<String, LabError> {
    match (ours, peer) {
        (Entry::Signature(o), Entry::Signature(p)) if o.info().alg != p.info().alg => {
            match p.related_check() {
                Some(Ok(what)) => Ok(what),
                Some(Err(why)) => Err(fail(why)),
                None => Err(LabError::Config(format!(
                    "{} is not {}",
                    p.info().alg,
                    o.info().alg
                ))),
            }
        }
        (Entry::Signature(o), Entry::Signature(p)) => check_signatures(*o, *p),
        (Entry::Kem(o), Entry::Kem(p)) => check_kems(*o, *p),
        _ => Err(LabError::Config(format!(
            "{} and {} are not the same kind of algorithm",
            ours.info().alg,
            peer.info().alg
        ))),
    }
}
