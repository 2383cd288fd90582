#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
use pqlab_mldsa::*;

fn round_trip<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[7u8; 32]);
    let vk = sk.verifying_key();
    let sig = sk.sign_deterministic(b"hello", b"ctx").unwrap();
    vk.verify(b"hello", b"ctx", &sig).unwrap();
    assert!(vk.verify(b"hellp", b"ctx", &sig).is_err());
    let sk2 = SigningKey::<P>::from_expanded(sk.to_expanded().as_ref()).unwrap();
    assert_eq!(sk2.sign_deterministic(b"hello", b"ctx").unwrap(), sig);
    assert_eq!(sk2.verifying_key(), vk);
    let (vk3, sk3) = SigningKey::<P>::key_pair_from_seed(&[7u8; 32]);
    assert_eq!(vk3, vk);
    assert_eq!(sk3.to_expanded(), sk.to_expanded());
    assert_eq!(VerifyingKey::<P>::from_bytes(vk.as_bytes()).unwrap(), vk);
    // The same verification on the signature's bytes (verify_bytes): valid, every kind of
    // wrong input rejected, as verify and verify_encoded do.
    let bytes = sig.to_bytes();
    let bytes = bytes.as_ref();
    vk.verify_bytes(b"hello", b"ctx", bytes).unwrap();
    assert_eq!(
        verify_encoded::<P>(vk.as_bytes(), b"hello", b"ctx", bytes),
        Ok(())
    );
    assert_eq!(
        vk.verify_bytes(b"hello", b"ctz", bytes),
        Err(Error::InvalidSignature)
    );
    for i in [0, P::SIG_LEN / 2, P::SIG_LEN - 1] {
        let mut bad = bytes.to_vec();
        bad[i] ^= 0x10;
        assert_eq!(
            vk.verify_bytes(b"hello", b"ctx", &bad),
            Err(Error::InvalidSignature),
            "byte {i}"
        );
    }
    assert!(matches!(
        vk.verify_bytes(b"hello", b"ctx", &bytes[1..]),
        Err(Error::InvalidLength { .. })
    ));
}

#[test]
fn round_trips() {
    round_trip::<MlDsa44>();
    round_trip::<MlDsa65>();
    round_trip::<MlDsa87>();
}

#[test]
fn first_acvp_keygen_case() {
    let seed =
        hex::decode("7194B13C95231010AFD2C909992BD2003BA6F437C3886BDBE3F6B867A14BA161").unwrap();
    let sk = SigningKey::<MlDsa44>::from_seed_slice(&seed).unwrap();
    let pk = sk.verifying_key();
    assert_eq!(
        hex::encode_upper(&pk.as_bytes()[..32]),
        "0B89806F0EEC39F2891116152ED4319D4260DFB8AC0710765BD497E6E1DE1778"
    );
    let skb = sk.to_expanded();
    assert_eq!(
        hex::encode_upper(&skb[skb.len() - 32..]),
        "7C391CBEE65977354B3739CB04FAE7663D86E9CE04BEF14D3615B9DF81AEA3E4"
    );
}
