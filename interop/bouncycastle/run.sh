#!/usr/bin/env bash
# pqlab <-> BouncyCastle interop check (README.md beside this file). Builds Interop.java against
# BouncyCastle's jars (fetched once with Maven into interop/bouncycastle/lib/), builds
# `pqlab` (cargo build --release -p pqlab), then runs every case in both directions and counts
# them: exit 0 only when every case passed and at least the expected number ran.
#
#   interop/bouncycastle/run.sh              PQLAB=path/to/pqlab interop/bouncycastle/run.sh
#   KEEP=1 ...                               keeps the work folder (its path is printed)
#
# Without java, javac or mvn: under CI=true a failure, elsewhere a skip (exit 0) with a message.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
BC_VERSION=${BC_VERSION:-1.87}
lib=$here/lib

missing=()
for tool in java javac mvn; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "bc-interop: FAILED: ${missing[*]} not found (install openjdk-17-jdk-headless and maven)" >&2
    exit 1
  fi
  echo "bc-interop: SKIPPED: ${missing[*]} not found (install a JDK 17+ and Maven to run it)"
  exit 0
fi

# --- BouncyCastle's jars and the Java program ------------------------------------------------
jars=()
for a in bcprov bcutil bcpkix; do
  jar=$lib/$a-jdk18on-$BC_VERSION.jar
  if [ ! -s "$jar" ]; then
    echo "bc-interop: fetching org.bouncycastle:$a-jdk18on:$BC_VERSION"
    # Maven's output only when it fails (-q still prints colour codes).
    if ! log=$(mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
      -Dartifact="org.bouncycastle:$a-jdk18on:$BC_VERSION" -DoutputDirectory="$lib" 2>&1); then
      printf '%s\n' "$log" >&2
    fi
  fi
  [ -s "$jar" ] || { echo "bc-interop: FAILED: $jar was not fetched" >&2; exit 1; }
  jars+=("$jar")
done
cp=$(IFS=:; echo "${jars[*]}")
classes=$lib/classes
mkdir -p "$classes"
javac -Xlint:all -Werror -d "$classes" -cp "$cp" "$here/Interop.java"
cp="$cp:$classes"

# --- pqlab -----------------------------------------------------------------------------------
if [ -z "${PQLAB:-}" ]; then
  (cd "$root" && cargo build --release -q -p pqlab)
  PQLAB=${CARGO_TARGET_DIR:-$root/target}/release/pqlab
fi
[ -x "$PQLAB" ] || { echo "bc-interop: FAILED: no pqlab binary at $PQLAB" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pqlab-bc.XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
  echo "bc-interop: work folder $work"
else
  trap 'rm -rf "$work"' EXIT
fi

# --- counting --------------------------------------------------------------------------------
passed=0
failures=()
declare -A per_alg=()

ok() {
  passed=$((passed + 1))
  per_alg[$1]=$((${per_alg[$1]:-0} + 1))
}
bad() {
  failures+=("$1: $2")
  echo "FAIL $1: $2"
}

# expect ALG NAME STATUS CMD...: runs a pqlab command, passes when it exits with STATUS.
expect() {
  local alg=$1 name=$2 want=$3 rc=0 err
  shift 3
  err=$("$@" 2>&1 >/dev/null) || rc=$?
  if [ "$rc" = "$want" ]; then
    ok "$alg"
  else
    bad "$alg: $name" "exit $rc, expected $want${err:+ ($err)}"
  fi
}

# same ALG NAME FILE1 FILE2: passes when the files are identical.
same() {
  if cmp -s "$3" "$4"; then ok "$1"; else bad "$1: $2" "$3 and $4 differ"; fi
}

# differ ALG NAME FILE1 FILE2: passes when both exist and differ.
differ() {
  if [ -s "$3" ] && [ -s "$4" ] && ! cmp -s "$3" "$4"; then ok "$1"; else bad "$1: $2" "$3 and $4 are equal"; fi
}

# The Java side's result lines: PASS / FAIL counted, REFUSED listed.
refusals=()
java_side() {
  local line out rc=0
  out=$(java -cp "$cp" Interop "$@") || rc=$?
  while IFS= read -r line; do
    case $line in
      "PASS "*) local alg=${line#PASS }; ok "${alg%%:*}" ;;
      "FAIL "*) failures+=("${line#FAIL }"); echo "$line" ;;
      "REFUSED "*) refusals+=("${line#REFUSED }") ;;
      *) ;;
    esac
  done <<<"$out"
  [ "$rc" = 0 ] || [ "${#failures[@]}" -gt 0 ] || failures+=("Interop $1 exited $rc")
}

