//! Interoperability with an independent implementation, the RustCrypto `ml-kem` crate (0.3), at
//! all three parameter sets: the same seed (d, z) gives the same encapsulation key, expanded
//! decapsulation key and seed; each side imports the other's keys; ciphertexts made by either
//! decapsulate under the other to the same shared secret; encapsulation with the same m, and
//! key generation and encapsulation from the same random stream, are byte-identical; a modified
//! ciphertext gives the same implicit-rejection key on both sides; and both reject an
//! encapsulation key with an unreduced coefficient.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(deprecated)] // ml-kem marks its expanded-key import and export deprecated.

use ml_kem as rc;
use ml_kem::{
    Decapsulate as _, Encapsulate as _, ExpandedKeyEncoding as _, Kem as _, KeyExport as _,
};
use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet,
};
// A deterministic splitmix64 stream; cloning it replays the stream, so that both
// implementations can draw the same randomness.
use pqlab_testutil::rng::TestRng;

const CASES: usize = 25;

struct Counts {
    keys: usize,
    theirs_to_ours: usize,
    ours_to_theirs: usize,
    same_m: usize,
    same_stream: usize,
    rejections: usize,
    bad_keys: usize,
}

/// The interoperability checks for pqlab's parameter set `$p` and ml-kem's `$q` (a macro: the
/// ml-kem types are easiest to name concretely).
macro_rules! interop {
    ($p:ty, $q:ty) => {{
        type P = $p;
        type Q = $q;
        let rc_ciphertext = |bytes: &[u8]| rc::Ciphertext::<Q>::try_from(bytes).expect("ct length");
        let rc_encapsulation_key = |bytes: &[u8]| {
            let key = rc::Key::<rc::EncapsulationKey<Q>>::try_from(bytes).expect("ek length");
            rc::EncapsulationKey::<Q>::new(&key)
        };
        let name = P::NAME;
        let mut rng = TestRng::new(0xC0FF_EE00 ^ P::EK_LEN as u64);
        let mut counts = Counts {
            keys: 0,
            theirs_to_ours: 0,
            ours_to_theirs: 0,
            same_m: 0,
            same_stream: 0,
            rejections: 0,
            bad_keys: 0,
        };
        for case in 0..CASES {
            // Keys from the same seed.
            let seed = rng.bytes::<64>();
            let ours = DecapsulationKey::<P>::from_seed_bytes(&seed).unwrap();
            let theirs = rc::DecapsulationKey::<Q>::from_seed(seed.into());
            let their_ek = theirs.encapsulation_key();
            assert_eq!(
                ours.encapsulation_key().as_bytes(),
                their_ek.to_bytes().as_slice(),
                "{name} case {case}: ek differs"
            );
            let our_expanded = ours.to_expanded();
            let their_expanded = theirs.to_expanded_bytes();
            assert_eq!(
                our_expanded.as_ref(),
                their_expanded.as_slice(),
                "{name} case {case}: expanded dk differs"
            );
            assert_eq!(theirs.to_seed().unwrap().as_slice(), ours.seed().unwrap());
            // Each imports the other's keys.
            let ours_imported = DecapsulationKey::<P>::from_expanded(their_expanded.as_slice())
                .expect("their expanded dk");
            let theirs_imported = rc::DecapsulationKey::<Q>::from_expanded_bytes(
                &their_expanded.as_slice().try_into().unwrap(),
            )
            .expect("our expanded dk");
            let their_ek_of_ours = rc_encapsulation_key(ours.encapsulation_key().as_bytes())
                .expect("our ek rejected by ml-kem");
            let our_ek_of_theirs =
                EncapsulationKey::<P>::from_bytes(their_ek.to_bytes().as_slice()).unwrap();
            counts.keys += 1;

            // Their encapsulation decapsulates under ours (seed and expanded keys).
            for ek in [their_ek, &their_ek_of_ours] {
                let (ct, k) = ek.encapsulate_with_rng(&mut rng);
                let c = Ciphertext::<P>::from_bytes(ct.as_slice()).unwrap();
                assert_eq!(
                    ours.decapsulate(&c).as_bytes(),
                    k.as_slice(),
                    "{name} case {case}"
                );
                assert_eq!(ours_imported.decapsulate(&c).as_bytes(), k.as_slice());
                counts.theirs_to_ours += 1;
            }

            // Our encapsulation decapsulates under theirs.
            for ek in [ours.encapsulation_key(), &our_ek_of_theirs] {
                let (c, k) = ek.encapsulate_with_rng(&mut rng).unwrap();
                let ct = rc_ciphertext(c.as_bytes());
                assert_eq!(
                    theirs.decapsulate(&ct).as_slice(),
                    k.as_bytes(),
                    "{name} case {case}"
                );
                assert_eq!(theirs_imported.decapsulate(&ct).as_slice(), k.as_bytes());
                counts.ours_to_theirs += 1;
            }

            // The same m gives the same ciphertext and key.
            let m = rng.bytes::<32>();
            let (c, k) = ours.encapsulation_key().encapsulate_deterministic(&m);
            let (ct, k2) = their_ek.encapsulate_deterministic(&m.into());
            assert_eq!(
                c.as_bytes(),
                ct.as_slice(),
                "{name} case {case}: Encaps_internal"
            );
            assert_eq!(k.as_bytes(), k2.as_slice());
            counts.same_m += 1;

            // Key generation and encapsulation from the same random stream.
            let mut rng_a = rng.clone();
            let mut rng_b = rng.clone();
            let dk_a = DecapsulationKey::<P>::generate_with_rng(&mut rng_a).unwrap();
            let (dk_b, ek_b) = Q::generate_keypair_from_rng(&mut rng_b);
            assert_eq!(
                dk_a.encapsulation_key().as_bytes(),
                ek_b.to_bytes().as_slice(),
                "{name} case {case}: generate_with_rng"
            );
            let (c_a, k_a) = dk_a
                .encapsulation_key()
                .encapsulate_with_rng(&mut rng_a)
                .unwrap();
            let (c_b, k_b) = ek_b.encapsulate_with_rng(&mut rng_b);
            assert_eq!(
                c_a.as_bytes(),
                c_b.as_slice(),
                "{name} case {case}: encapsulate_with_rng"
            );
            assert_eq!(k_a.as_bytes(), k_b.as_slice());
            assert_eq!(dk_b.decapsulate(&c_b).as_slice(), k_a.as_bytes());
            rng = rng_a;
            counts.same_stream += 1;

            // A modified ciphertext: the same implicit-rejection key on both sides.
            let mut bad = c.to_bytes();
            let pos = (case * 37) % P::CT_LEN;
            bad.as_mut()[pos] ^= 1 << (case % 8);
            let bad_c = Ciphertext::<P>::from_bytes(bad.as_ref()).unwrap();
            let k_ours = ours.decapsulate(&bad_c);
            let k_theirs = theirs.decapsulate(&rc_ciphertext(bad.as_ref()));
            assert_ne!(
                k_ours.as_bytes(),
                k.as_bytes(),
                "{name} case {case}: not rejected"
            );
            assert_eq!(
                k_ours.as_bytes(),
                k_theirs.as_slice(),
                "{name} case {case}: K_bar"
            );
            counts.rejections += 1;

            // An unreduced coefficient: both reject the encapsulation key.
            let mut bad_ek = ours.encapsulation_key().to_bytes();
            let coeff = (case * 11) % (256 * P::K);
            let (byte, value) = (3 * (coeff / 2), 3329 + (case as u16 * 29) % (4096 - 3329));
            let b = bad_ek.as_mut();
            if coeff % 2 == 0 {
                b[byte] = value as u8;
                b[byte + 1] = (b[byte + 1] & 0xf0) | (value >> 8) as u8;
            } else {
                b[byte + 1] = (b[byte + 1] & 0x0f) | ((value & 0x0f) << 4) as u8;
                b[byte + 2] = (value >> 4) as u8;
            }
            assert_eq!(
                EncapsulationKey::<P>::from_bytes(bad_ek.as_ref()).err(),
                Some(pqlab_mlkem::Error::ModulusCheck)
            );
            assert!(rc_encapsulation_key(bad_ek.as_ref()).is_err());
            counts.bad_keys += 1;
        }
        println!(
            "{name}: {} key pairs identical and cross-imported; {} ml-kem -> pqlab and {} pqlab -> \
         ml-kem encapsulations decapsulated; {} same-m and {} same-stream encapsulations \
         identical; {} implicit rejections agree; {} unreduced keys rejected by both",
            counts.keys,
            counts.theirs_to_ours,
            counts.ours_to_theirs,
            counts.same_m,
            counts.same_stream,
            counts.rejections,
            counts.bad_keys
        );
        counts
    }};
}

fn check_counts(c: &Counts) {
    assert_eq!(c.keys, CASES);
    assert_eq!(c.theirs_to_ours, 2 * CASES);
    assert_eq!(c.ours_to_theirs, 2 * CASES);
    assert_eq!(c.same_m, CASES);
    assert_eq!(c.same_stream, CASES);
    assert_eq!(c.rejections, CASES);
    assert_eq!(c.bad_keys, CASES);
}

#[test]
fn interop_ml_kem_512() {
    check_counts(&interop!(MlKem512, rc::MlKem512));
}

#[test]
fn interop_ml_kem_768() {
    check_counts(&interop!(MlKem768, rc::MlKem768));
}

#[test]
fn interop_ml_kem_1024() {
    check_counts(&interop!(MlKem1024, rc::MlKem1024));
}
