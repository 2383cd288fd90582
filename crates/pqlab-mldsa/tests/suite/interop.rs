//! Interoperability with an independent implementation, the RustCrypto `ml-dsa` crate, at all
//! three parameter sets: the same seed gives the same public key and expanded secret key;
//! signatures made by either verify under the other; deterministic signatures, and hedged ones
//! with the same rnd, are byte-identical; the internal and external-mu interfaces agree;
//! HashML-DSA agrees with `ml-dsa`'s Sign_internal on the M' of FIPS 204 Algorithm 4; and a
//! flipped bit is rejected by both.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(deprecated)] // ml-dsa marks its expanded-key import and export deprecated.

use std::convert::Infallible;

use ml_dsa as rc;
use ml_dsa::signature::digest::Update as _;
use pqlab_keccak::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use pqlab_mldsa::{
    HashAlg, MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey,
    VerifyingKey,
};
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use sha2::Digest as _;

const CASES: usize = 20;

/// A rand_core 0.10 RNG that hands out a fixed 32-byte rnd, so that both implementations sign
/// with the same randomness.
struct FixedRng([u8; 32]);

impl rand_core::TryRng for FixedRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        panic!("only try_fill_bytes is expected")
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        panic!("only try_fill_bytes is expected")
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        assert_eq!(dst.len(), 32, "rnd is 32 bytes");
        dst.copy_from_slice(&self.0);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FixedRng {}

