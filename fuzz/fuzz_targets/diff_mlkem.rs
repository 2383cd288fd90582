//! Differential ML-KEM (FIPS 203) of pqlab against RustCrypto's `ml-kem` 0.3.4 and Cryspen's
//! `libcrux-ml-kem` 0.0.11, all three parameter sets.
//! Mode 0, decapsulation (Algorithm 21): keys from a fuzzed seed d || z (the three must give
//! the same ek), a ciphertext from the input or the key's own for a fuzzed m with fuzzed
//! bytes XORed in: the three shared secrets must agree (implicit rejection included).
//! Mode 1, encapsulation keys (Section 7.2): the three must agree on accepting a fuzzed ek,
//! and, when they accept, encapsulate with the same m to the same ciphertext and secret.
#![no_main]
#![allow(deprecated)]

use libfuzzer_sys::fuzz_target;
use ml_kem as rc;
use ml_kem::{Decapsulate as _, KeyExport as _};
use pqlab_fuzz::{Input, mutate};
use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet,
};

/// A peer implementation: (its ek for the seed d || z, its decapsulation of ct under that key),
/// and (does it accept ek?, its encapsulation with ek and m).
type Keys = fn(&[u8; 64], &[u8]) -> (Vec<u8>, [u8; 32]);
type Encaps = fn(&[u8], &[u8; 32]) -> Option<(Vec<u8>, [u8; 32])>;

struct Peer {
    name: &'static str,
    keys: Keys,
    encaps: Encaps,
}

macro_rules! libcrux {
    ($m:ident, $ek:literal, $ct:literal) => {
        Peer {
            name: "libcrux",
            keys: |seed, ct| {
                use libcrux_ml_kem::$m as k;
                let kp = k::generate_key_pair(*seed);
                let c = libcrux_ml_kem::MlKemCiphertext::<$ct>::from(
                    <[u8; $ct]>::try_from(ct).unwrap(),
                );
                (
                    kp.public_key().as_slice().to_vec(),
                    k::decapsulate(kp.private_key(), &c),
                )
            },
            encaps: |ek, m| {
                use libcrux_ml_kem::$m as k;
                let pk =
                    libcrux_ml_kem::MlKemPublicKey::<$ek>::from(<[u8; $ek]>::try_from(ek).unwrap());
                if !k::validate_public_key(&pk) {
                    return None;
                }
                let (c, s) = k::encapsulate(&pk, *m);
                Some((c.as_slice().to_vec(), s))
            },
        }
    };
}

macro_rules! rustcrypto {
    ($q:ty) => {
        Peer {
            name: "ml-kem",
            keys: |seed, ct| {
                let dk = rc::DecapsulationKey::<$q>::from_seed((*seed).into());
                let c = rc::Ciphertext::<$q>::try_from(ct).unwrap();
                let ss: [u8; 32] = dk.decapsulate(&c).as_slice().try_into().unwrap();
                (dk.encapsulation_key().to_bytes().as_slice().to_vec(), ss)
            },
            encaps: |ek, m| {
                let key = rc::Key::<rc::EncapsulationKey<$q>>::try_from(ek).unwrap();
                let ek = rc::EncapsulationKey::<$q>::new(&key).ok()?;
                let (c, s) = ek.encapsulate_deterministic(&(*m).into());
                Some((c.as_slice().to_vec(), s.as_slice().try_into().unwrap()))
            },
        }
    };
}

fn check<P: ParameterSet>(input: &mut Input<'_>, mode: u8, peers: &[Peer; 2]) {
    let m = input.array::<32>();
    if mode == 0 {
        let seed = input.array::<64>();
        let ours = DecapsulationKey::<P>::from_seed_bytes(&seed).expect("seed");
        let kind = input.byte();
        let mut ct = if kind & 1 == 0 {
            input.fitted(P::CT_LEN)
        } else {
            let (c, _) = ours.encapsulation_key().encapsulate_deterministic(&m);
            c.as_bytes().to_vec()
        };
        if kind & 2 != 0 {
            mutate(&mut ct, input, 2);
        }
        let ss = ours.decapsulate(&Ciphertext::<P>::from_bytes(&ct).expect("length"));
        for peer in peers {
            let (ek, their_ss) = (peer.keys)(&seed, &ct);
            assert_eq!(
                ours.encapsulation_key().as_bytes(),
                &ek[..],
                "{}: ek vs {}",
                P::NAME,
                peer.name
            );
            assert_eq!(
                ss.as_bytes(),
                &their_ss,
                "{}: decaps vs {}",
                P::NAME,
                peer.name
            );
        }
    } else {
        let mut ek = input.fitted(P::EK_LEN);
        // Mostly-valid keys: clear the top bit of every third byte (each coefficient's top).
        if input.byte() & 1 == 1 {
            for b in ek[..P::EK_LEN - 32].iter_mut().skip(2).step_by(3) {
                *b &= 0x7F;
            }
        }
        let ours = EncapsulationKey::<P>::from_bytes(&ek).ok();
        let ours = ours.map(|k| k.encapsulate_deterministic(&m));
        for peer in peers {
            let theirs = (peer.encaps)(&ek, &m);
            assert_eq!(
                ours.is_some(),
                theirs.is_some(),
                "{}: ek acceptance vs {}",
                P::NAME,
                peer.name
            );
            if let (Some((c, k)), Some((tc, tk))) = (&ours, theirs) {
                assert_eq!(
                    c.as_bytes(),
                    &tc[..],
                    "{}: ciphertext vs {}",
                    P::NAME,
                    peer.name
                );
                assert_eq!(k.as_bytes(), &tk, "{}: secret vs {}", P::NAME, peer.name);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let mode = (sel / 3) % 2;
    match sel % 3 {
        0 => check::<MlKem512>(
            &mut input,
            mode,
            &[rustcrypto!(rc::MlKem512), libcrux!(mlkem512, 800, 768)],
        ),
        1 => check::<MlKem768>(
            &mut input,
            mode,
            &[rustcrypto!(rc::MlKem768), libcrux!(mlkem768, 1184, 1088)],
        ),
        _ => check::<MlKem1024>(
            &mut input,
            mode,
            &[rustcrypto!(rc::MlKem1024), libcrux!(mlkem1024, 1568, 1568)],
        ),
    }
});
