/* The pqlab C API from C: round trips, rejections and known answers for every parameter set.
 *
 *   kat [VECTORS_DIR [FALCON_DRBG_FILE]]
 *
 * Without VECTORS_DIR only the round trips and rejections run. With it, the known answers:
 * ML-DSA keypair_derand and signature_ctx_derand against the post-quantum-cryptography/KAT
 * FIPS 204 files (deterministic and hedged, pure, first 3 records each), Falcon crypto_sign_open
 * of all 100 records of each round-3 KAT file, ML-KEM keypair_derand against Wycheproof's
 * keygen_seed files (first 3 records) and enc_derand / dec against the CCTV unluckysample and
 * strcmp vectors. FALCON_DRBG_FILE (written by tests/suite/c_program.rs from NIST's CTR_DRBG,
 * which needs AES) lists per Falcon KAT record the 48-byte key-generation seed, the 40-byte
 * nonce and the 48-byte sampler seed; with it, keypair_derand and crypto_sign_derand must give
 * the KAT files' pk, sk and sm byte for byte.
 *
 * Prints the counts and exits 0 when every check passed, 1 otherwise, 2 on a usage or file
 * error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqlab.h"

static int passed, failed;

#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        if (cond) {                                                                          \
            passed++;                                                                        \
        } else {                                                                             \
            failed++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                             \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fputc('\n', stderr);                                                             \
        }                                                                                    \
    } while (0)

/* ---- files, hex, .rsp records and JSON fields ---- */

static char *read_file(const char *dir, const char *rel) {
    char path[4096];
    if (dir)
        snprintf(path, sizeof path, "%s/%s", dir, rel);
    else
        snprintf(path, sizeof path, "%s", rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    buf[n] = 0;
    fclose(f);
    return buf;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes the hex digits at s (up to the first non-hex character) into a new buffer. */
static uint8_t *unhex(const char *s, size_t *len) {
    size_t n = 0;
    while (hexval(s[n]) >= 0) n++;
    uint8_t *out = malloc(n / 2 + 1);
    for (size_t i = 0; i + 1 < n; i += 2) out[i / 2] = (uint8_t)(hexval(s[i]) * 16 + hexval(s[i + 1]));
    *len = n / 2;
    return out;
}

/* The start of the record `count = N` of an .rsp file, NULL when absent. */
static const char *rsp_record(const char *text, int count) {
    char key[32];
    snprintf(key, sizeof key, "count = %d\n", count);
    const char *p = text;
    while ((p = strstr(p, key)) != NULL) {
        if (p == text || p[-1] == '\n') return p;
        p++;
    }
    return NULL;
}

/* The value of `name = HEX` in the record at rec (before the next record), decoded. */
static uint8_t *rsp_field(const char *rec, const char *name, size_t *len) {
    char key[64];
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *end = strstr(rec + 1, "\ncount = ");
    const char *p = strstr(rec, key);
    if (!p || (end && p > end)) {
        fprintf(stderr, "field %s missing\n", name);
        exit(2);
    }
    return unhex(p + strlen(key), len);
}

/* The next JSON string field "name": "HEX" at or after *pos, decoded; *pos moves past it. */
static uint8_t *json_field(const char *text, size_t *pos, const char *name, size_t *len) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", name);
    const char *p = strstr(text + *pos, key);
    if (!p) {
        fprintf(stderr, "JSON field %s missing\n", name);
        exit(2);
    }
    p += strlen(key);
    while (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t') p++;
    if (*p != '"') {
        fprintf(stderr, "JSON field %s is not a string\n", name);
        exit(2);
    }
    *pos = (size_t)(p + 1 - text);
    return unhex(p + 1, len);
}

static int same(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    return alen == blen && memcmp(a, b, alen) == 0;
}

/* ---- the parameter sets as tables of function pointers ---- */

typedef int (*kp_fn)(uint8_t *, uint8_t *);
typedef int (*kp_derand_fn)(uint8_t *, uint8_t *, const uint8_t *);
typedef int (*sig_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *);
typedef int (*ver_fn)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *);
typedef int (*open_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *);
typedef int (*sig_ctx_derand_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *,
                                 size_t, const uint8_t *, const uint8_t *);
typedef int (*sig_ctx_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                          const uint8_t *);
typedef int (*ver_ctx_fn)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                          size_t, const uint8_t *);
typedef int (*fn_sig_derand_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *,
                                const uint8_t *, const uint8_t *);

