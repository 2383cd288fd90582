// BouncyCastle side of pqlab's interop check (run.sh drives it; see README.md there).
//
//   java -cp JARS:BUILD Interop gen DIR    BouncyCastle's keys in every private-key form it
//                                          writes, SPKI public keys, signatures, certificates
//                                          and ML-KEM encapsulations, under DIR/bc/ALG/
//   java -cp JARS:BUILD Interop check DIR  verifies what pqlab made of them (DIR/pq-on-bc/),
//                                          reads pqlab's own keys (DIR/pq/ALG/), verifies
//                                          pqlab's signatures, decapsulates its ciphertexts,
//                                          and signs / encapsulates with them for pqlab
//
// Each case prints one line: "PASS name", "FAIL name: why" or "REFUSED name: why" (something
// BouncyCastle does not accept, reported but not counted as pqlab's failure). The exit status
// is 1 if any case failed.

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Date;
import java.io.StringWriter;
import java.math.BigInteger;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.crypto.kems.MLKEMExtractor;
import org.bouncycastle.crypto.kems.MLKEMGenerator;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLKEMPrivateKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;

public final class Interop {
    /** The message every signature is over. */
    static final byte[] MSG = "pqlab <-> BouncyCastle interop message".getBytes(StandardCharsets.US_ASCII);
    /** The context string of the signatures with a context (ML-DSA). */
    static final byte[] CTX = "pqlab-ctx".getBytes(StandardCharsets.US_ASCII);

    /** pqlab name, BouncyCastle name, kind: "dsa" (ML-DSA, contexts), "hash" (HashML-DSA), "falcon", "kem". */
    static final String[][] ALGS = {
        {"ml-dsa-44", "ML-DSA-44", "dsa"},
        {"ml-dsa-65", "ML-DSA-65", "dsa"},
        {"ml-dsa-87", "ML-DSA-87", "dsa"},
        {"hash-ml-dsa-44", "ML-DSA-44-WITH-SHA512", "hash"},
        {"hash-ml-dsa-65", "ML-DSA-65-WITH-SHA512", "hash"},
        {"hash-ml-dsa-87", "ML-DSA-87-WITH-SHA512", "hash"},
        {"falcon-512", "Falcon-512", "falcon"},
        {"falcon-1024", "Falcon-1024", "falcon"},
        {"ml-kem-512", "ML-KEM-512", "kem"},
        {"ml-kem-768", "ML-KEM-768", "kem"},
        {"ml-kem-1024", "ML-KEM-1024", "kem"},
    };

    /** BouncyCastle's private-key forms (MLDSA/MLKEMPrivateKeyParameters' preferred formats). */
    static final String[] FORMS = {"seed", "expanded", "both"};

    static int failed = 0;

    static void pass(String name) {
        System.out.println("PASS " + name);
    }

    static void fail(String name, String why) {
        failed++;
        System.out.println("FAIL " + name + ": " + why);
    }

    static void refused(String name, String why) {
        System.out.println("REFUSED " + name + ": " + why);
    }

    static void check(boolean ok, String name, String why) {
        if (ok) {
            pass(name);
        } else {
            fail(name, why);
        }
    }

    interface Case {
        void run() throws Exception;
    }

    /** Runs a case; an exception is its failure. */
    static void attempt(String name, Case c) {
        try {
            c.run();
        } catch (Exception e) {
            fail(name, e.toString());
        }
    }

    // --- files ---------------------------------------------------------------------------

    static void write(Path p, byte[] data) throws IOException {
        Files.createDirectories(p.getParent());
        Files.write(p, data);
    }