pem_to_der() { sed -e '/^-----/d' "$1" | base64 -d >"$2"; }

kind_of() {
  case $1 in
    hash-*) echo hash ;;
    ml-dsa-*) echo dsa ;;
    falcon-*) echo falcon ;;
    ml-kem-*) echo kem ;;
  esac
}

SIG_ALGS=(ml-dsa-44 ml-dsa-65 ml-dsa-87 hash-ml-dsa-44 hash-ml-dsa-65 hash-ml-dsa-87 falcon-512 falcon-1024)
KEM_ALGS=(ml-kem-512 ml-kem-768 ml-kem-1024)
CTX_HEX=$(printf 'pqlab-ctx' | od -An -tx1 | tr -d ' \n')

# --- 1. BouncyCastle writes ------------------------------------------------------------------
echo "bc-interop: BouncyCastle $BC_VERSION writes keys, signatures, ciphertexts"
java_side gen "$work"

# --- 2. pqlab uses BouncyCastle's files ------------------------------------------------------
echo "bc-interop: pqlab loads every BouncyCastle key form, signs, verifies, decapsulates"
for a in "${SIG_ALGS[@]}"; do
  alg=${a#hash-} kind=$(kind_of "$a") bc=$work/bc/$a out=$work/pq-on-bc/$a
  mkdir -p "$out"
  for sk in "$bc"/sk-*; do
    f=$(basename "$sk")
    expect "$a" "pqlab signs with BouncyCastle's $f" 0 \
      "$PQLAB" sign "$alg" --secret-key "$sk" --in "$bc/msg" --out "$out/$f.sig"
    rm -f "$work"/cert-*
    expect "$a" "pqlab cert with BouncyCastle's $f as CA and server key" 0 \
      "$PQLAB" cert --alg "$alg" --key-in "$sk" --ca-key-in "$sk" --ca-out "$work/cert-ca.pem" \
      --cert-out "$work/cert-leaf.pem" --key-out "$work/cert-key.pem" --san localhost
    expect "$a" "pqlab cert verify of that certificate" 0 \
      "$PQLAB" cert verify "$work/cert-leaf.pem" --ca "$work/cert-ca.pem"
    if [ "$kind" != falcon ]; then
      expect "$a" "pqlab signs with BouncyCastle's $f and a context" 0 \
        "$PQLAB" sign "$alg" --secret-key "$sk" --in "$bc/msg" --out "$out/$f-ctx.sig" \
        --context "$CTX_HEX"
    fi
  done
  # The last certificate chain made with BouncyCastle's key goes to BouncyCastle (step 4).
  cp "$work/cert-ca.pem" "$work/cert-leaf.pem" "$out/"
  # BouncyCastle's certificates: shown, verified, and refused with a changed signature byte.
  expect "$a" "pqlab cert show of BouncyCastle's CA certificate" 0 \
    "$PQLAB" cert show "$bc/cert-ca.pem"
  expect "$a" "pqlab cert verify of BouncyCastle's server certificate" 0 \
    "$PQLAB" cert verify "$bc/cert-leaf.pem" --ca "$bc/cert-ca.pem"
  pem_to_der "$bc/cert-leaf.pem" "$work/leaf.der"
  size=$(stat -c %s "$work/leaf.der")
  cp "$work/leaf.der" "$work/leaf-good.der"
  printf '\x5a' | dd of="$work/leaf.der" bs=1 seek=$((size - 20)) conv=notrunc status=none
  # (Another value where the byte was 0x5a already: the signature must change.)
  cmp -s "$work/leaf-good.der" "$work/leaf.der" && printf '\xa5' |
    dd of="$work/leaf.der" bs=1 seek=$((size - 20)) conv=notrunc status=none
  { echo "-----BEGIN CERTIFICATE-----"; base64 -w 64 "$work/leaf.der"; echo "-----END CERTIFICATE-----"; } \
    >"$work/leaf-bad.pem"
  expect "$a" "pqlab cert verify of it with a changed signature byte" 1 \
    "$PQLAB" cert verify "$work/leaf-bad.pem" --ca "$bc/cert-ca.pem"
  head -c 100 "$bc/sig" >"$work/truncated.sig"
  cp "$bc/sig" "$work/flipped.sig"
  printf '\x01' | dd of="$work/flipped.sig" bs=1 seek=100 conv=notrunc status=none
  cmp -s "$bc/sig" "$work/flipped.sig" && printf '\x02' |
    dd of="$work/flipped.sig" bs=1 seek=100 conv=notrunc status=none
  for pk in "$bc/pk.der" "$bc/pk.pem"; do
    p=$(basename "$pk")
    expect "$a" "pqlab verifies BouncyCastle's signature ($p)" 0 \
      "$PQLAB" verify "$alg" --public-key "$pk" --in "$bc/msg" --signature "$bc/sig"
    expect "$a" "pqlab rejects BouncyCastle's signature with a changed byte ($p)" 1 \
      "$PQLAB" verify "$alg" --public-key "$pk" --in "$bc/msg" --signature "$work/flipped.sig"
    # A truncated Falcon signature does not verify (1); an ML-DSA signature of the wrong length
    # is unusable input (2: its length is fixed).
    expect "$a" "pqlab rejects a truncated signature ($p)" "$([ "$kind" = falcon ] && echo 1 || echo 2)" \
      "$PQLAB" verify "$alg" --public-key "$pk" --in "$bc/msg" --signature "$work/truncated.sig"
    if [ "$kind" != falcon ]; then
      expect "$a" "pqlab verifies BouncyCastle's signature with a context ($p)" 0 \
        "$PQLAB" verify "$alg" --public-key "$pk" --in "$bc/msg" --signature "$bc/sig-ctx" \
        --context "$CTX_HEX"
      expect "$a" "pqlab rejects it without the context ($p)" 1 \
        "$PQLAB" verify "$alg" --public-key "$pk" --in "$bc/msg" --signature "$bc/sig-ctx"
    fi
  done
done
for a in "${KEM_ALGS[@]}"; do
  bc=$work/bc/$a out=$work/pq-on-bc/$a
  mkdir -p "$out"
  for sk in "$bc"/sk-*; do
    f=$(basename "$sk")
    expect "$a" "pqlab decapsulates with BouncyCastle's $f" 0 \
      "$PQLAB" decaps "$a" --secret-key "$sk" --ciphertext "$bc/ct" --shared-secret "$work/ss"
    same "$a" "pqlab's shared secret with BouncyCastle's $f" "$work/ss" "$bc/ss"
  done
  cp "$bc/ct" "$work/ct"
  printf '\x55' | dd of="$work/ct" bs=1 seek=7 conv=notrunc status=none
  # (A byte that was 0x55 already, one ciphertext in 256, gets another value: the
  # ciphertext must differ.)
  cmp -s "$bc/ct" "$work/ct" && printf '\xaa' |
    dd of="$work/ct" bs=1 seek=7 conv=notrunc status=none
  expect "$a" "pqlab decapsulates a changed ciphertext" 0 \
    "$PQLAB" decaps "$a" --secret-key "$bc/sk-default.der" --ciphertext "$work/ct" \
    --shared-secret "$work/ss"
  differ "$a" "a changed ciphertext gives another shared secret" "$work/ss" "$bc/ss"
  for pk in "$bc/pk.der" "$bc/pk.pem"; do
    p=$(basename "$pk")
    expect "$a" "pqlab encapsulates to BouncyCastle's $p" 0 \
      "$PQLAB" encaps "$a" --public-key "$pk" --ciphertext "$out/$p.ct" --shared-secret "$out/$p.ss"
  done
done

# --- 3. pqlab writes -------------------------------------------------------------------------
echo "bc-interop: pqlab writes keys (PEM and DER), signatures, ciphertexts"
for a in "${SIG_ALGS[@]}" "${KEM_ALGS[@]}"; do
  [[ $a == hash-* ]] && continue # pqlab's keygen writes the pure ML-DSA OIDs only
  kind=$(kind_of "$a") dir=$work/pq/$a
  mkdir -p "$dir"
  # Falcon: BouncyCastle reads only its own PKCS#8 form, which pqlab writes with --falcon-form
  # bc; the default (oqs-provider's form) goes beside it, for the known refusal (step 4).
  falcon_form=()
  [ "$kind" = falcon ] && falcon_form=(--falcon-form bc)
  expect "$a" "pqlab keygen --format pem${falcon_form[*]:+ ${falcon_form[*]}}" 0 \
    "$PQLAB" keygen "$a" --public-key "$dir/pk.pem" --secret-key "$dir/sk.pem" --format pem \
    ${falcon_form[@]+"${falcon_form[@]}"}
  if [ "$kind" = falcon ]; then
    expect "$a" "pqlab keygen --format pem (oqs-provider's form)" 0 \
      "$PQLAB" keygen "$a" --public-key "$dir/pk-oqs.pem" --secret-key "$dir/sk-oqs.pem" --format pem
    pem_to_der "$dir/sk-oqs.pem" "$dir/sk-oqs.der"
  fi
  pem_to_der "$dir/pk.pem" "$dir/pk.der"
  pem_to_der "$dir/sk.pem" "$dir/sk.der"
  if [ "$kind" != kem ]; then
    expect "$a" "pqlab cert (a CA and a server certificate for BouncyCastle)" 0 \
      "$PQLAB" cert --alg "$a" --ca-out "$dir/cert-ca.pem" --cert-out "$dir/cert-leaf.pem" \
      --key-out "$dir/cert-key.pem" --san localhost ${falcon_form[@]+"${falcon_form[@]}"}
  fi
  if [ "$kind" = kem ]; then
    expect "$a" "pqlab encapsulates to its own key" 0 \
      "$PQLAB" encaps "$a" --public-key "$dir/pk.der" --ciphertext "$dir/ct" --shared-secret "$dir/ss"
  else
    cp "$work/bc/$a/msg" "$dir/msg"
    expect "$a" "pqlab signs" 0 \
      "$PQLAB" sign "$a" --secret-key "$dir/sk.der" --in "$dir/msg" --out "$dir/sig"
    if [ "$kind" != falcon ]; then
      expect "$a" "pqlab signs with a context" 0 \
        "$PQLAB" sign "$a" --secret-key "$dir/sk.pem" --in "$dir/msg" --out "$dir/sig-ctx" \
        --context "$CTX_HEX"
    fi
  fi
done

# --- 4. BouncyCastle uses pqlab's files (and checks what pqlab made of its own) -------------
echo "bc-interop: BouncyCastle verifies and decapsulates pqlab's output, loads pqlab's keys"
java_side check "$work"

# --- 5. pqlab checks what BouncyCastle made with pqlab's keys --------------------------------
echo "bc-interop: pqlab verifies / decapsulates what BouncyCastle made with pqlab's keys"
for a in "${SIG_ALGS[@]}" "${KEM_ALGS[@]}"; do
  [[ $a == hash-* ]] && continue
  kind=$(kind_of "$a") dir=$work/pq/$a
  for enc in der pem; do
    if [ "$kind" = kem ]; then
      [ -f "$dir/bc-$enc.ct" ] || continue # BouncyCastle refused the key (listed below)
      expect "$a" "pqlab decapsulates BouncyCastle's ciphertext to its key ($enc)" 0 \
        "$PQLAB" decaps "$a" --secret-key "$dir/sk.pem" --ciphertext "$dir/bc-$enc.ct" \
        --shared-secret "$work/ss"
      same "$a" "the shared secret of BouncyCastle's encapsulation ($enc)" "$work/ss" "$dir/bc-$enc.ss"
    else
      [ -f "$dir/bc-$enc.sig" ] || continue
      expect "$a" "pqlab verifies BouncyCastle's signature with pqlab's key ($enc)" 0 \
        "$PQLAB" verify "$a" --public-key "$dir/pk.der" --in "$dir/msg" --signature "$dir/bc-$enc.sig"
      if [ "$kind" != falcon ]; then
        expect "$a" "... and with a context ($enc)" 0 \
          "$PQLAB" verify "$a" --public-key "$dir/pk.pem" --in "$dir/msg" \
          --signature "$dir/bc-$enc-ctx.sig" --context "$CTX_HEX"
      fi
    fi
  done
done

# --- summary ---------------------------------------------------------------------------------
# The cases each algorithm must pass, as (BouncyCastle's files used by pqlab) + (pqlab's files
# used by BouncyCastle):
#   ML-DSA      4 key forms x 2 encodings x (sign, sign with context, `cert --key-in`, `cert
#               verify`) = 32, BouncyCastle verifies the 16 signatures; 2 public-key encodings
#               x 5 verifications (valid, changed byte, truncated, with context, context
#               missing) = 10
#             + keygen, 2 signs; BouncyCastle reads 2 public keys and per key verifies 2
#               signatures and rejects them with a flipped bit (10), reads 2 private keys and
#               signs with each (4); pqlab verifies those 2 x 2 signatures (4)
#   HashML-DSA  the first line only (pqlab's keygen writes the pure ML-DSA OIDs)
#   Falcon      2 key files x (sign, cert, cert verify) = 6, BouncyCastle verifies 2; 2 x 3
#               verifications
#             + 2 keygens (--falcon-form bc; the default oqs form), 1 sign with the bc-form
#               DER; BouncyCastle reads 2 public keys, verifies and rejects flipped (6), reads
#               the 2 bc-form private keys (DER, PEM) and signs with each (4), signs with the
#               key `pqlab cert --falcon-form bc` wrote, checked with its certificate (1);
#               pqlab verifies those 2 signatures (2); the oqs-form key is refused (below)
#   ML-KEM      4 key forms x 2 encodings x (decaps, same secret) = 16, a changed ciphertext
#               (2), 2 encapsulations that BouncyCastle decapsulates (2 + 2)
#             + keygen, encaps; BouncyCastle reads 2 public keys and encapsulates to each (4),
#               reads 2 private keys and decapsulates (4); pqlab decapsulates BouncyCastle's
#               2 ciphertexts to the same secret (4)
#   Certificates (ML-DSA, HashML-DSA, Falcon): pqlab shows BouncyCastle's CA certificate,
#               verifies its server certificate, refuses it with a changed byte (3);
#               BouncyCastle verifies pqlab's chain made with BouncyCastle's key (1)
#             + (not HashML-DSA) pqlab cert with its own keys (1), BouncyCastle verifies (1)
expected() {
  case $(kind_of "$1") in
    dsa) echo $((32 + 16 + 10 + 3 + 10 + 4 + 4 + 4 + 2)) ;;
    hash) echo $((32 + 16 + 10 + 4)) ;;
    falcon) echo $((6 + 2 + 6 + 3 + 6 + 4 + 1 + 2 + 4 + 2)) ;;
    kem) echo $((16 + 2 + 2 + 2 + 2 + 4 + 4 + 4)) ;;
  esac
}

