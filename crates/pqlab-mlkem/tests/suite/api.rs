//! The public interface: round trips in every key form, the typed errors of every input check,
//! no panic on inputs of any length, and secrets kept out of `Debug`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_mlkem::{
    Ciphertext, DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024,
    ParameterSet, SEED_LEN,
};

fn round_trips<P: ParameterSet>() {
    let d = [1u8; 32];
    let z = [2u8; 32];
    let dk = DecapsulationKey::<P>::from_seed(&d, &z);
    let seed = *dk.seed().unwrap();
    assert_eq!(&seed[..32], &d);
    assert_eq!(&seed[32..], &z);

    // Seed form and expanded form give the same key.
    let from_bytes = DecapsulationKey::<P>::from_seed_bytes(&seed).unwrap();
    assert_eq!(from_bytes.to_expanded(), dk.to_expanded());
    let expanded = dk.to_expanded();
    let imported = DecapsulationKey::<P>::from_expanded(expanded.as_ref()).unwrap();
    assert!(imported.seed().is_none());
    assert_eq!(imported.to_expanded(), expanded);
    assert!(imported.encapsulation_key() == dk.encapsulation_key());

    // The expanded layout: dk_PKE || ek || H(ek) || z.
    let ek = dk.encapsulation_key();
    let e = expanded.as_ref();
    assert_eq!(&e[384 * P::K..768 * P::K + 32], ek.as_bytes());
    assert_eq!(&e[768 * P::K + 32..768 * P::K + 64], ek.hash());
    assert_eq!(&e[768 * P::K + 64..], &z);

    // Encapsulation under an imported key decapsulates under every form of the secret key.
    let ek2 = EncapsulationKey::<P>::from_bytes(ek.as_bytes()).unwrap();
    let (c, k) = ek2.encapsulate_deterministic(&[3u8; 32]);
    let c2 = Ciphertext::<P>::from_bytes(c.as_bytes()).unwrap();
    assert_eq!(c2, c);
    assert!(dk.decapsulate(&c2) == k);
    assert!(imported.decapsulate(&c2) == k);
    #[cfg(feature = "getrandom")]
    {
        let fresh = DecapsulationKey::<P>::generate().unwrap();
        let (c, k) = fresh.encapsulation_key().encapsulate().unwrap();
        assert!(fresh.decapsulate(&c) == k);
        let (c_other, k_other) = fresh.encapsulation_key().encapsulate().unwrap();
        assert!(
            c_other != c && k_other != k,
            "fresh randomness per encapsulation"
        );
    }

    // Every bit flipped in the first and last bytes of c is implicitly rejected, and the
    // rejection key is deterministic.
    for pos in [0, P::CT_LEN - 1] {
        for bit in 0..8 {
            let mut bad = c.to_bytes();
            bad.as_mut()[pos] ^= 1 << bit;
            let bad = Ciphertext::<P>::from_bytes(bad.as_ref()).unwrap();
            let k_bar = dk.decapsulate(&bad);
            assert!(k_bar != k);
            assert!(imported.decapsulate(&bad) == k_bar);
        }
    }

    // dk_PKE coefficients are read mod q (ByteDecode12): a key whose first s_hat coefficient is
    // written as x + q decapsulates like the canonical key, and re-exports canonically.
    let mut unreduced = expanded;
    let x = u16::from(e[0]) | (u16::from(e[1] & 0x0f) << 8);
    if x + 3329 < 4096 {
        let y = x + 3329;
        unreduced.as_mut()[0] = y as u8;
        unreduced.as_mut()[1] = (e[1] & 0xf0) | (y >> 8) as u8;
        let k3 = DecapsulationKey::<P>::from_expanded(unreduced.as_ref()).unwrap();
        assert!(k3.decapsulate(&c) == k);
        assert_eq!(k3.to_expanded(), expanded);
    }
}

#[test]
fn round_trips_in_every_form() {
    round_trips::<MlKem512>();
    round_trips::<MlKem768>();
    round_trips::<MlKem1024>();
}

