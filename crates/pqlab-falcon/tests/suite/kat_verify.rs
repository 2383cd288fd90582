//! Verification against the Falcon round-3 NIST KAT files: every signature verifies, the
//! codecs reproduce the key bytes, and malformed signatures are rejected with typed errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use pqlab_falcon::{Error, Signature, SigningKey, VerifyingKey};
use pqlab_testutil::vectors::vectors_dir;

/// `both(&vk, &k.pk, msg, sig)`, checked to equal [`VerifyingKey::verify_encoded`] from the encoded
/// key `pk` (the streaming path: same result, same error).
fn both<const N: usize>(
    vk: &VerifyingKey<N>,
    pk: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let r = vk.verify(msg, sig);
    assert_eq!(VerifyingKey::<N>::verify_encoded(pk, msg, sig), r);
    r
}

fn run_verify<const N: usize>(file: &str, logn: u8) {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, file);
    assert_eq!(kats.len(), 100, "{file}: expected 100 records");
    let mut ran = 0;
    for k in &kats {
        let vk = VerifyingKey::<N>::decode(&k.pk).unwrap_or_else(|e| panic!("#{}: {e}", k.count));
        let mut buf = vec![0u8; VerifyingKey::<N>::ENCODED_LEN];
        vk.encode(&mut buf).unwrap();
        assert_eq!(buf, k.pk, "#{}: public key re-encoding", k.count);

        let sk = SigningKey::<N>::decode(&k.sk).unwrap_or_else(|e| panic!("#{}: {e}", k.count));
        let mut sbuf = vec![0u8; SigningKey::<N>::ENCODED_LEN];
        sk.encode(&mut sbuf).unwrap();
        assert_eq!(sbuf, k.sk, "#{}: secret key re-encoding", k.count);
        assert_eq!(sk.verifying_key(), vk, "#{}: h = g/f", k.count);

        let (nonce, msg, hdr, comp) = k.split_sm();
        assert_eq!(msg, &k.msg[..]);
        assert_eq!(hdr, 0x20 + logn);
        let sig = Signature::<N>::from_compressed(&nonce, comp).unwrap();
        assert_eq!(vk.verify_signature(msg, &sig), Ok(()), "#{}", k.count);
        let det = k.detached_sig(logn);
        assert_eq!(both(&vk, &k.pk, msg, &det), Ok(()), "#{}", k.count);
        let mut enc = vec![0u8; Signature::<N>::MAX_LEN];
        let len = sig.encode(&mut enc).unwrap();
        assert_eq!(&enc[..len], &det[..], "#{}: signature re-encoding", k.count);

        // A different message fails.
        let mut other = msg.to_vec();
        other.push(0);
        assert_eq!(both(&vk, &k.pk, &other, &det), Err(Error::InvalidSignature));
        if !msg.is_empty() {
            other = msg.to_vec();
            other[0] ^= 1;
            assert_eq!(both(&vk, &k.pk, &other, &det), Err(Error::InvalidSignature));
        }
        ran += 1;
    }
    assert_eq!(ran, 100);
    println!(
        "{file}: {ran} signatures verified on back end {}",
        pqlab_backend::selected().name()
    );
}

#[test]
fn kat_512_verify() {
    run_verify::<512>("falcon-kat/falcon512-KAT.rsp", 9);
}

#[test]
fn kat_1024_verify() {
    run_verify::<1024>("falcon-kat/falcon1024-KAT.rsp", 10);
}

