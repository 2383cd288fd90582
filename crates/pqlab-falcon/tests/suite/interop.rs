//! Interoperability with PQClean's Falcon through the `pqcrypto-falcon` crate: keys made there
//! decode here and keys made here (our NTRUGen) sign and verify there; our signatures verify
//! there and theirs verify here, on random messages.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};
use pqlab_falcon::{Error, Signature, SigningKey, VerifyingKey};

macro_rules! interop {
    ($name:ident, $ours:ident, $m:ident, $n:expr) => {
        #[test]
        fn $ours() {
            use pqcrypto_falcon::$m as theirs;
            for round in 0..3u8 {
                let our_sk = SigningKey::<$n>::generate().unwrap();
                let mut skb = vec![0u8; SigningKey::<$n>::ENCODED_LEN];
                our_sk.encode(&mut skb).unwrap();
                let mut pkb = vec![0u8; VerifyingKey::<$n>::ENCODED_LEN];
                our_sk.verifying_key().encode(&mut pkb).unwrap();
                let sk = theirs::SecretKey::from_bytes(&skb).unwrap();
                let pk = theirs::PublicKey::from_bytes(&pkb).unwrap();
                let msg = [round; 33];
                // Their signature with our secret key verifies under our public key, and ours
                // under theirs.
                let ts = theirs::detached_sign(&msg, &sk);
                assert_eq!(our_sk.verifying_key().verify(&msg, ts.as_bytes()), Ok(()));
                let mut out = vec![0u8; Signature::<$n>::MAX_LEN];
                let l = our_sk.sign(&msg).unwrap().encode(&mut out).unwrap();
                let ds = theirs::DetachedSignature::from_bytes(&out[..l]).unwrap();
                assert!(theirs::verify_detached_signature(&ds, &msg, &pk).is_ok());
                assert!(theirs::verify_detached_signature(&ds, &msg[1..], &pk).is_err());
            }
        }

        #[test]
        fn $name() {
            use pqcrypto_falcon::$m as theirs;
            let mut seed: u64 = 0x0123_4567_89AB_CDEF ^ $n;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            for round in 0..3 {
                let (pk, sk) = theirs::keypair();
                let vk = VerifyingKey::<$n>::decode(pk.as_bytes()).unwrap();
                let our_sk = SigningKey::<$n>::decode(sk.as_bytes()).unwrap();
                assert_eq!(our_sk.verifying_key(), vk);
                let mut enc = vec![0u8; SigningKey::<$n>::ENCODED_LEN];
                our_sk.encode(&mut enc).unwrap();
                assert_eq!(&enc[..], sk.as_bytes());
                let ek = our_sk.expand();
                for i in 0..5 {
                    let len = (next() % 200) as usize + i;
                    let msg: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                    // Theirs verifies under ours.
                    let ts = theirs::detached_sign(&msg, &sk);
                    assert_eq!(vk.verify(&msg, ts.as_bytes()), Ok(()), "round {round}");
                    // Ours verifies under theirs (plain and expanded key).
                    let mut out = vec![0u8; Signature::<$n>::MAX_LEN];
                    let sig = if i % 2 == 0 {
                        our_sk.sign(&msg)
                    } else {
                        ek.sign(&msg)
                    }
                    .unwrap();
                    let l = sig.encode(&mut out).unwrap();
                    let ds = theirs::DetachedSignature::from_bytes(&out[..l]).unwrap();
                    assert!(theirs::verify_detached_signature(&ds, &msg, &pk).is_ok());
                    // And a changed message fails on both sides.
                    let mut bad = msg.clone();
                    bad.push(1);
                    assert!(theirs::verify_detached_signature(&ds, &bad, &pk).is_err());
                    assert_eq!(vk.verify(&bad, ts.as_bytes()), Err(Error::InvalidSignature));
                }
            }
        }
    };
}

interop!(interop_512, our_keys_512, falcon512, 512);
interop!(interop_1024, our_keys_1024, falcon1024, 1024);