fn random_vec(rng: &mut StdRng, max_len: usize) -> Vec<u8> {
    let len = rng.gen_range(0..=max_len);
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// A message of a random length: often empty or short, sometimes several KiB.
fn random_message(rng: &mut StdRng) -> Vec<u8> {
    match rng.gen_range(0..4) {
        0 => Vec::new(),
        1 => random_vec(rng, 64),
        2 => random_vec(rng, 1000),
        _ => random_vec(rng, 10_000),
    }
}

/// A context of a random length in 0..=255, with the extremes likely.
fn random_context(rng: &mut StdRng) -> Vec<u8> {
    let len = match rng.gen_range(0..4) {
        0 => 0,
        1 => MAX_CONTEXT_LEN,
        _ => rng.gen_range(0..=MAX_CONTEXT_LEN),
    };
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// Does `ml-dsa` accept `sig` on `msg` with `ctx`? A signature it cannot even decode counts as
/// rejected.
fn rc_accepts<Q: rc::MlDsaParams>(
    vk: &rc::VerifyingKey<Q>,
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> bool {
    match rc::Signature::<Q>::try_from(sig) {
        Ok(s) => vk.verify_with_context(msg, ctx, &s),
        Err(_) => false,
    }
}

/// Does pqlab accept `sig` on `msg` with `ctx`?
fn ours_accepts<P: ParameterSet>(vk: &VerifyingKey<P>, msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    match Signature::<P>::from_bytes(sig) {
        Ok(s) => vk.verify(msg, ctx, &s).is_ok(),
        Err(_) => false,
    }
}

/// The DER encoding of the pre-hash function's OID (FIPS 204, Section 5.4.1), and PH(M).
fn oid_and_prehash(hash: HashAlg, msg: &[u8]) -> ([u8; 11], Vec<u8>) {
    let (last, ph): (u8, Vec<u8>) = match hash {
        HashAlg::Sha2_256 => (0x01, sha2::Sha256::digest(msg).to_vec()),
        HashAlg::Sha2_384 => (0x02, sha2::Sha384::digest(msg).to_vec()),
        HashAlg::Sha2_512 => (0x03, sha2::Sha512::digest(msg).to_vec()),
        HashAlg::Sha2_224 => (0x04, sha2::Sha224::digest(msg).to_vec()),
        HashAlg::Sha2_512_224 => (0x05, sha2::Sha512_224::digest(msg).to_vec()),
        HashAlg::Sha2_512_256 => (0x06, sha2::Sha512_256::digest(msg).to_vec()),
        HashAlg::Sha3_224 => (0x07, Sha3_224::digest(msg).to_vec()),
        HashAlg::Sha3_256 => (0x08, Sha3_256::digest(msg).to_vec()),
        HashAlg::Sha3_384 => (0x09, Sha3_384::digest(msg).to_vec()),
        HashAlg::Sha3_512 => (0x0A, Sha3_512::digest(msg).to_vec()),
        HashAlg::Shake128 => {
            let mut out = vec![0u8; 32];
            Shake128::digest_parts(&[msg], &mut out);
            (0x0B, out)
        }
        HashAlg::Shake256 => {
            let mut out = vec![0u8; 64];
            Shake256::digest_parts(&[msg], &mut out);
            (0x0C, out)
        }
    };
    (
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last,
        ],
        ph,
    )
}

fn interop<P: ParameterSet, Q: rc::MlDsaParams>(seed_base: u64) {
    let name = P::NAME;
    let mut rng = StdRng::seed_from_u64(seed_base);
    let mut hashes = HashAlg::ALL.iter().cycle();

    for case in 0..CASES {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);

        // Key generation from the same seed.
        let sk = SigningKey::<P>::from_seed(&seed);
        let vk = sk.verifying_key();
        let rc_seed = rc::Seed::from(seed);
        let rc_sk = rc::SigningKey::<Q>::from_seed(&rc_seed);
        let rc_esk = rc::ExpandedSigningKey::<Q>::from_seed(&rc_seed);
        let rc_vk = rc_esk.verifying_key();
        assert_eq!(
            vk.as_bytes(),
            rc_vk.encode().as_slice(),
            "{name} case {case}: public keys differ"
        );
        assert_eq!(
            rc::Keypair::verifying_key(&rc_sk).encode().as_slice(),
            vk.as_bytes(),
            "{name} case {case}: public keys differ (ml-dsa SigningKey)"
        );
        let sk_bytes = sk.to_expanded();
        assert_eq!(
            sk_bytes.as_ref(),
            rc_esk.to_expanded().as_slice(),
            "{name} case {case}: expanded secret keys differ"
        );
        assert_eq!(rc_sk.to_seed().as_slice(), &seed[..]);

        // Keys cross-imported from the other side's encodings.
        let rc_vk_from_ours = rc::VerifyingKey::<Q>::decode(
            &rc::EncodedVerifyingKey::<Q>::try_from(vk.as_bytes()).unwrap(),
        );
        let vk_from_rc = VerifyingKey::<P>::from_bytes(rc_vk.encode().as_slice()).unwrap();
        assert!(vk_from_rc == vk);
        let rc_esk_from_ours = rc::ExpandedSigningKey::<Q>::from_expanded(
            &rc::ExpandedSigningKeyBytes::<Q>::try_from(sk_bytes.as_ref()).unwrap(),
        );
        let sk_from_rc = SigningKey::<P>::from_expanded(rc_esk.to_expanded().as_slice()).unwrap();
        assert_eq!(
            sk_from_rc.verifying_key().as_bytes(),
            vk.as_bytes(),
            "{name} case {case}: verifying_key of an imported expanded key"
        );

        let msg = random_message(&mut rng);
        let ctx = random_context(&mut rng);
        let what = format!(
            "{name} case {case} (message {} bytes, context {} bytes)",
            msg.len(),
            ctx.len()
        );

        // Deterministic signatures are byte-identical.
        let ours_det = sk.sign_deterministic(&msg, &ctx).unwrap();
        let theirs_det = rc_esk.sign_deterministic(&msg, &ctx).unwrap().encode();
        assert_eq!(
            ours_det.as_bytes(),
            theirs_det.as_slice(),
            "{what}: deterministic signatures differ"
        );
        assert_eq!(
            rc_esk_from_ours
                .sign_deterministic(&msg, &ctx)
                .unwrap()
                .encode()
                .as_slice(),
            sk_from_rc
                .sign_deterministic(&msg, &ctx)
                .unwrap()
                .as_bytes(),
            "{what}: deterministic signatures with cross-imported expanded keys differ"
        );

        // Hedged signatures with the same rnd are byte-identical too.
        let mut rnd = [0u8; 32];
        rng.fill_bytes(&mut rnd);
        let ours_hedged = sk.sign_with_rnd(&msg, &ctx, &rnd).unwrap();
        let ours_hedged_rng = sk.sign_with_rng(&mut FixedRng(rnd), &msg, &ctx).unwrap();
        assert_eq!(ours_hedged, ours_hedged_rng);
        let theirs_hedged = rc_esk
            .sign_randomized(&msg, &ctx, &mut FixedRng(rnd))
            .unwrap()
            .encode();
        assert_eq!(
            ours_hedged.as_bytes(),
            theirs_hedged.as_slice(),
            "{what}: hedged signatures with the same rnd differ"
        );

        // Each verifies the other's signatures (and its own).
        for (label, sig) in [
            ("pqlab deterministic", ours_det.as_bytes()),
            ("pqlab hedged", ours_hedged.as_bytes()),
        ] {
            assert!(
                rc_accepts(&rc_vk, &msg, &ctx, sig),
                "{what}: ml-dsa rejects the {label} signature"
            );
            assert!(
                rc_accepts(&rc_vk_from_ours, &msg, &ctx, sig),
                "{what}: ml-dsa (key decoded from pqlab's bytes) rejects the {label} signature"
            );
            assert!(ours_accepts(&vk, &msg, &ctx, sig), "{what}: {label}");
        }
        // A hedged ml-dsa signature with rnd that pqlab never used.
        let mut rnd2 = [0u8; 32];
        rng.fill_bytes(&mut rnd2);
        let theirs_fresh = rc_esk
            .sign_randomized(&msg, &ctx, &mut FixedRng(rnd2))
            .unwrap()
            .encode();
        for (label, sig) in [
            ("ml-dsa deterministic", theirs_det.as_slice()),
            ("ml-dsa hedged", theirs_hedged.as_slice()),
            ("ml-dsa hedged (fresh rnd)", theirs_fresh.as_slice()),
        ] {
            assert!(
                ours_accepts(&vk, &msg, &ctx, sig),
                "{what}: pqlab rejects the {label} signature"
            );
            assert!(
                ours_accepts(&vk_from_rc, &msg, &ctx, sig),
                "{what}: pqlab (key decoded from ml-dsa's bytes) rejects the {label} signature"
            );
        }

        // A flipped bit, in the signature, the message, the context or the public key, is
        // rejected by both.
        for _ in 0..4 {
            for (label, sig) in [
                ("pqlab", ours_hedged.as_bytes()),
                ("ml-dsa", theirs_fresh.as_slice()),
            ] {
                let mut bad = sig.to_vec();
                let bit = rng.gen_range(0..bad.len() * 8);
                bad[bit / 8] ^= 1 << (bit % 8);
                assert!(
                    !ours_accepts(&vk, &msg, &ctx, &bad),
                    "{what}: pqlab accepts the {label} signature with bit {bit} flipped"
                );
                assert!(
                    !rc_accepts(&rc_vk, &msg, &ctx, &bad),
                    "{what}: ml-dsa accepts the {label} signature with bit {bit} flipped"
                );
            }
        }
        let sig = ours_hedged.as_bytes();
        if !msg.is_empty() {
            let mut bad_msg = msg.clone();
            let bit = rng.gen_range(0..bad_msg.len() * 8);
            bad_msg[bit / 8] ^= 1 << (bit % 8);
            assert!(
                !ours_accepts(&vk, &bad_msg, &ctx, sig),
                "{what}: message bit {bit}"
            );
            assert!(
                !rc_accepts(&rc_vk, &bad_msg, &ctx, sig),
                "{what}: message bit {bit}"
            );
        }
        if !ctx.is_empty() {
            let mut bad_ctx = ctx.clone();
            let bit = rng.gen_range(0..bad_ctx.len() * 8);
            bad_ctx[bit / 8] ^= 1 << (bit % 8);
            assert!(
                !ours_accepts(&vk, &msg, &bad_ctx, sig),
                "{what}: context bit {bit}"
            );
            assert!(
                !rc_accepts(&rc_vk, &msg, &bad_ctx, sig),
                "{what}: context bit {bit}"
            );
        }
        {
            let mut bad_pk = vk.to_bytes();
            let bit = rng.gen_range(0..P::PK_LEN * 8);
            bad_pk.as_mut()[bit / 8] ^= 1 << (bit % 8);
            let bad_vk = VerifyingKey::<P>::from_bytes(bad_pk.as_ref()).unwrap();
            let bad_rc_vk = rc::VerifyingKey::<Q>::decode(
                &rc::EncodedVerifyingKey::<Q>::try_from(bad_pk.as_ref()).unwrap(),
            );
            assert!(
                !ours_accepts(&bad_vk, &msg, &ctx, sig),
                "{what}: pk bit {bit}"
            );
            assert!(
                !rc_accepts(&bad_rc_vk, &msg, &ctx, sig),
                "{what}: pk bit {bit}"
            );
        }

        // Sign_internal / Verify_internal on an arbitrary M'.
        let m_prime = random_message(&mut rng);
        let ours_int = sk.sign_internal(&m_prime, &rnd).unwrap();
        let theirs_int = rc_esk
            .sign_internal(&[m_prime.as_slice()], &rc::B32::from(rnd))
            .encode();
        assert_eq!(
            ours_int.as_bytes(),
            theirs_int.as_slice(),
            "{what}: sign_internal differs"
        );
        assert!(vk.verify_internal(&m_prime, &ours_int).is_ok());
        assert!(rc_vk.verify_internal(
            &m_prime,
            &rc::Signature::<Q>::try_from(theirs_int.as_slice()).unwrap()
        ));

        // External mu.
        let mu = vk.compute_mu(&msg, &ctx).unwrap();
        let rc_mu = rc_vk
            .compute_mu(
                |h| {
                    h.update(&msg);
                    Ok(())
                },
                &ctx,
            )
            .unwrap();
        assert_eq!(&mu[..], rc_mu.as_slice(), "{what}: mu differs");
        let ours_mu = sk.sign_mu(&mu, &[0u8; 32]).unwrap();
        assert_eq!(
            ours_mu, ours_det,
            "{what}: sign_mu(mu, 0) != sign_deterministic"
        );
        let theirs_mu = rc_esk.sign_mu_deterministic(&rc_mu).encode();
        assert_eq!(
            ours_mu.as_bytes(),
            theirs_mu.as_slice(),
            "{what}: sign_mu differs"
        );
        assert!(rc_vk.verify_mu(
            &rc_mu,
            &rc::Signature::<Q>::try_from(ours_mu.as_bytes()).unwrap()
        ));
        assert!(
            vk.verify_mu(
                &mu,
                &Signature::<P>::from_bytes(theirs_mu.as_slice()).unwrap()
            )
            .is_ok()
        );

        // HashML-DSA: ml-dsa has no pre-hash interface, so sign its Sign_internal on
        // M' = 1 || |ctx| || ctx || OID || PH(M) (FIPS 204, Algorithm 4, lines 10 to 23).
        let hash = *hashes.next().unwrap();
        let (oid, ph) = oid_and_prehash(hash, &msg);
        let mut m_prime = vec![1u8, ctx.len() as u8];
        m_prime.extend_from_slice(&ctx);
        m_prime.extend_from_slice(&oid);
        m_prime.extend_from_slice(&ph);
        let ours_pre = sk.sign_prehash_with_rnd(&msg, &ctx, hash, &rnd).unwrap();
        let theirs_pre = rc_esk
            .sign_internal(&[m_prime.as_slice()], &rc::B32::from(rnd))
            .encode();
        assert_eq!(
            ours_pre.as_bytes(),
            theirs_pre.as_slice(),
            "{what}: HashML-DSA with {} differs from ml-dsa's Sign_internal on M'",
            hash.name()
        );
        assert!(rc_vk.verify_internal(
            &m_prime,
            &rc::Signature::<Q>::try_from(ours_pre.as_bytes()).unwrap()
        ));
        assert!(
            vk.verify_prehash(
                &msg,
                &ctx,
                hash,
                &Signature::<P>::from_bytes(theirs_pre.as_slice()).unwrap()
            )
            .is_ok()
        );
        // A HashML-DSA signature is not a pure ML-DSA signature.
        assert!(!rc_accepts(&rc_vk, &msg, &ctx, ours_pre.as_bytes()));
        assert!(!ours_accepts(&vk, &msg, &ctx, ours_pre.as_bytes()));
    }
}

#[test]
fn interop_ml_dsa_44() {
    interop::<MlDsa44, rc::MlDsa44>(0x4444);
}

#[test]
fn interop_ml_dsa_65() {
    interop::<MlDsa65, rc::MlDsa65>(0x6565);
}

#[test]
fn interop_ml_dsa_87() {
    interop::<MlDsa87, rc::MlDsa87>(0x8787);
}
