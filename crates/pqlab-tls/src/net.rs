//! rustls configurations with the pqlab provider, PEM loading, and the TLS 1.3 echo server and
//! client behind `pqlab serve` and `pqlab connect` (the server itself: [`crate::server`]).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{
    ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, ServerConfig,
    SignatureScheme,
};

use crate::{Error, TLS13_ONLY, kx, sign};

/// A server configuration: TLS 1.3 only, no client authentication.
pub fn server_config(
    provider: CryptoProvider,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<Arc<ServerConfig>, Error> {
    let config = ServerConfig::builder_with_provider(Arc::new(provider))
        .with_protocol_versions(TLS13_ONLY)?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    Ok(Arc::new(config))
}

/// Checks the server's certificate with webpki (through the provider's verification
/// algorithms) and remembers the signature scheme of the handshake signature, which rustls does
/// not report on the client side.
#[derive(Debug)]
pub struct RecordingVerifier {
    inner: Arc<WebPkiServerVerifier>,
    scheme: Mutex<Option<SignatureScheme>>,
}

impl RecordingVerifier {
    /// The scheme of the last verified handshake signature.
    pub fn last_scheme(&self) -> Option<SignatureScheme> {
        self.scheme.lock().ok().and_then(|s| *s)
    }
}

impl ServerCertVerifier for RecordingVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let valid = self.inner.verify_tls13_signature(message, cert, dss)?;
        if let Ok(mut s) = self.scheme.lock() {
            *s = Some(dss.scheme);
        }
        Ok(valid)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// A client configuration and its certificate verifier.
pub struct Client {
    /// The configuration (TLS 1.3 only, no client certificate).
    pub config: Arc<ClientConfig>,
    /// The verifier, which knows the last handshake's signature scheme.
    pub verifier: Arc<RecordingVerifier>,
}

/// A client configuration: TLS 1.3 only, trusting exactly `roots`. Session resumption is off,
/// so that every handshake is a full one (certificate, signature and key exchange).
pub fn client_config(
    provider: CryptoProvider,
    roots: &[CertificateDer<'static>],
) -> Result<Client, Error> {
    let mut store = RootCertStore::empty();
    for root in roots {
        store.add(root.clone())?;
    }
    let provider = Arc::new(provider);
    let inner = WebPkiServerVerifier::builder_with_provider(Arc::new(store), Arc::clone(&provider))
        .build()
        .map_err(|e| Error::Cert(format!("cannot build the certificate verifier: {e}")))?;
    let verifier = Arc::new(RecordingVerifier {
        inner,
        scheme: Mutex::new(None),
    });
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(TLS13_ONLY)?
        .dangerous()
        .with_custom_certificate_verifier(Arc::clone(&verifier) as Arc<dyn ServerCertVerifier>)
        .with_no_client_auth();
    config.resumption = rustls::client::Resumption::disabled();
    Ok(Client {
        config: Arc::new(config),
        verifier,
    })
}

/// Reads the certificates of a PEM file.
pub fn load_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, Error> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|it| it.collect::<Result<Vec<_>, _>>())
        .map_err(|e| Error::Cert(format!("{}: {e}", path.display())))?;
    if certs.is_empty() {
        return Err(Error::Cert(format!(
            "{}: no CERTIFICATE in the file",
            path.display()
        )));
    }
    Ok(certs)
}

/// Reads the private key of a PEM file.
pub fn load_key(path: &Path) -> Result<PrivateKeyDer<'static>, Error> {
    PrivateKeyDer::from_pem_file(path).map_err(|e| Error::Cert(format!("{}: {e}", path.display())))
}

/// What a completed handshake negotiated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negotiated {
    /// The key-exchange group, by its pqlab name (`X25519MLKEM768`).
    pub group: String,
    /// The server's signature scheme (`ml-dsa-65`, `ECDSA_NISTP256_SHA256`).
    pub signature: String,
    /// The cipher suite.
    pub cipher_suite: String,
}

/// What a client connection negotiated, once the handshake is done (`verifier` is the one of
/// its configuration).
pub fn negotiated(conn: &ClientConnection, verifier: &RecordingVerifier) -> Negotiated {
    Negotiated {
        group: conn
            .negotiated_key_exchange_group()
            .map_or_else(|| "none".into(), |g| kx::kx_group_name(g.name())),
        signature: verifier
            .last_scheme()
            .map_or_else(|| "none".into(), sign::sig_scheme_name),
        cipher_suite: conn
            .negotiated_cipher_suite()
            .map_or_else(|| "none".into(), |s| format!("{:?}", s.suite())),
    }
}

/// How long the client waits for each read from the server.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

pub use crate::server::{Limits, Server, Stats, serve, serve_with_limits};

/// Connects to `addr`, completes the handshake for `server_name`, sends `line` (a newline is
/// added), reads the echo, and returns it with what was negotiated.
pub fn connect_and_echo(
    client: &Client,
    addr: &str,
    server_name: &str,
    line: &str,
) -> Result<(Negotiated, String), Error> {
    let name = ServerName::try_from(server_name.to_string())
        .map_err(|e| Error::Cert(format!("server name '{server_name}': {e}")))?;
    let io = |what: &str| {
        let what = what.to_string();
        move |e| Error::Io(what, e)
    };
    let mut tcp = TcpStream::connect(addr).map_err(io(&format!("connect {addr}")))?;
    tcp.set_read_timeout(Some(IO_TIMEOUT))
        .map_err(io("socket"))?;
    tcp.set_nodelay(true).map_err(io("socket"))?;
    let mut conn = ClientConnection::new(Arc::clone(&client.config), name)?;
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp)
            .map_err(|e| tls_io_error(e, "handshake"))?;
    }
    let negotiated = negotiated(&conn, &client.verifier);
    let mut tls = rustls::Stream::new(&mut conn, &mut tcp);
    tls.write_all(format!("{line}\n").as_bytes())
        .map_err(io("send"))?;
    let mut echo = Vec::new();
    let mut byte = [0u8; 1];
    while !echo.ends_with(b"\n") {
        let n = tls.read(&mut byte).map_err(io("receive"))?;
        if n == 0 {
            break;
        }
        echo.push(byte[0]);
    }
    tls.conn.send_close_notify();
    let _ = tls.flush();
    let echo = String::from_utf8_lossy(&echo)
        .trim_end_matches('\n')
        .to_string();
    Ok((negotiated, echo))
}

/// rustls reports TLS errors inside `io::Error`s; take them out.
pub(crate) fn tls_io_error(e: std::io::Error, what: &str) -> Error {
    let is_tls = e.get_ref().is_some_and(|inner| inner.is::<rustls::Error>());
    if is_tls {
        if let Some(inner) = e.into_inner()
            && let Ok(tls) = inner.downcast::<rustls::Error>()
        {
            return Error::Tls(*tls);
        }
        return Error::Io(what.into(), std::io::Error::other("TLS error"));
    }
    Error::Io(what.into(), e)
}
