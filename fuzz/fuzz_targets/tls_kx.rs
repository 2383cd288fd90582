//! pqlab-tls's key-exchange groups (crates/pqlab-tls/src/kx.rs) fed a fuzzed peer share: as the
//! server (`start_and_complete`, the client's encapsulation key: ML-KEM-512/768/1024 and
//! X25519MLKEM768) and as the client (`complete`, the server's ciphertext). Nothing panics; a
//! pure ML-KEM encapsulation key is accepted exactly when its length is right and it is
//! reduced mod q (read here independently); a ciphertext exactly when its length is right;
//! a hybrid share of the wrong length is rejected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::mlkem_reduced;
use pqlab_tls::kx;
use pqlab_tls::rustls::crypto::SupportedKxGroup;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, share)) = data.split_first() else {
        return;
    };
    let (group, ek_len, ct_len, hybrid): (&dyn SupportedKxGroup, usize, usize, bool) =
        match (sel >> 1) % 4 {
            0 => (kx::MLKEM512, 800, 768, false),
            1 => (kx::MLKEM768, 1184, 1088, false),
            2 => (kx::MLKEM1024, 1568, 1568, false),
            _ => (kx::X25519MLKEM768, 1184 + 32, 1088 + 32, true),
        };
    if sel & 1 == 0 {
        let res = group.start_and_complete(share);
        if hybrid {
            if share.len() != ek_len || !mlkem_reduced(&share[..1184 - 32]) {
                assert!(res.is_err(), "hybrid: accepted a bad share");
            }
        } else {
            let valid = share.len() == ek_len && mlkem_reduced(&share[..ek_len - 32]);
            assert_eq!(
                res.is_ok(),
                valid,
                "{:?}: share of {} bytes",
                group.name(),
                share.len()
            );
        }
        if let Ok(done) = res {
            assert_eq!(done.pub_key.len(), ct_len);
        }
    } else {
        let client = group.start().expect("start");
        let res = client.complete(share);
        if !hybrid {
            assert_eq!(res.is_ok(), share.len() == ct_len);
        } else if share.len() != ct_len {
            assert!(res.is_err());
        }
    }
});