/// Every malformed variant of a valid signature is rejected with the expected typed error.
fn run_malformed<const N: usize>(file: &str, logn: u8) {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, file);
    let k = &kats[0];
    let vk = VerifyingKey::<N>::decode(&k.pk).unwrap();
    let msg = &k.msg;
    let sig = k.detached_sig(logn);
    assert_eq!(both(&vk, &k.pk, msg, &sig), Ok(()));
    let trunc = Error::Truncated { what: "signature" };

    // Empty, header only, header + partial nonce, nonce without s2.
    assert_eq!(both(&vk, &k.pk, msg, &[]), Err(trunc));
    assert_eq!(both(&vk, &k.pk, msg, &sig[..1]), Err(trunc));
    assert_eq!(both(&vk, &k.pk, msg, &sig[..20]), Err(trunc));
    assert_eq!(both(&vk, &k.pk, msg, &sig[..41]), Err(trunc));
    // Truncated by one byte (or more): the s2 data runs out, or the padding is wrong.
    for cut in [1, 2, 10, 100] {
        let r = both(&vk, &k.pk, msg, &sig[..sig.len() - cut]);
        assert!(
            matches!(
                r,
                Err(Error::Truncated { .. }) | Err(Error::NonCanonical { .. })
            ),
            "cut {cut}: {r:?}"
        );
    }
    // Extended: a trailing zero byte, or a trailing non-zero byte.
    for extra in [0u8, 0x80, 0xFF] {
        let mut v = sig.clone();
        v.push(extra);
        assert_eq!(
            both(&vk, &k.pk, msg, &v),
            Err(Error::TrailingBytes { what: "signature" })
        );
    }
    // Longer than sbytelen.
    let mut long = sig.clone();
    long.resize(Signature::<N>::MAX_LEN + 1, 0);
    assert!(matches!(
        both(&vk, &k.pk, msg, &long),
        Err(Error::InvalidLength { .. })
    ));
    // Wrong header: the KAT's 0x20 + logn, the other degree, the public-key header.
    for h in [0x20 + logn, 0x30 + (19 - logn), logn, 0x50 + logn, 0] {
        let mut v = sig.clone();
        v[0] = h;
        assert_eq!(
            both(&vk, &k.pk, msg, &v),
            Err(Error::InvalidHeader {
                what: "signature",
                expected: 0x30 + logn,
                actual: h
            })
        );
    }
    // All-zero s2 data: unary never terminates, the data runs out.
    let mut z = sig[..41].to_vec();
    z.resize(sig.len(), 0);
    assert!(matches!(
        both(&vk, &k.pk, msg, &z),
        Err(Error::CoefficientOutOfRange { .. })
    ));
    // All-zero signature (including the header).
    assert!(matches!(
        both(&vk, &k.pk, msg, &vec![0u8; sig.len()]),
        Err(Error::InvalidHeader { .. })
    ));
    // "-0": the first coefficient is sign 1, low bits 0, high part 0 (bits 1 0000000 1).
    let mut mz = sig[..41].to_vec();
    mz.extend_from_slice(&[0x80, 0x80]);
    mz.extend_from_slice(&sig[43..]);
    assert_eq!(
        both(&vk, &k.pk, msg, &mz),
        Err(Error::NonCanonical { what: "signature" })
    );
    // Non-zero unused bits in the last byte: set the lowest bit where the padding lies.
    let mut s2 = Signature::<N>::decode(&sig).unwrap();
    let mut comp = vec![0u8; Signature::<N>::MAX_LEN];
    let clen = s2.encode_compressed(&mut comp).unwrap();
    assert_eq!(&comp[..clen], &sig[41..]);
    let mut pad = sig.clone();
    let last = pad.len() - 1;
    pad[last] |= 1;
    let r = both(&vk, &k.pk, msg, &pad);
    // If the last byte had no padding bits, the flip changes a coefficient instead.
    assert!(
        matches!(
            r,
            Err(Error::NonCanonical { .. }) | Err(Error::InvalidSignature)
        ),
        "{r:?}"
    );
    // A coefficient of absolute value 2048 does not compress, and one encoded with a unary part
    // of 16 zeros is rejected.
    let mut big = sig[..41].to_vec();
    big.extend_from_slice(&[0x00, 0x00, 0x00]);
    assert!(matches!(
        both(&vk, &k.pk, msg, &big),
        Err(Error::CoefficientOutOfRange { .. })
    ));
    s2 = Signature::from_parts(*s2.nonce(), {
        let mut t = *s2.s2();
        t[0] = 2048;
        t
    });
    assert!(s2.encode(&mut comp).is_err());
    // Every single flipped bit of the signature is rejected (decoding error or failed check),
    // never accepted and never a panic.
    for i in 0..sig.len() * 8 {
        let mut v = sig.clone();
        v[i / 8] ^= 1 << (i % 8);
        assert!(
            both(&vk, &k.pk, msg, &v).is_err(),
            "bit {i} flipped still verifies"
        );
    }
}

