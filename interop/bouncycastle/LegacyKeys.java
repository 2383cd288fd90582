// Key pairs as an older BouncyCastle writes them (plain JCA, so it compiles against any
// bcprov-jdk18on from 1.79 on): for the test fixtures of the forms BouncyCastle 1.87 no longer
// writes (README.md). java -cp bcprov-jdk18on-VERSION.jar:BUILD LegacyKeys DIR VERSION
//
// Writes DIR/bcVERSION-ALG-sk.der and -pk.der for ML-DSA-44 and ML-KEM-512, and for ML-DSA-44
// a signature over Interop's message (DIR/bcVERSION-ml-dsa-44.sig).

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Security;
import java.security.Signature;

import org.bouncycastle.jce.provider.BouncyCastleProvider;

public final class LegacyKeys {
    public static void main(String[] args) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        String v = args[1];
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        for (String[] a : new String[][] {{"ML-DSA-44", "ml-dsa-44"}, {"ML-KEM-512", "ml-kem-512"}}) {
            KeyPair kp = KeyPairGenerator.getInstance(a[0], "BC").generateKeyPair();
            String base = "bc" + v + "-" + a[1];
            Files.write(dir.resolve(base + "-sk.der"), kp.getPrivate().getEncoded());
            Files.write(dir.resolve(base + "-pk.der"), kp.getPublic().getEncoded());
            if (a[0].startsWith("ML-DSA")) {
                Signature s = Signature.getInstance(a[0], "BC");
                s.initSign(kp.getPrivate());
                s.update("pqlab <-> BouncyCastle interop message".getBytes(StandardCharsets.US_ASCII));
                Files.write(dir.resolve(base + ".sig"), s.sign());
            }
            System.out.println("wrote " + base);
        }
    }
}