fn every_length_is_checked<P: ParameterSet>() {
    let buf = vec![0u8; P::DK_LEN + 2];
    let mut accepted = [0usize; 4];
    for len in 0..=P::DK_LEN + 1 {
        let b = &buf[..len];
        match EncapsulationKey::<P>::from_bytes(b) {
            Ok(_) => accepted[0] += 1,
            Err(Error::InvalidLength {
                what,
                expected,
                actual,
            }) => {
                assert_eq!(
                    (what, expected, actual),
                    ("encapsulation key", P::EK_LEN, len)
                );
            }
            Err(e) => panic!("{e}"),
        }
        match DecapsulationKey::<P>::from_expanded(b) {
            Ok(_) => accepted[1] += 1,
            Err(Error::InvalidLength { expected, .. }) => assert_eq!(expected, P::DK_LEN),
            // The all-zero dk of the right length stores H(ek) = 0: the hash check fails.
            Err(Error::HashCheck) => assert_eq!(len, P::DK_LEN),
            Err(e) => panic!("{e}"),
        }
        match DecapsulationKey::<P>::from_seed_bytes(b) {
            Ok(_) => accepted[2] += 1,
            Err(Error::InvalidLength { expected, .. }) => assert_eq!(expected, SEED_LEN),
            Err(e) => panic!("{e}"),
        }
        match Ciphertext::<P>::from_bytes(b) {
            Ok(_) => accepted[3] += 1,
            Err(Error::InvalidLength { expected, .. }) => assert_eq!(expected, P::CT_LEN),
            Err(e) => panic!("{e}"),
        }
    }
    // The all-zero ek is well formed (every coefficient 0 < q); only the right lengths pass.
    assert_eq!(accepted, [1, 0, 1, 1]);

    // An all-ones ek fails the modulus check (4095 >= q); a dk embedding it fails the hash
    // check first, and with a matching hash, the modulus check.
    let ones = vec![0xffu8; P::EK_LEN];
    assert_eq!(
        EncapsulationKey::<P>::from_bytes(&ones).err(),
        Some(Error::ModulusCheck)
    );
    let mut dk = vec![0u8; P::DK_LEN];
    dk[384 * P::K..768 * P::K + 32].copy_from_slice(&ones);
    assert_eq!(
        DecapsulationKey::<P>::from_expanded(&dk).err(),
        Some(Error::HashCheck)
    );
    let h = pqlab_keccak::Sha3_256::digest(&ones);
    dk[768 * P::K + 32..768 * P::K + 64].copy_from_slice(&h);
    assert_eq!(
        DecapsulationKey::<P>::from_expanded(&dk).err(),
        Some(Error::ModulusCheck)
    );
}

#[test]
fn every_length_is_checked_with_a_typed_error() {
    every_length_is_checked::<MlKem512>();
    every_length_is_checked::<MlKem768>();
    every_length_is_checked::<MlKem1024>();
}

#[test]
fn parameter_set_constants() {
    assert_eq!(MlKem512::NAME, "ML-KEM-512");
    assert_eq!(MlKem768::NAME, "ML-KEM-768");
    assert_eq!(MlKem1024::NAME, "ML-KEM-1024");
    assert_eq!(MlKem512::OID, "2.16.840.1.101.3.4.4.1");
    assert_eq!(MlKem768::OID, "2.16.840.1.101.3.4.4.2");
    assert_eq!(MlKem1024::OID, "2.16.840.1.101.3.4.4.3");
    assert_eq!(
        (MlKem768::EK_LEN, MlKem768::DK_LEN, MlKem768::CT_LEN),
        (1184, 2400, 1088)
    );
}

#[test]
fn debug_and_display() {
    let dk = DecapsulationKey::<MlKem768>::from_seed(&[9u8; 32], &[8u8; 32]);
    assert_eq!(format!("{dk:?}"), "DecapsulationKey<ML-KEM-768>(..)");
    let (c, k) = dk.encapsulation_key().encapsulate_deterministic(&[0u8; 32]);
    assert_eq!(format!("{k:?}"), "SharedSecret(..)");
    assert!(format!("{c:?}").starts_with("Ciphertext<ML-KEM-768>("));
    assert!(format!("{:?}", dk.encapsulation_key()).starts_with("EncapsulationKey<ML-KEM-768>("));
    let e = Error::InvalidLength {
        what: "ciphertext",
        expected: 1088,
        actual: 3,
    };
    assert_eq!(e.to_string(), "ciphertext has 3 bytes, expected 1088");
    assert!(Error::ModulusCheck.to_string().contains("modulus check"));
    assert!(Error::HashCheck.to_string().contains("hash check"));
}