struct sign_set {
    const char *name;
    size_t pk_len, sk_len, bytes;
    kp_fn keypair;
    kp_derand_fn keypair_derand;
    sig_fn signature;
    ver_fn verify;
    sig_fn sign;
    open_fn open;
    /* ML-DSA only */
    sig_ctx_fn signature_ctx;
    sig_ctx_derand_fn signature_ctx_derand;
    ver_ctx_fn verify_ctx;
    const char *kat_id; /* "44", "65", "87" */
    /* Falcon only */
    fn_sig_derand_fn signature_derand, sign_derand;
    const char *kat_file;
    int logn;
};

#define MLDSA_SET(N)                                                                          \
    {"ML-DSA-" #N, PQLAB_MLDSA##N##_CRYPTO_PUBLICKEYBYTES, PQLAB_MLDSA##N##_CRYPTO_SECRETKEYBYTES, \
     PQLAB_MLDSA##N##_CRYPTO_BYTES, PQLAB_MLDSA##N##_crypto_sign_keypair,                    \
     PQLAB_MLDSA##N##_crypto_sign_keypair_derand, PQLAB_MLDSA##N##_crypto_sign_signature,     \
     PQLAB_MLDSA##N##_crypto_sign_verify, PQLAB_MLDSA##N##_crypto_sign,                       \
     PQLAB_MLDSA##N##_crypto_sign_open, PQLAB_MLDSA##N##_crypto_sign_signature_ctx,           \
     PQLAB_MLDSA##N##_crypto_sign_signature_ctx_derand,                                      \
     PQLAB_MLDSA##N##_crypto_sign_verify_ctx, #N, NULL, NULL, NULL, 0}

#define FALCON_SET(N, LOGN)                                                                   \
    {"Falcon-" #N, PQLAB_FALCON##N##_CRYPTO_PUBLICKEYBYTES,                                  \
     PQLAB_FALCON##N##_CRYPTO_SECRETKEYBYTES, PQLAB_FALCON##N##_CRYPTO_BYTES,                \
     PQLAB_FALCON##N##_crypto_sign_keypair, PQLAB_FALCON##N##_crypto_sign_keypair_derand,    \
     PQLAB_FALCON##N##_crypto_sign_signature, PQLAB_FALCON##N##_crypto_sign_verify,          \
     PQLAB_FALCON##N##_crypto_sign, PQLAB_FALCON##N##_crypto_sign_open, NULL, NULL, NULL,    \
     NULL,                                                                                   \
     PQLAB_FALCON##N##_crypto_sign_signature_derand, PQLAB_FALCON##N##_crypto_sign_derand,   \
     "falcon-kat/falcon" #N "-KAT.rsp", LOGN}

static const struct sign_set SIGN_SETS[] = {
    MLDSA_SET(44), MLDSA_SET(65), MLDSA_SET(87), FALCON_SET(512, 9), FALCON_SET(1024, 10),
};

/* ---- signatures: round trips and rejections ---- */

static void sign_round_trip(const struct sign_set *s) {
    int before = failed;
    uint8_t *pk = malloc(s->pk_len), *sk = malloc(s->sk_len), *pk2 = malloc(s->pk_len);
    uint8_t *sk2 = malloc(s->sk_len);
    const uint8_t msg[] = "pqlab C API round trip";
    size_t mlen = sizeof msg - 1, siglen = 0, smlen = 0, m2len = 0;
    uint8_t *sig = malloc(s->bytes), *sm = malloc(s->bytes + mlen), *m2 = malloc(s->bytes + mlen);

    CHECK(s->keypair(pk, sk) == 0, "%s: keypair", s->name);
    CHECK(s->keypair(pk2, sk2) == 0 && memcmp(pk, pk2, s->pk_len) != 0,
          "%s: two keypairs differ", s->name);
    CHECK(s->signature(sig, &siglen, msg, mlen, sk) == 0 && siglen > 0 && siglen <= s->bytes,
          "%s: signature", s->name);
    CHECK(s->verify(sig, siglen, msg, mlen, pk) == 0, "%s: verify", s->name);
    CHECK(s->verify(sig, siglen, msg, mlen - 1, pk) == -1, "%s: other message rejected",
          s->name);
    CHECK(s->verify(sig, siglen, msg, mlen, pk2) == -1, "%s: other key rejected", s->name);
    CHECK(s->verify(sig, siglen - 1, msg, mlen, pk) == -1, "%s: short signature rejected",
          s->name);
    /* Corrupted signatures: one bit flipped at several places, every one rejected. */
    int rejected = 0, tried = 0;
    for (size_t i = 0; i < siglen; i += siglen / 7 + 1, tried++) {
        sig[i] ^= 0x10;
        rejected += s->verify(sig, siglen, msg, mlen, pk) == -1;
        sig[i] ^= 0x10;
    }
    CHECK(rejected == tried, "%s: %d of %d corrupted signatures rejected", s->name, rejected,
          tried);
    /* The empty message, with a null pointer. */
    CHECK(s->signature(sig, &siglen, NULL, 0, sk) == 0 && s->verify(sig, siglen, NULL, 0, pk) == 0,
          "%s: empty message", s->name);
    /* ML-DSA contexts: a signature with a context verifies only with it; 256 bytes are refused. */
    if (s->signature_ctx) {
        uint8_t ctx[256];
        memset(ctx, 0x5a, sizeof ctx);
        CHECK(s->signature_ctx(sig, &siglen, msg, mlen, ctx, 255, sk) == 0 &&
                  s->verify_ctx(sig, siglen, msg, mlen, ctx, 255, pk) == 0,
              "%s: 255-byte context", s->name);
        CHECK(s->verify(sig, siglen, msg, mlen, pk) == -1 &&
                  s->verify_ctx(sig, siglen, msg, mlen, ctx, 254, pk) == -1,
              "%s: other contexts rejected", s->name);
        CHECK(s->signature_ctx(sig, &siglen, msg, mlen, ctx, 256, sk) == -1 && siglen == 0 &&
                  s->verify_ctx(sig, s->bytes, msg, mlen, ctx, 256, pk) == -1,
              "%s: 256-byte context refused", s->name);
        CHECK(s->signature_ctx(sig, &siglen, msg, mlen, NULL, 0, sk) == 0 &&
                  s->verify(sig, siglen, msg, mlen, pk) == 0,
              "%s: empty context is ML-DSA's default", s->name);
    }
    /* crypto_sign / crypto_sign_open. */
    CHECK(s->sign(sm, &smlen, msg, mlen, sk) == 0 && smlen > mlen && smlen <= s->bytes + mlen,
          "%s: crypto_sign", s->name);
    CHECK(s->open(m2, &m2len, sm, smlen, pk) == 0 && same(m2, m2len, msg, mlen),
          "%s: crypto_sign_open", s->name);
    CHECK(s->open(m2, &m2len, sm, smlen, pk2) == -1 && m2len == 0,
          "%s: open with another key rejected", s->name);
    sm[smlen / 2] ^= 1;
    CHECK(s->open(m2, &m2len, sm, smlen, pk) == -1, "%s: corrupted sm rejected", s->name);
    CHECK(s->open(m2, &m2len, sm, 10, pk) == -1, "%s: truncated sm rejected", s->name);
    /* In place: the message at the start of the sm buffer, opened in place again. */
    memcpy(sm, msg, mlen);
    CHECK(s->sign(sm, &smlen, sm, mlen, sk) == 0, "%s: crypto_sign in place", s->name);
    CHECK(s->open(sm, &m2len, sm, smlen, pk) == 0 && same(sm, m2len, msg, mlen),
          "%s: crypto_sign_open in place", s->name);
    /* Falcon's signed message: a wrong length field or header byte is rejected. */
    if (s->logn) {
        CHECK(s->sign(sm, &smlen, msg, mlen, sk) == 0, "%s: crypto_sign", s->name);
        uint8_t l0 = sm[0], l1 = sm[1];
        sm[0] = 0, sm[1] = 0;
        CHECK(s->open(m2, &m2len, sm, smlen, pk) == -1, "%s: L = 0 rejected", s->name);
        sm[0] = 0xff, sm[1] = 0xff;
        CHECK(s->open(m2, &m2len, sm, smlen, pk) == -1, "%s: L too large rejected", s->name);
        sm[0] = l0, sm[1] = (uint8_t)(l1 + 1);
        CHECK(s->open(m2, &m2len, sm, smlen, pk) == -1, "%s: L off by one rejected", s->name);
        sm[1] = l1;
        sm[42 + mlen] ^= 0x10;
        CHECK(s->open(m2, &m2len, sm, smlen, pk) == -1, "%s: header 0x30 + logn rejected",
              s->name);
        sm[42 + mlen] ^= 0x10;
        CHECK(s->open(m2, &m2len, sm, 41, pk) == -1 && s->open(m2, &m2len, sm, 0, pk) == -1,
              "%s: sm shorter than the nonce rejected", s->name);
        CHECK(s->open(m2, &m2len, sm, smlen, pk) == 0 && same(m2, m2len, msg, mlen),
              "%s: restored sm opens", s->name);
    }
    /* Null pointers and a malformed secret key. */
    CHECK(s->keypair(NULL, sk) == -1 && s->keypair(pk, NULL) == -1, "%s: null key buffers",
          s->name);
    CHECK(s->signature(NULL, &siglen, msg, mlen, sk) == -1 &&
              s->signature(sig, &siglen, NULL, mlen, sk) == -1 &&
              s->signature(sig, &siglen, msg, mlen, NULL) == -1 && siglen == 0,
          "%s: null signing inputs", s->name);
    CHECK(s->verify(NULL, siglen, msg, mlen, pk) == -1 && s->verify(sig, siglen, msg, mlen, NULL) == -1,
          "%s: null verify inputs", s->name);
    memset(sk2, 0xff, s->sk_len);
    CHECK(s->signature(sig, &siglen, msg, mlen, sk2) == -1, "%s: malformed secret key",
          s->name);
    if (s->keypair_derand) {
        CHECK(s->keypair_derand(pk, sk, NULL) == -1, "%s: null seed", s->name);
    }
    free(pk), free(sk), free(pk2), free(sk2), free(sig), free(sm), free(m2);
    printf("%-12s round trips and rejections: %s\n", s->name, failed == before ? "ok" : "FAILED");
}

/* ---- ML-DSA known answers ---- */

static void mldsa_kat(const struct sign_set *s, const char *dir, const char *mode) {
    char rel[256];
    snprintf(rel, sizeof rel, "pqc-kat/MLDSA/kat_MLDSA_%s_%s_pure.first10.rsp", s->kat_id, mode);
    char *text = read_file(dir, rel);
    int ok = 0, n = 0;
    for (int c = 0; c < 3; c++, n++) {
        const char *rec = rsp_record(text, c);
        if (!rec) {
            CHECK(0, "%s: record %d missing", rel, c);
            continue;
        }
        size_t xil, pkl, skl, msgl, sml, ctxl, rndl = 32;
        uint8_t *xi = rsp_field(rec, "xi", &xil), *kpk = rsp_field(rec, "pk", &pkl);
        uint8_t *ksk = rsp_field(rec, "sk", &skl), *msg = rsp_field(rec, "msg", &msgl);
        uint8_t *ksm = rsp_field(rec, "sm", &sml), *ctx = rsp_field(rec, "ctx", &ctxl);
        uint8_t *rnd = strcmp(mode, "hedged") == 0 ? rsp_field(rec, "rng", &rndl) : calloc(32, 1);
        uint8_t *pk = malloc(s->pk_len), *sk = malloc(s->sk_len), *sig = malloc(s->bytes);
        size_t siglen = 0;
        int before = failed;
        CHECK(xil == 32 && rndl == 32 && sml == s->bytes + msgl, "%s #%d: record shape", rel, c);
        CHECK(s->keypair_derand(pk, sk, xi) == 0, "%s #%d: keypair_derand", rel, c);
        CHECK(same(pk, s->pk_len, kpk, pkl), "%s #%d: pk", rel, c);
        CHECK(same(sk, s->sk_len, ksk, skl), "%s #%d: sk", rel, c);
        CHECK(s->signature_ctx_derand(sig, &siglen, msg, msgl, ctx, ctxl, rnd, sk) == 0,
              "%s #%d: signature_ctx_derand", rel, c);
        CHECK(same(sig, siglen, ksm, s->bytes), "%s #%d: signature", rel, c);
        CHECK(s->verify_ctx(ksm, s->bytes, msg, msgl, ctx, ctxl, pk) == 0, "%s #%d: verify_ctx",
              rel, c);
        CHECK(ctxl == 0 || s->verify(ksm, s->bytes, msg, msgl, pk) == -1,
              "%s #%d: the empty context rejects a signature with a context", rel, c);
        ok += failed == before;
        free(xi), free(kpk), free(ksk), free(msg), free(ksm), free(ctx), free(rnd);
        free(pk), free(sk), free(sig);
    }
    printf("%-12s known answers %-44s %d/%d records\n", s->name, rel, ok, n);
    free(text);
}

/* ---- Falcon known answers ---- */

static void falcon_kat_open(const struct sign_set *s, const char *dir) {
    char *text = read_file(dir, s->kat_file);
    int ok = 0, n = 0;
    for (int c = 0; c < 100; c++, n++) {
        const char *rec = rsp_record(text, c);
        if (!rec) {
            CHECK(0, "%s: record %d missing", s->kat_file, c);
            continue;
        }
        size_t pkl, msgl, sml, mlen = 0;
        uint8_t *kpk = rsp_field(rec, "pk", &pkl), *msg = rsp_field(rec, "msg", &msgl);
        uint8_t *ksm = rsp_field(rec, "sm", &sml), *m = malloc(sml);
        int good = s->open(m, &mlen, ksm, sml, kpk) == 0 && same(m, mlen, msg, msgl);
        ksm[sml - 1] ^= 0x01; /* the last byte of the compressed s2 */
        good = good && s->open(m, &mlen, ksm, sml, kpk) == -1;
        CHECK(good, "%s #%d: crypto_sign_open (and its corruption rejected)", s->kat_file, c);
        ok += good;
        free(kpk), free(msg), free(ksm), free(m);
    }
    printf("%-12s known answers %-44s %d/%d opened\n", s->name, s->kat_file, ok, n);
    free(text);
}

/* One line of the DRBG file: "N COUNT KEYSEED NONCE SIGNSEED" (hex). */
static void falcon_kat_derand(const struct sign_set *s, const char *dir, const char *drbg) {
    char *text = read_file(dir, s->kat_file), *lines = read_file(NULL, drbg);
    int n_param = 1 << s->logn, ok = 0, n = 0;
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n")) {
        int np, c;
        char ks[200], nc[200], ss[200];
        if (sscanf(line, "%d %d %199s %199s %199s", &np, &c, ks, nc, ss) != 5) {
            fprintf(stderr, "bad DRBG line: %s\n", line);
            exit(2);
        }
        if (np != n_param) continue;
        n++;
        const char *rec = rsp_record(text, c);
        size_t pkl, skl, msgl, sml, ksl, ncl, ssl, smlen = 0, siglen = 0;
        uint8_t *kpk = rsp_field(rec, "pk", &pkl), *ksk = rsp_field(rec, "sk", &skl);
        uint8_t *msg = rsp_field(rec, "msg", &msgl), *ksm = rsp_field(rec, "sm", &sml);
        uint8_t *kseed = unhex(ks, &ksl), *nonce = unhex(nc, &ncl), *sseed = unhex(ss, &ssl);
        uint8_t *pk = malloc(s->pk_len), *sk = malloc(s->sk_len);
        uint8_t *sm = malloc(s->bytes + msgl), *sig = malloc(s->bytes);
        int before = failed;
        CHECK(s->keypair_derand(pk, sk, kseed) == 0, "%s #%d: keypair_derand", s->name, c);
        CHECK(same(pk, s->pk_len, kpk, pkl), "%s #%d: pk", s->name, c);
        CHECK(same(sk, s->sk_len, ksk, skl), "%s #%d: sk", s->name, c);
        CHECK(s->sign_derand(sm, &smlen, msg, msgl, nonce, sseed, sk) == 0 &&
                  same(sm, smlen, ksm, sml),
              "%s #%d: crypto_sign_derand gives the KAT sm", s->name, c);
        /* The detached signature: 0x30 + logn || nonce || the compressed s2 of sm. */
        CHECK(s->signature_derand(sig, &siglen, msg, msgl, nonce, sseed, sk) == 0 &&
                  siglen == 1 + 40 + (sml - 2 - 40 - msgl - 1) && sig[0] == 0x30 + s->logn &&
                  memcmp(sig + 1, ksm + 2, 40) == 0 &&
                  memcmp(sig + 41, ksm + 2 + 40 + msgl + 1, siglen - 41) == 0,
              "%s #%d: signature_derand", s->name, c);
        CHECK(s->verify(sig, siglen, msg, msgl, pk) == 0, "%s #%d: verify", s->name, c);
        ok += failed == before;
        free(kpk), free(ksk), free(msg), free(ksm), free(kseed), free(nonce), free(sseed);
        free(pk), free(sk), free(sm), free(sig);
    }
    CHECK(n > 0, "%s: no DRBG lines", s->name);
    printf("%-12s known answers %-44s %d/%d keypair_derand + sign_derand\n", s->name, s->kat_file,
           ok, n);
    free(text), free(lines);
}

/* ---- ML-KEM ---- */

typedef int (*enc_fn)(uint8_t *, uint8_t *, const uint8_t *);
typedef int (*enc_derand_fn)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
typedef int (*dec_fn)(uint8_t *, const uint8_t *, const uint8_t *);

struct kem_set {
    const char *name, *id;
    size_t pk_len, sk_len, ct_len;
    kp_fn keypair;
    kp_derand_fn keypair_derand;
    enc_fn enc;
    enc_derand_fn enc_derand;
    dec_fn dec;
};

#define MLKEM_SET(N)                                                                          \
    {"ML-KEM-" #N, #N, PQLAB_MLKEM##N##_CRYPTO_PUBLICKEYBYTES,                               \
     PQLAB_MLKEM##N##_CRYPTO_SECRETKEYBYTES, PQLAB_MLKEM##N##_CRYPTO_CIPHERTEXTBYTES,        \
     PQLAB_MLKEM##N##_crypto_kem_keypair, PQLAB_MLKEM##N##_crypto_kem_keypair_derand,        \
     PQLAB_MLKEM##N##_crypto_kem_enc, PQLAB_MLKEM##N##_crypto_kem_enc_derand,                \
     PQLAB_MLKEM##N##_crypto_kem_dec}

static const struct kem_set KEM_SETS[] = {MLKEM_SET(512), MLKEM_SET(768), MLKEM_SET(1024)};

static void kem_round_trip(const struct kem_set *s) {
    int before = failed;
    uint8_t *pk = malloc(s->pk_len), *sk = malloc(s->sk_len), *ct = malloc(s->ct_len);
    uint8_t ss1[32], ss2[32], ss3[32];
    CHECK(s->keypair(pk, sk) == 0, "%s: keypair", s->name);
    CHECK(s->enc(ct, ss1, pk) == 0, "%s: enc", s->name);
    CHECK(s->dec(ss2, ct, sk) == 0 && memcmp(ss1, ss2, 32) == 0, "%s: enc/dec agree", s->name);
    ct[5] ^= 0x40;
    CHECK(s->dec(ss3, ct, sk) == 0 && memcmp(ss1, ss3, 32) != 0,
          "%s: a corrupted ciphertext gives the implicit-rejection key", s->name);
    CHECK(s->enc(ct, ss1, NULL) == -1 && s->enc(NULL, ss1, pk) == -1 && s->dec(ss2, NULL, sk) == -1 &&
              s->dec(ss2, ct, NULL) == -1 && s->keypair(NULL, sk) == -1,
          "%s: null pointers", s->name);
    pk[0] = 0xff, pk[1] = 0xff; /* the first coefficient becomes 4095 >= q */
    CHECK(s->enc(ct, ss1, pk) == -1, "%s: unreduced encapsulation key rejected", s->name);
    sk[s->sk_len - 40] ^= 1; /* inside H(ek) */
    CHECK(s->dec(ss2, ct, sk) == -1, "%s: decapsulation key with a wrong H(ek) rejected",
          s->name);
    free(pk), free(sk), free(ct);
    printf("%-12s round trips and rejections: %s\n", s->name, failed == before ? "ok" : "FAILED");
}

static void kem_kat(const struct kem_set *s, const char *dir) {
    char rel[256];
    uint8_t *pk = malloc(s->pk_len), *sk = malloc(s->sk_len), *ct = malloc(s->ct_len), ss[32];
    int ok = 0, n = 0, before;
    /* Wycheproof keygen_seed: (ek, dk) from the 64-byte seed d || z. */
    snprintf(rel, sizeof rel, "wycheproof/testvectors_v1/mlkem_%s_keygen_seed_test.json", s->id);
    char *text = read_file(dir, rel);
    size_t pos = 0;
    for (int i = 0; i < 3; i++, n++) {
        size_t seedl, ekl, dkl;
        uint8_t *seed = json_field(text, &pos, "seed", &seedl);
        uint8_t *ek = json_field(text, &pos, "ek", &ekl), *dk = json_field(text, &pos, "dk", &dkl);
        before = failed;
        CHECK(seedl == 64 && s->keypair_derand(pk, sk, seed) == 0, "%s: keypair_derand", rel);
        CHECK(same(pk, s->pk_len, ek, ekl) && same(sk, s->sk_len, dk, dkl), "%s #%d: ek, dk",
              rel, i);
        ok += failed == before;
        free(seed), free(ek), free(dk);
    }
    free(text);
    /* CCTV unluckysample: enc_derand(ek, m) = (c, K), dec(dk, c) = K; strcmp: dec(dk, c) = K. */
    const char *files[2] = {"unluckysample", "strcmp"};
    for (int f = 0; f < 2; f++, n++) {
        snprintf(rel, sizeof rel, "cctv/ML-KEM/%s/ML-KEM-%s.txt", files[f], s->id);
        char *t = read_file(dir, rel);
        /* rsp_field looks for "\nNAME = ": give it a record that starts with a newline. */
        size_t tl = strlen(t);
        char *rec = malloc(tl + 2);
        rec[0] = '\n';
        memcpy(rec + 1, t, tl + 1);
        size_t dkl, cl, kl, ekl, ml;
        uint8_t *dk = rsp_field(rec, "dk", &dkl), *c = rsp_field(rec, "c", &cl);
        uint8_t *k = rsp_field(rec, "K", &kl);
        before = failed;
        if (f == 0) {
            uint8_t *ek = rsp_field(rec, "ek", &ekl), *m = rsp_field(rec, "m", &ml);
            CHECK(ml == 32 && s->enc_derand(ct, ss, ek, m) == 0, "%s: enc_derand", rel);
            CHECK(same(ct, s->ct_len, c, cl) && same(ss, 32, k, kl), "%s: c and K", rel);
            free(ek), free(m);
        }
        CHECK(dkl == s->sk_len && cl == s->ct_len && s->dec(ss, c, dk) == 0 && same(ss, 32, k, kl),
              "%s: dec", rel);
        ok += failed == before;
        free(dk), free(c), free(k), free(t), free(rec);
    }
    printf("%-12s known answers (Wycheproof keygen_seed, CCTV unluckysample, strcmp) %d/%d\n",
           s->name, ok, n);
    free(pk), free(sk), free(ct);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : NULL;
    const char *drbg = argc > 2 ? argv[2] : NULL;
    for (size_t i = 0; i < sizeof SIGN_SETS / sizeof SIGN_SETS[0]; i++) {
        const struct sign_set *s = &SIGN_SETS[i];
        sign_round_trip(s);
        if (!dir) continue;
        if (s->kat_id) {
            mldsa_kat(s, dir, "det");
            mldsa_kat(s, dir, "hedged");
        } else {
            falcon_kat_open(s, dir);
            if (drbg) falcon_kat_derand(s, dir, drbg);
        }
    }
    for (size_t i = 0; i < sizeof KEM_SETS / sizeof KEM_SETS[0]; i++) {
        kem_round_trip(&KEM_SETS[i]);
        if (dir) kem_kat(&KEM_SETS[i], dir);
    }
    if (!dir) printf("known answers: skipped (no vector folder given)\n");
    printf("%d checks passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
