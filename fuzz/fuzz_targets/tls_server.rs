//! The TLS 1.3 server (rustls with pqlab's provider: ML-KEM and X25519MLKEM768 key shares,
//! an ML-DSA-44 or Falcon-512 certificate) fed the fuzz input as the client's bytes, in chunks
//! the input chooses, with no socket: nothing panics, whatever the records, the ClientHello or
//! its key shares. The seeds hold real ClientHellos of pqlab's client (every group).
#![no_main]

use std::io::Cursor;
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use pqlab_tls::cert::{CertAlg, generate_chain};
use pqlab_tls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use pqlab_tls::rustls::{ServerConfig, ServerConnection};

static MLDSA: OnceLock<Arc<ServerConfig>> = OnceLock::new();
static FALCON: OnceLock<Arc<ServerConfig>> = OnceLock::new();

fn config(alg: CertAlg) -> Arc<ServerConfig> {
    let chain = generate_chain(alg, &["localhost".to_string()]).expect("chain");
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
        chain.leaf_key.pkcs8_der().to_vec(),
    ));
    pqlab_tls::net::server_config(
        pqlab_tls::provider(),
        vec![CertificateDer::from(chain.leaf_cert.clone())],
        key,
    )
    .expect("server config")
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let cfg = if sel & 1 == 0 {
        MLDSA.get_or_init(|| config(CertAlg::MlDsa44))
    } else {
        FALCON.get_or_init(|| config(CertAlg::Falcon512))
    };
    let Ok(mut conn) = ServerConnection::new(cfg.clone()) else {
        return;
    };
    // Chunk size from the selector: 0 means all at once.
    let chunk = usize::from(sel >> 1) * 7;
    let chunk = if chunk == 0 { rest.len().max(1) } else { chunk };
    for part in rest.chunks(chunk) {
        let mut rd = Cursor::new(part);
        while (rd.position() as usize) < part.len() {
            match conn.read_tls(&mut rd) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if conn.process_new_packets().is_err() {
                // rustls queues an alert; drain it as a socket would.
                let mut out = Vec::new();
                let _ = conn.write_tls(&mut out);
                return;
            }
        }
        let mut out = Vec::new();
        while conn.wants_write() {
            if conn.write_tls(&mut out).is_err() {
                break;
            }
        }
    }
});