    /** PEM through BouncyCastle's own writer (bcpkix). */
    static byte[] pem(Object key) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(key);
        }
        return w.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes DER and PEM of a key document: NAME.der and NAME.pem. */
    static void writeKey(Path dir, String name, Object key, byte[] der) throws IOException {
        write(dir.resolve(name + ".der"), der);
        write(dir.resolve(name + ".pem"), pem(key));
    }

    static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }

    /** A key document's DER from NAME.der, or from NAME.pem through BouncyCastle's PEMParser. */
    static byte[] readDoc(Path p) throws IOException {
        if (!p.toString().endsWith(".pem")) {
            return read(p);
        }
        try (PEMParser parser = new PEMParser(Files.newBufferedReader(p, StandardCharsets.US_ASCII))) {
            Object o = parser.readObject();
            if (o instanceof PrivateKeyInfo) {
                return ((PrivateKeyInfo) o).getEncoded("DER");
            }
            if (o instanceof SubjectPublicKeyInfo) {
                return ((SubjectPublicKeyInfo) o).getEncoded("DER");
            }
            throw new IOException("PEMParser: not a key document: " + o);
        }
    }

    // --- BouncyCastle operations ------------------------------------------------------------

    static Signature signature(String kind, String bcName, boolean context) throws Exception {
        Signature s = Signature.getInstance(bcName, "BC");
        if (context) {
            s.setParameter(new ContextParameterSpec(CTX));
        }
        return s;
    }

    static byte[] sign(String kind, String bcName, PrivateKey sk, boolean context) throws Exception {
        Signature s = signature(kind, bcName, context);
        s.initSign(sk, new SecureRandom());
        s.update(MSG);
        return s.sign();
    }

    static boolean verify(String kind, String bcName, PublicKey pk, byte[] sig, boolean context) throws Exception {
        Signature s = signature(kind, bcName, context);
        s.initVerify(pk);
        s.update(MSG);
        return s.verify(sig);
    }

    static String keyFactoryName(String bcName) {
        return bcName;
    }

    static PublicKey publicKey(String bcName, byte[] der) throws Exception {
        return KeyFactory.getInstance(keyFactoryName(bcName), "BC").generatePublic(new X509EncodedKeySpec(der));
    }

    static PrivateKey privateKey(String bcName, byte[] der) throws Exception {
        return KeyFactory.getInstance(keyFactoryName(bcName), "BC").generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /** The PKCS#8 encoding of an ML-DSA / ML-KEM key in one of BouncyCastle's preferred formats. */
    static byte[] inForm(byte[] pkcs8, String form) throws Exception {
        int f = form.equals("seed") ? MLDSAPrivateKeyParameters.SEED_ONLY
            : form.equals("expanded") ? MLDSAPrivateKeyParameters.EXPANDED_KEY
            : MLDSAPrivateKeyParameters.BOTH;
        AsymmetricKeyParameter p = PrivateKeyFactory.createKey(pkcs8);
        AsymmetricKeyParameter q;
        if (p instanceof MLDSAPrivateKeyParameters) {
            q = ((MLDSAPrivateKeyParameters) p).withPreferredFormat(f);
        } else {
            q = ((MLKEMPrivateKeyParameters) p).withPreferredFormat(f);
        }
        return PrivateKeyInfoFactory.createPrivateKeyInfo(q).getEncoded("DER");
    }

    /**
     * A CA certificate (self-signed with kp, cA TRUE, keyCertSign) and a server certificate for
     * "localhost" with a fresh key of the same algorithm, signed by the CA: cert-ca.pem,
     * cert-leaf.pem (bcpkix's X509v3CertificateBuilder and JcaContentSignerBuilder).
     */
    static void writeCertificates(Path dir, String bcName, KeyPair kp) throws Exception {
        KeyPair leaf = KeyPairGenerator.getInstance(bcName, "BC").generateKeyPair();
        Date from = new Date(System.currentTimeMillis() - 3600_000L);
        Date to = new Date(System.currentTimeMillis() + 30L * 24 * 3600_000L);
        X500Name caName = new X500Name("CN=BouncyCastle " + bcName + " CA");
        ContentSigner signer = new JcaContentSignerBuilder(bcName).setProvider("BC").build(kp.getPrivate());
        X509v3CertificateBuilder ca = new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, from, to, caName, kp.getPublic())
            .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
            .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        X509v3CertificateBuilder server = new JcaX509v3CertificateBuilder(caName, BigInteger.TWO, from, to,
                new X500Name("CN=localhost"), leaf.getPublic())
            .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
            .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
            .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
        write(dir.resolve("cert-ca.pem"), pem(ca.build(signer)));
        write(dir.resolve("cert-leaf.pem"), pem(server.build(signer)));
    }

    /** A certificate's signature checked with its issuer's public key (bcpkix). */
    static boolean certificateVerifies(Path cert, Path issuer) throws Exception {
        X509CertificateHolder c, i;
        try (PEMParser p = new PEMParser(Files.newBufferedReader(cert, StandardCharsets.US_ASCII));
             PEMParser q = new PEMParser(Files.newBufferedReader(issuer, StandardCharsets.US_ASCII))) {
            c = (X509CertificateHolder) p.readObject();
            i = (X509CertificateHolder) q.readObject();
        }
        return c.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider("BC").build(i));
    }

    // --- gen ----------------------------------------------------------------------------

    static void gen(Path root) throws Exception {
        for (String[] a : ALGS) {
            String alg = a[0], bcName = a[1], kind = a[2];
            Path dir = root.resolve("bc").resolve(alg);
            KeyPairGenerator kpg = KeyPairGenerator.getInstance(bcName, "BC");
            KeyPair kp = kpg.generateKeyPair();
            writeKey(dir, "pk", kp.getPublic(), kp.getPublic().getEncoded());
            byte[] sk = kp.getPrivate().getEncoded();
            writeKey(dir, "sk-default", kp.getPrivate(), sk);
            if (!kind.equals("falcon")) {
                for (String form : FORMS) {
                    byte[] der = inForm(sk, form);
                    writeKey(dir, "sk-" + form, PrivateKeyInfo.getInstance(der), der);
                }
            }
            if (kind.equals("kem")) {
                SecretWithEncapsulation enc =
                    new MLKEMGenerator(new SecureRandom()).generateEncapsulated(PublicKeyFactory.createKey(kp.getPublic().getEncoded()));
                write(dir.resolve("ct"), enc.getEncapsulation());
                write(dir.resolve("ss"), enc.getSecret());
            } else {
                write(dir.resolve("msg"), MSG);
                writeCertificates(dir, bcName, kp);
                write(dir.resolve("sig"), sign(kind, bcName, kp.getPrivate(), false));
                if (!kind.equals("falcon")) {
                    write(dir.resolve("sig-ctx"), sign(kind, bcName, kp.getPrivate(), true));
                }
            }
            System.out.println("wrote " + dir);
        }
    }

    // --- check --------------------------------------------------------------------------

    /** What pqlab made of BouncyCastle's keys: DIR/pq-on-bc/ALG/. */
    static void checkPqOnBc(Path root, String alg, String bcName, String kind) throws Exception {
        Path bc = root.resolve("bc").resolve(alg);
        Path dir = root.resolve("pq-on-bc").resolve(alg);
        if (!Files.isDirectory(dir)) {
            fail(alg + ": pq-on-bc", "no folder " + dir);
            return;
        }
        PublicKey pk = publicKey(bcName, read(bc.resolve("pk.der")));
        PrivateKey sk = privateKey(bcName, read(bc.resolve("sk-default.der")));
        if (Files.exists(dir.resolve("cert-leaf.pem"))) {
            String name = alg + ": BouncyCastle verifies pqlab's certificates made with BouncyCastle's key";
            attempt(name, () -> check(certificateVerifies(dir.resolve("cert-ca.pem"), dir.resolve("cert-ca.pem"))
                && certificateVerifies(dir.resolve("cert-leaf.pem"), dir.resolve("cert-ca.pem")), name, "a signature does not verify"));
        }
        String[] files = dir.toFile().list();
        Arrays.sort(files);
        for (String f : files) {
            Path p = dir.resolve(f);
            String name = alg + ": BouncyCastle " + (kind.equals("kem") ? "decapsulates" : "verifies")
                + " pqlab's " + f;
            if (f.endsWith(".sig")) {
                boolean ctx = f.contains("ctx");
                attempt(name, () -> check(verify(kind, bcName, pk, read(p), ctx), name, "does not verify"));
            } else if (f.endsWith(".ct")) {
                Path ssPath = dir.resolve(f.substring(0, f.length() - 3) + ".ss");
                attempt(name, () -> {
                    MLKEMPrivateKeyParameters dk = (MLKEMPrivateKeyParameters) PrivateKeyFactory.createKey(sk.getEncoded());
                    byte[] ss = new MLKEMExtractor(dk).extractSecret(read(p));
                    check(Arrays.equals(ss, read(ssPath)), name, "shared secrets differ");
                });
            }
        }
    }

    /** pqlab's own keys, signatures and ciphertexts: DIR/pq/ALG/. */
    static void checkPq(Path root, String alg, String bcName, String kind) throws Exception {
        Path dir = root.resolve("pq").resolve(alg);
        if (!Files.isDirectory(dir)) {
            fail(alg + ": pq", "no folder " + dir);
            return;
        }
        for (String enc : new String[] {"der", "pem"}) {
            String pkName = alg + ": BouncyCastle reads pqlab's public key (" + enc + ")";
            PublicKey pk;
            try {
                pk = publicKey(bcName, readDoc(dir.resolve("pk." + enc)));
                pass(pkName);
            } catch (Exception e) {
                refused(pkName, e.toString());
                continue;
            }
            if (kind.equals("kem")) {
                String name = alg + ": BouncyCastle encapsulates to pqlab's public key (" + enc + ")";
                attempt(name, () -> {
                    SecretWithEncapsulation e =
                        new MLKEMGenerator(new SecureRandom()).generateEncapsulated(PublicKeyFactory.createKey(pk.getEncoded()));
                    write(dir.resolve("bc-" + enc + ".ct"), e.getEncapsulation());
                    write(dir.resolve("bc-" + enc + ".ss"), e.getSecret());
                    pass(name);
                });
            } else {
                for (String sig : new String[] {"sig", "sig-ctx"}) {
                    Path p = dir.resolve(sig);
                    if (!Files.exists(p)) {
                        continue;
                    }
                    boolean ctx = sig.equals("sig-ctx");
                    String name = alg + ": BouncyCastle verifies pqlab's " + sig + " (" + enc + " key)";
                    attempt(name, () -> check(verify(kind, bcName, pk, read(p), ctx), name, "does not verify"));
                    // The same signature, one bit flipped: must not verify.
                    String bad = alg + ": BouncyCastle rejects pqlab's " + sig + " with a flipped bit (" + enc + " key)";
                    attempt(bad, () -> {
                        byte[] s = read(p);
                        s[s.length / 2] ^= 1;
                        boolean ok;
                        try {
                            ok = verify(kind, bcName, pk, s, ctx);
                        } catch (java.security.SignatureException e) {
                            ok = false;
                        }
                        check(!ok, bad, "a corrupted signature verified");
                    });
                }
            }
        }
        if (Files.exists(dir.resolve("cert-leaf.pem"))) {
            String name = alg + ": BouncyCastle verifies pqlab's certificates (CA self-signed, server by CA)";
            attempt(name, () -> check(certificateVerifies(dir.resolve("cert-ca.pem"), dir.resolve("cert-ca.pem"))
                && certificateVerifies(dir.resolve("cert-leaf.pem"), dir.resolve("cert-ca.pem")), name, "a signature does not verify"));
        }
        if (kind.equals("falcon")) {
            // pqlab's oqs-provider form (its default): BouncyCastle 1.87 refuses it (known, not
            // counted; run.sh lists it). pqlab's --falcon-form bc keys are read below.
            for (String enc : new String[] {"der", "pem"}) {
                String name = alg + ": BouncyCastle reads pqlab's oqs-form private key (" + enc + ")";
                try {
                    privateKey(bcName, readDoc(dir.resolve("sk-oqs." + enc)));
                    pass(name);
                } catch (Exception e) {
                    refused(name, e.toString());
                }
            }
            // The server key that `pqlab cert --falcon-form bc` wrote signs for its certificate.
            String name = alg + ": BouncyCastle signs with the key of pqlab cert --falcon-form bc, verified with the certificate's key";
            attempt(name, () -> {
                PrivateKey sk = privateKey(bcName, readDoc(dir.resolve("cert-key.pem")));
                X509CertificateHolder leaf;
                try (PEMParser p = new PEMParser(Files.newBufferedReader(dir.resolve("cert-leaf.pem"), StandardCharsets.US_ASCII))) {
                    leaf = (X509CertificateHolder) p.readObject();
                }
                PublicKey pk = publicKey(bcName, leaf.getSubjectPublicKeyInfo().getEncoded("DER"));
                check(verify(kind, bcName, pk, sign(kind, bcName, sk, false), false), name, "does not verify");
            });
        }
        for (String enc : new String[] {"der", "pem"}) {
            String skName = alg + ": BouncyCastle reads pqlab's private key (" + enc + ")";
            PrivateKey sk;
            try {
                sk = privateKey(bcName, readDoc(dir.resolve("sk." + enc)));
                pass(skName);
            } catch (Exception e) {
                refused(skName, e.toString());
                continue;
            }
            if (kind.equals("kem")) {
                String name = alg + ": BouncyCastle decapsulates pqlab's ciphertext with pqlab's key (" + enc + ")";
                attempt(name, () -> {
                    MLKEMPrivateKeyParameters dk = (MLKEMPrivateKeyParameters) PrivateKeyFactory.createKey(sk.getEncoded());
                    byte[] ss = new MLKEMExtractor(dk).extractSecret(read(dir.resolve("ct")));
                    check(Arrays.equals(ss, read(dir.resolve("ss"))), name, "shared secrets differ");
                });
            } else {
                String name = alg + ": BouncyCastle signs with pqlab's private key (" + enc + ")";
                attempt(name, () -> {
                    write(dir.resolve("bc-" + enc + ".sig"), sign(kind, bcName, sk, false));
                    if (!kind.equals("falcon")) {
                        write(dir.resolve("bc-" + enc + "-ctx.sig"), sign(kind, bcName, sk, true));
                    }
                    pass(name);
                });
            }
        }
    }

    static void checkAll(Path root) throws Exception {
        for (String[] a : ALGS) {
            String alg = a[0], bcName = a[1], kind = a[2];
            attempt(alg + ": pq-on-bc", () -> checkPqOnBc(root, alg, bcName, kind));
            if (Files.isDirectory(root.resolve("pq").resolve(alg))) {
                attempt(alg + ": pq", () -> checkPq(root, alg, bcName, kind));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[0].equals("gen") || args[0].equals("check"))) {
            System.err.println("usage: Interop gen|check DIR");
            System.exit(2);
        }
        Security.addProvider(new BouncyCastleProvider());
        Path root = Path.of(args[1]);
        if (args[0].equals("gen")) {
            gen(root);
        } else {
            checkAll(root);
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