#[test]
fn malformed_512() {
    run_malformed::<512>("falcon-kat/falcon512-KAT.rsp", 9);
}

#[test]
fn malformed_1024() {
    run_malformed::<1024>("falcon-kat/falcon1024-KAT.rsp", 10);
}

/// Malformed keys: wrong length, wrong header, h coefficient >= q, secret-key value -32.
#[test]
fn malformed_keys() {
    let Some(dir) = vectors_dir() else { return };
    let kats = common::load(&dir, "falcon-kat/falcon512-KAT.rsp");
    let k = &kats[0];
    let pk = &k.pk;
    assert!(matches!(
        VerifyingKey::<512>::decode(&pk[..pk.len() - 1]),
        Err(Error::InvalidLength { .. })
    ));
    assert!(matches!(
        VerifyingKey::<1024>::decode(pk),
        Err(Error::InvalidLength { .. })
    ));
    let mut v = pk.clone();
    v[0] = 0x0A;
    assert!(matches!(
        VerifyingKey::<512>::decode(&v),
        Err(Error::InvalidHeader { .. })
    ));
    // First coefficient = 0x3FFF (>= q).
    let mut v = pk.clone();
    v[1] = 0xFF;
    v[2] |= 0xFC;
    assert_eq!(
        VerifyingKey::<512>::decode(&v),
        Err(Error::CoefficientOutOfRange { what: "public key" })
    );
    // The streaming verification reports the key's errors as decoding does.
    let det = k.detached_sig(9);
    for bad in [&pk[..pk.len() - 1], &v[..]] {
        let want = VerifyingKey::<512>::decode(bad).err();
        assert!(want.is_some());
        assert_eq!(
            VerifyingKey::<512>::verify_encoded(bad, &k.msg, &det).err(),
            want
        );
    }
    let mut h = pk.clone();
    h[0] = 0x0A;
    assert!(matches!(
        VerifyingKey::<512>::verify_encoded(&h, &k.msg, &det),
        Err(Error::InvalidHeader { .. })
    ));
    assert_eq!(
        VerifyingKey::<512>::verify_encoded(pk, &k.msg, &det),
        Ok(())
    );
    let sk = &k.sk;
    assert!(matches!(
        SigningKey::<512>::decode(&sk[1..]),
        Err(Error::InvalidLength { .. })
    ));
    let mut v = sk.clone();
    v[0] = 0x5A;
    assert!(matches!(
        SigningKey::<512>::decode(&v),
        Err(Error::InvalidHeader { .. })
    ));
    // f[0] = -32 (bits 100000).
    let mut v = sk.clone();
    v[1] = (v[1] & 0x03) | 0x80;
    assert_eq!(
        SigningKey::<512>::decode(&v).err(),
        Some(Error::CoefficientOutOfRange { what: "secret key" })
    );
    // A changed F no longer gives a short G.
    let mut v = sk.clone();
    let last = v.len() - 1;
    v[last] = v[last].wrapping_add(100);
    assert!(SigningKey::<512>::decode(&v).is_err());
}

/// The constant-time HashToPoint equals the variable-time one.
#[test]
fn hash_to_point_ct_matches_vartime() {
    use pqlab_keccak::Shake256;
    for n in [512usize, 1024] {
        for seed in 0u8..20 {
            let mut sh = Shake256::new();
            sh.absorb(&[seed; 41]);
            let mut r1 = sh.clone().finalize();
            let mut r2 = sh.finalize();
            let mut a = vec![0u16; n];
            pqlab_falcon::hash_to_point_vartime(&mut r1, &mut a);
            if n == 512 {
                let mut b = [0u16; 512];
                pqlab_falcon::hash_to_point_ct(&mut r2, &mut b);
                assert_eq!(a, b);
            } else {
                let mut b = [0u16; 1024];
                pqlab_falcon::hash_to_point_ct(&mut r2, &mut b);
                assert_eq!(a, b);
            }
            assert!(a.iter().all(|&x| x < 12289));
        }
    }
}