# What BouncyCastle is known to refuse of pqlab's output: its default Falcon PKCS#8, which is
# oqs-provider's OCTET STRING (sk || pk); BouncyCastle reads only its own FalconPrivateKey
# SEQUENCE, which pqlab writes with --falcon-form bc (those keys must be read). Any other
# refusal is a failure.
known_refusal() {
  [[ $1 == falcon-*": BouncyCastle reads pqlab's oqs-form private key ("*")"* ]]
}
for r in ${refusals[@]+"${refusals[@]}"}; do
  known_refusal "$r" || failures+=("unexpected refusal: $r")
done

echo
echo "bc-interop: cases passed per algorithm (expected):"
want_total=0
short=()
for a in "${SIG_ALGS[@]}" "${KEM_ALGS[@]}"; do
  want=$(expected "$a") got=${per_alg[$a]:-0}
  want_total=$((want_total + want))
  printf '  %-15s %4d (%d)\n' "$a" "$got" "$want"
  [ "$got" -ge "$want" ] || short+=("$a: $got of $want cases ran")
done
if [ "${#refusals[@]}" -gt 0 ]; then
  echo "bc-interop: what BouncyCastle $BC_VERSION refuses of pqlab's output (known, not counted):"
  printf '  %s\n' "${refusals[@]}"
fi
echo "bc-interop: $passed cases passed, ${#failures[@]} failed (expected at least $want_total)"
if [ "${#failures[@]}" -gt 0 ] || [ "${#short[@]}" -gt 0 ]; then
  echo "bc-interop: FAILED" >&2
  printf '  %s\n' "${failures[@]}" "${short[@]}" >&2
  exit 1
fi
echo "bc-interop: all cases passed"
