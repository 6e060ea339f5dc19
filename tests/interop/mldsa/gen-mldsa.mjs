#!/usr/bin/env node
// ML-DSA (FIPS 204) certificates and CMS messages (RFC 9881, RFC 9882) made
// and checked by @noble/post-quantum, an implementation independent of
// libvouch, for tests/check_mldsa.py. Test-only: never linked, never needed
// to build.
//
//     node gen-mldsa.mjs [--seed N] [--raw-only | --no-raw] [--raw-count N] OUTDIR
//     node gen-mldsa.mjs --bench OUTDIR
//
// --bench writes the ML-DSA inputs of vouch-bench instead (committed, see
// tests/data/bench/gen-bench-msgs.sh): the PKI's root65.der and
// leaf65.pem; verify-mldsa65-{4096,1048576}.der, detached SignedData by
// leaf65 (its certificate inside, signed attributes, SHA-512) over SIZE
// bytes of tools/bench_content.h's content (byte i = (i * 131 + 7) mod
// 256); fw-bench-mldsa65-{1048576,4194304,67108864}.p7s, the same without
// signed attributes and without certificates (the signature over the
// content itself, RFC 9882), for fw-check-mldsa65 and test_fw (4 MiB: the
// size from which the firmware checker hashes on a second thread);
// module-mldsa65-attrs.ko, 4096 bytes of that content signed as the kernel's
// scripts/sign-file signs ML-DSA with OpenSSL < 4.0 (detached, signed
// attributes contentType and messageDigest over SHA-512, no certificates),
// for test_fw.
//
// The modules are found in $VOUCH_NOBLE_DIR/node_modules (a directory where
// `npm ci` installed package-lock.json beside this file: tools/test does it,
// tests/check_mldsa.py says where), else in node_modules beside this file.
//
// Into OUTDIR:
// - the PKI: ML-DSA-65 root -> ML-DSA-65 leaf, ML-DSA-87 root -> ML-DSA-44
//   leaf, RSA-3072 root (node's crypto, that is OpenSSL) -> ML-DSA-87 leaf;
//   certificates written by the DER writer below, PEM;
// - CMS SignedData signed by the leaves: signed attributes (contentType,
//   messageDigest over SHA-512 or SHAKE256) or none, attached and detached;
//   module-style files (content || PKCS#7 || struct module_signature ||
//   marker), without and with signed attributes;
// - corruptions of each accepted message: a bit of the signature, of the
//   content, of the messageDigest attribute, of the signer certificate's
//   signature; a truncation;
// - manifest.tsv, the format of tests/interop/gen-cms.py, oracle `noble`:
//   its oracle-args field is the verdict of the oracle below, `accepted` or
//   `refused:WHY`, computed by re-reading each written file;
// - raw.txt (not with --no-raw; alone with --raw-only): fresh (key,
//   context, message, signature) tuples of the three parameter sets and
//   their corruptions with noble's verdicts, for
//   tests/interop/test_interop_mldsa.c. One tuple a line, fields separated
//   by one space, byte strings in hex, `-` for an empty one:
//       PARAM VERDICT CONTEXT MESSAGE PUBLIC-KEY SIGNATURE
//   PARAM 44, 65 or 87; VERDICT 1 (noble accepts) or 0.
//
// The oracle is an independent re-computation: it parses the written bytes
// itself (strict DER), and accepts only if noble's ml_dsa*.verify accepts the
// signature over exactly the bytes it covers (the DER of the SET OF signed
// attributes, else the content), node's hash of the content equals
// messageDigest, and every certificate signature up to a --trust certificate
// verifies (noble, or node's RSA). Expected categories are by construction;
// tests/check_mldsa.py compares pkcs7verify with both.
//
// Keys, contents, signing randomness and corruptions come from --seed (a
// SHAKE256 stream); the RSA root's key comes from OpenSSL and is new each run.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(process.env.VOUCH_NOBLE_DIR || here, 'node_modules');
const { ml_dsa44, ml_dsa65, ml_dsa87 } = await import(
  pathToFileURL(path.join(modules, '@noble', 'post-quantum', 'ml-dsa.js')).href);

// ---- Arguments ----

const argv = process.argv.slice(2);
let seed = null, out = null, rawOnly = false, noRaw = false, rawCount = 6, bench = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--seed') seed = BigInt(argv[++i]);
  else if (argv[i] === '--raw-only') rawOnly = true;
  else if (argv[i] === '--no-raw') noRaw = true;
  else if (argv[i] === '--raw-count') rawCount = Number(argv[++i]);
  else if (argv[i] === '--bench') { bench = true; noRaw = true; }
  else if (!out && !argv[i].startsWith('--')) out = argv[i];
  else { console.error(`gen-mldsa: unknown argument ${argv[i]}`); process.exit(64); }
}
if (!out) {
  console.error('usage: gen-mldsa.mjs [--seed N] [--raw-only | --no-raw] [--raw-count N] OUTDIR');
  process.exit(64);
}
if (seed === null) seed = BigInt(crypto.randomInt(2 ** 32));
fs.mkdirSync(out, { recursive: true });

// ---- Seeded randomness: SHAKE256(seed || label || counter) ----

let counter = 0;
function rand(n, label = '') {
  return crypto.createHash('shake256', { outputLength: n })
    .update(`vouch gen-mldsa ${seed} ${label} ${counter++}`).digest();
}
function randInt(n) { return rand(4).readUInt32BE(0) % n; }
function flip(buf, pos, mask = 1 << randInt(8)) {
  const b = Buffer.from(buf);
  b[pos] ^= mask;
  return b;
}

// ---- ML-DSA parameter sets ----

const SETS = {
  44: { alg: ml_dsa44, oid: '2.16.840.1.101.3.4.3.17', pk: 1312, sig: 2420 },
  65: { alg: ml_dsa65, oid: '2.16.840.1.101.3.4.3.18', pk: 1952, sig: 3309 },
  87: { alg: ml_dsa87, oid: '2.16.840.1.101.3.4.3.19', pk: 2592, sig: 4627 },
};
const SET_OF_OID = Object.fromEntries(Object.entries(SETS).map(([k, v]) => [v.oid, k]));

// Pure ML-DSA (FIPS 204 Algorithm 2) with the context given (empty in X.509
// and CMS, RFC 9881 section 3 and RFC 9882 section 3), hedged with seeded
// randomness.
function mldsaSign(set, sk, msg, context = new Uint8Array(0)) {
  return Buffer.from(SETS[set].alg.sign(msg, sk, { context, extraEntropy: rand(32, 'rnd') }));
}
function mldsaVerify(set, pk, msg, sig, context = new Uint8Array(0)) {
  try {
    return SETS[set].alg.verify(sig, msg, pk, { context });
  } catch {
    return false;         // noble throws on some malformed inputs (lengths)
  }
}

// ---- DER writer ----

function len(n) {
  if (n < 0x80) return Buffer.from([n]);
  const b = [];
  for (; n > 0; n = Math.floor(n / 256)) b.unshift(n & 0xff);
  return Buffer.from([0x80 | b.length, ...b]);
}
function tlv(tag, ...parts) {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}
const seq = (...p) => tlv(0x30, ...p);
const set = (...p) => tlv(0x31, ...[...p].sort(Buffer.compare));    // DER: SET OF sorted
const explicit = (n, ...p) => tlv(0xa0 | n, ...p);
const octets = (b) => tlv(0x04, b);
const bits = (b) => tlv(0x03, Buffer.from([0]), b);
const utf8 = (s) => tlv(0x0c, Buffer.from(s, 'utf8'));
const bool = (v) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
function integer(bytes) {                   // unsigned big-endian, minimal
  let b = Buffer.from(bytes);
  while (b.length > 1 && b[0] === 0 && b[1] < 0x80) b = b.subarray(1);
  if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}
function oid(s) {
  const a = s.split('.').map(Number);
  const out = [40 * a[0] + a[1]];
  for (const v of a.slice(2)) {
    const b = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) b.unshift(0x80 | (x & 0x7f));
    out.push(...b);
  }
  return tlv(0x06, Buffer.from(out));
}
function utcTime(date) {
  const p = (n) => String(n).padStart(2, '0');
  const s = p(date.getUTCFullYear() % 100) + p(date.getUTCMonth() + 1) + p(date.getUTCDate()) +
    p(date.getUTCHours()) + p(date.getUTCMinutes()) + p(date.getUTCSeconds()) + 'Z';
  return tlv(0x17, Buffer.from(s));
}

const OID = {
  signedData: '1.2.840.113549.1.7.2', data: '1.2.840.113549.1.7.1',
  contentType: '1.2.840.113549.1.9.3', messageDigest: '1.2.840.113549.1.9.4',
  sha512: '2.16.840.1.101.3.4.2.3', shake256: '2.16.840.1.101.3.4.2.12',
  sha256WithRSA: '1.2.840.113549.1.1.11', rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2', ecPublicKey: '1.2.840.10045.2.1',
  md5: '1.2.840.113549.2.5', sha1: '1.3.14.3.2.26',
  O: '2.5.4.10', CN: '2.5.4.3', basicConstraints: '2.5.29.19', keyUsage: '2.5.29.15',
};
// RFC 9881 section 2 and RFC 9882 section 2: parameters ABSENT.
const mldsaAlgId = (s) => seq(oid(SETS[s].oid));

// ---- The PKI ----

function name(cn) {
  return seq(set(seq(oid(OID.O), utf8('vouch interop'))), set(seq(oid(OID.CN), utf8(cn))));
}

const now = Date.now();
const notBefore = new Date(now - 86400e3), notAfter = new Date(now + 10 * 365 * 86400e3);

function makeKey(kind) {
  if (kind === 'rsa') {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 });
    return { kind, spki: publicKey.export({ type: 'spki', format: 'der' }), privateKey };
  }
  if (kind === 'ec') {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { kind, spki: publicKey.export({ type: 'spki', format: 'der' }), privateKey };
  }
  const { publicKey, secretKey } = SETS[kind].alg.keygen(rand(32, 'keygen'));
  return { kind, pk: Buffer.from(publicKey), sk: secretKey,
    spki: seq(mldsaAlgId(kind), bits(Buffer.from(publicKey))) };
}

function signWith(key, tbs) {
  if (key.kind === 'ec') {
    return { algId: seq(oid(OID.ecdsaWithSHA256)),
      sig: crypto.sign('sha256', tbs, { key: key.privateKey, dsaEncoding: 'der' }) };
  }
  if (key.kind === 'rsa') {
    return { algId: seq(oid(OID.sha256WithRSA), tlv(0x05)),
      sig: crypto.sign('sha256', tbs, key.privateKey) };
  }
  return { algId: mldsaAlgId(key.kind), sig: mldsaSign(key.kind, key.sk, tbs) };
}

const PKI = {};
let serial = 0;
function makeCert(cn, kind, issuer, ca) {
  const key = makeKey(kind);
  const iss = issuer ? PKI[issuer] : { key, name: name(cn) };
  const extensions = [
    seq(oid(OID.basicConstraints), bool(true), octets(ca ? seq(bool(true)) : seq())),
    // keyUsage: keyCertSign (bit 5) for a CA, digitalSignature (bit 0) else.
    seq(oid(OID.keyUsage), bool(true),
      octets(ca ? tlv(0x03, Buffer.from([1, 0x06])) : tlv(0x03, Buffer.from([7, 0x80])))),
  ];
  const sn = Buffer.concat([Buffer.from([0x40 + ++serial]), rand(7, 'serial')]);
  const issuerAlg = signWith(iss.key, Buffer.alloc(0)).algId;
  const tbs = seq(explicit(0, integer([2])), integer(sn), issuerAlg, iss.name,
    seq(utcTime(notBefore), utcTime(notAfter)), name(cn), key.spki,
    explicit(3, seq(...extensions)));
  const { algId, sig } = signWith(iss.key, tbs);
  const der = seq(tbs, algId, bits(sig));
  PKI[cn] = { cn, key, name: name(cn), issuerName: iss.name, serial: integer(sn), der };
  const b64 = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  fs.writeFileSync(path.join(out, cn + '.pem'),
    `-----BEGIN CERTIFICATE-----\n${b64}-----END CERTIFICATE-----\n`);
}

// ---- CMS SignedData (RFC 5652 section 5, RFC 9882) ----

const digestAlgId = (d) => seq(oid(OID[d]));                  // RFC 5754, RFC 8702: absent
function digest(d, data) {
  return d === 'sha512' ? crypto.createHash('sha512').update(data).digest()
    : crypto.createHash('shake256', { outputLength: 64 }).update(data).digest();
}

// opts: signer, attrs (false | 'sha512' | 'shake256'), detached, certs.
function signedData(content, opts) {
  const signer = PKI[opts.signer];
  const md = opts.attrs || 'sha512';
  let attrs = null, signed = content;
  if (opts.attrs) {
    attrs = set(seq(oid(OID.contentType), set(oid(OID.data))),
      seq(oid(OID.messageDigest), set(octets(digest(md, content)))));
    signed = attrs;                         // the DER of the SET OF (RFC 5652 section 5.4)
  }
  const sig = mldsaSign(signer.key.kind, signer.key.sk, signed);
  const dig = opts.attrs ? md : opts.digestAlg || md;   // without attributes: any, unused
  const signerInfo = seq(integer([1]), seq(signer.issuerName, signer.serial), digestAlgId(dig),
  ...(attrs ? [Buffer.concat([Buffer.from([0xa0]), attrs.subarray(1)])] : []),
  mldsaAlgId(signer.key.kind), octets(sig));
  const encap = opts.detached ? seq(oid(OID.data)) : seq(oid(OID.data), explicit(0, octets(content)));
  const sd = seq(integer([1]), set(digestAlgId(dig)), encap,
    ...(opts.certs ? [tlv(0xa0, signer.der)] : []), set(signerInfo));
  return seq(oid(OID.signedData), explicit(0, sd));
}

const MARKER = Buffer.from('~Module signature appended~\n');
function moduleTrailer(sigLen) {
  // struct module_signature: algo, hash, id_type = PKEY_ID_PKCS7 (2),
  // signer_len, key_id_len, pad[3], sig_len big-endian; then the marker.
  const t = Buffer.alloc(12);
  t[2] = 2;
  t.writeUInt32BE(sigLen, 8);
  return Buffer.concat([t, MARKER]);
}
function splitModule(data) {
  if (data.length < MARKER.length + 12 || !data.subarray(-MARKER.length).equals(MARKER)) return null;
  const end = data.length - MARKER.length - 12;
  const sigLen = data.readUInt32BE(end + 8);
  if (sigLen === 0 || sigLen >= end) return null;
  return { body: data.subarray(0, end - sigLen), sig: data.subarray(end - sigLen, end) };
}

// ---- DER reader (strict: definite lengths, minimal) ----

function derRead(buf, off) {
  if (off + 2 > buf.length) throw new Error('truncated');
  const tag = buf[off];
  if ((tag & 0x1f) === 0x1f) throw new Error('long tag');
  let n = buf[off + 1], hdr = off + 2;
  if (n === 0x80) throw new Error('indefinite length');
  if (n > 0x80) {
    const k = n & 0x7f;
    if (k > 4 || hdr + k > buf.length) throw new Error('bad length');
    n = 0;
    for (let i = 0; i < k; i++) n = n * 256 + buf[hdr + i];
    if (n < 0x80 || buf[hdr] === 0) throw new Error('non-minimal length');
    hdr += k;
  }
  if (hdr + n > buf.length) throw new Error('truncated');
  return { tag, off, hdr, end: hdr + n, body: buf.subarray(hdr, hdr + n),
    raw: buf.subarray(off, hdr + n) };
}
function derChildren(buf, off) {
  const e = derRead(buf, off);
  const kids = [];
  for (let p = e.hdr; p < e.end; p = kids[kids.length - 1].end) kids.push(derRead(buf, p));
  return kids;
}
function derWhole(buf, tag) {
  const e = derRead(buf, 0);
  if (e.end !== buf.length || e.tag !== tag) throw new Error('not one DER element');
  return e;
}
const kidsOf = (e) => derChildren(e.raw, 0);       // offsets relative to e.raw
function oidString(e) {
  if (e.tag !== 0x06) throw new Error('OID expected');
  const b = e.body, a = [];
  let v = 0;
  for (const x of b) { v = v * 128 + (x & 0x7f); if (!(x & 0x80)) { a.push(v); v = 0; } }
  const first = a.shift();
  return [Math.min(2, Math.floor(first / 40)), first - 40 * Math.min(2, Math.floor(first / 40)), ...a]
    .join('.');
}

// The fields of a certificate the oracle needs, read from its DER.
function parseCert(der) {
  const cert = kidsOf(derWhole(der, 0x30));
  if (cert.length !== 3) throw new Error('certificate: 3 fields expected');
  const f = kidsOf(cert[0]);
  if (f[0].tag !== 0xa0) throw new Error('certificate: v3 expected');
  const [, serialE, , issuer, , subject, spki] = f;
  const sigAlg = kidsOf(cert[1]);
  const sigBits = cert[2];
  if (sigBits.tag !== 0x03 || sigBits.body[0] !== 0) throw new Error('signatureValue');
  const spkiK = kidsOf(spki), spkiAlg = kidsOf(spkiK[0]);
  return { der, tbs: cert[0].raw, serial: serialE.raw, issuer: issuer.raw, subject: subject.raw,
    spki: spki.raw, keyOid: oidString(spkiAlg[0]), keyParams: spkiAlg.length,
    key: spkiK[1].body.subarray(1), sigOid: oidString(sigAlg[0]), sigParams: sigAlg.slice(1),
    sig: sigBits.body.subarray(1) };
}
function readPemCerts(file) {
  const text = fs.readFileSync(file, 'latin1');
  const re = /-----BEGIN CERTIFICATE-----\n([^-]*)-----END CERTIFICATE-----/g;
  return [...text.matchAll(re)].map((m) => parseCert(Buffer.from(m[1], 'base64')));
}

// ---- The oracle ----

// Does `issuer`'s key verify `cert`'s signature? ML-DSA by noble, with the
// parameters absent and the key's set; RSA by node (OpenSSL).
function certSignatureOk(cert, issuer) {
  if (SET_OF_OID[cert.sigOid]) {
    return cert.sigParams.length === 0 && issuer.keyOid === cert.sigOid && issuer.keyParams === 1 &&
      mldsaVerify(SET_OF_OID[cert.sigOid], issuer.key, cert.tbs, cert.sig);
  }
  if (cert.sigOid === OID.sha256WithRSA && issuer.keyOid === OID.rsaEncryption) {
    const key = crypto.createPublicKey({ key: issuer.spki, format: 'der', type: 'spki' });
    return crypto.verify('sha256', cert.tbs, key, cert.sig);
  }
  if (cert.sigOid === OID.ecdsaWithSHA256 && issuer.keyOid === OID.ecPublicKey) {
    const key = crypto.createPublicKey({ key: issuer.spki, format: 'der', type: 'spki' });
    return crypto.verify('sha256', cert.tbs, { key, dsaEncoding: 'der' }, cert.sig);
  }
  return false;
}

// The verdict on pkcs7verify's arguments, from the bytes alone:
// 'accepted' or 'refused:WHY'.
function oracle(args) {
  try {
    return oracleOrThrow(args);
  } catch (e) {
    return 'refused:malformed-' + e.message.replace(/\W+/g, '-');
  }
}
function oracleOrThrow(args) {
  const trust = [], extra = [];
  let content = null, file = null, module = false;
  for (const a of args) {
    if (a.startsWith('--trust=')) trust.push(...readPemCerts(path.join(out, a.slice(8))));
    else if (a.startsWith('--certs=')) extra.push(...readPemCerts(path.join(out, a.slice(8))));
    else if (a.startsWith('--content=')) content = fs.readFileSync(path.join(out, a.slice(10)));
    else if (a === '--module') module = true;
    else if (a === '--mldsa-module-attrs') continue;   /* a usage rule, not a signature's */
    else if (!a.startsWith('--')) file = fs.readFileSync(path.join(out, a));
    else throw new Error('unknown argument ' + a);
  }
  let der = file;
  if (module) {
    const parts = splitModule(file);
    if (!parts) return 'refused:no-module-signature';
    content = parts.body;
    der = parts.sig;
  }
  const ci = kidsOf(derWhole(der, 0x30));
  if (oidString(ci[0]) !== OID.signedData || ci[1].tag !== 0xa0) throw new Error('not SignedData');
  const sd = kidsOf(kidsOf(ci[1])[0]);
  const encap = kidsOf(sd[2]);
  const messageCerts = sd[3].tag === 0xa0 ? kidsOf(sd[3]).map((c) => parseCert(c.raw)) : [];
  const signerInfos = kidsOf(sd[sd.length - 1]);
  if (signerInfos.length !== 1) throw new Error('one SignerInfo expected');
  if (encap.length > 1) {
    if (content) return 'refused:content-twice';
    content = kidsOf(encap[1])[0].body;
  }
  if (!content) return 'refused:no-content';

  const si = kidsOf(signerInfos[0]);
  const sid = kidsOf(si[1]);
  const digestOid = oidString(kidsOf(si[2])[0]);
  const hasAttrs = si[3].tag === 0xa0;
  const sigAlg = kidsOf(si[hasAttrs ? 4 : 3]);
  const sigE = si[hasAttrs ? 5 : 4];
  const mset = SET_OF_OID[oidString(sigAlg[0])];
  if (!mset || sigAlg.length !== 1) return 'refused:not-ml-dsa';
  const all = [...messageCerts, ...extra, ...trust];
  const signer = all.find((c) => c.issuer.equals(sid[0].raw) && c.serial.equals(sid[1].raw));
  if (!signer) return 'refused:no-signer-certificate';
  if (signer.keyOid !== SETS[mset].oid || signer.keyParams !== 1) return 'refused:key-algorithm';

  let covered = content;
  if (hasAttrs) {
    let type = null, md = null;
    for (const attr of kidsOf(si[3])) {
      const [t, values] = kidsOf(attr);
      const v = kidsOf(values);
      if (v.length !== 1) return 'refused:attribute-values';
      if (oidString(t) === OID.contentType) type = oidString(v[0]);
      if (oidString(t) === OID.messageDigest) md = v[0].body;
    }
    if (type !== oidString(encap[0])) return 'refused:content-type';
    const want = digestOid === OID.sha512 ? digest('sha512', content)
      : digestOid === OID.shake256 ? digest('shake256', content) : null;
    if (!want) return 'refused:digest-algorithm';
    if (!md || !want.equals(md)) return 'refused:message-digest';
    covered = Buffer.concat([Buffer.from([0x31]), si[3].raw.subarray(1)]);
  }
  if (!mldsaVerify(mset, signer.key, covered, sigE.body)) return 'refused:signature';

  // The chain: a certificate whose key and name a --trust certificate has
  // is trusted; else its issuer (by name) must verify it, up to one.
  const isTrusted = (c) => trust.some((t) => t.spki.equals(c.spki) && t.subject.equals(c.subject));
  let cur = signer;
  for (let depth = 0; depth < 8; depth++) {
    if (isTrusted(cur)) return 'accepted';
    const issuer = all.find((c) => c.subject.equals(cur.issuer) && certSignatureOk(cur, c));
    if (!issuer) {
      return all.some((c) => c.subject.equals(cur.issuer)) ? 'refused:certificate-signature'
        : 'refused:no-trusted-key';
    }
    cur = issuer;
  }
  return 'refused:chain-too-long';
}

// ---- The cases ----

function signatureSpan(der) {           // the signature OCTET STRING's value in a message
  const ci = kidsOf(derWhole(der, 0x30));
  const sd = kidsOf(kidsOf(ci[1])[0]);
  const si = kidsOf(kidsOf(sd[sd.length - 1])[0]);
  return locate(der, si[si.length - 1]);
}
// The absolute offsets of a nested element: its raw bytes are unique in
// the message (signatures, digests and certificates are random-looking).
function locate(der, e) {
  const at = der.indexOf(e.raw);
  if (at < 0 || der.indexOf(e.raw, at + 1) >= 0) throw new Error('element not unique');
  return { start: at + (e.hdr - e.off), end: at + e.raw.length };
}
function messageDigestSpan(der) {
  const ci = kidsOf(derWhole(der, 0x30));
  const sd = kidsOf(kidsOf(ci[1])[0]);
  const si = kidsOf(kidsOf(sd[sd.length - 1])[0]);
  for (const attr of kidsOf(si[3])) {
    const [t, values] = kidsOf(attr);
    if (oidString(t) === OID.messageDigest) return locate(der, kidsOf(values)[0]);
  }
  throw new Error('no messageDigest');
}
function contentSpan(der) {
  const ci = kidsOf(derWhole(der, 0x30));
  const sd = kidsOf(kidsOf(ci[1])[0]);
  return locate(der, kidsOf(kidsOf(sd[2])[1])[0]);
}
const pick = (span) => span.start + randInt(span.end - span.start);

const rows = [];
function row(name, kind, corruption, expect, args) {
  rows.push([name, kind, corruption, expect, args.join(' '), oracle(args), 'noble'].join('\t'));
}

// A case: a message (or module file), its uncorrupted row and, when it is
// accepted, its corruptions.
function build(c) {
  const content = rand(200 + randInt(3000), 'content');
  const contentFile = c.name + '.bin';
  fs.writeFileSync(path.join(out, contentFile), content);
  const base = ['--trust=' + c.trust + '.pem', ...(c.certs ? ['--certs=' + c.certs + '.pem'] : []),
    ...(c.vouchExtra || [])];
  let data, args, msgOf, withMsg;
  if (c.module) {
    const sd = signedData(content, { ...c, detached: true, certs: false });
    data = Buffer.concat([content, sd, moduleTrailer(sd.length)]);
    msgOf = (d) => splitModule(d).sig;
    withMsg = (d, m) => Buffer.concat([splitModule(d).body, m, moduleTrailer(m.length)]);
    args = (f) => [...base, '--module', f];
  } else {
    data = signedData(content, { ...c, certs: c.certs === undefined });
    msgOf = (d) => d;
    withMsg = (d, m) => m;
    args = (f, cf = contentFile) => [...base, ...(c.detached ? ['--content=' + cf] : []), f];
  }
  const file = c.name + '.der';
  fs.writeFileSync(path.join(out, file), data);
  row(c.name, c.kind, 'none', c.expect || 'accepted', args(file));
  if (c.expect && c.expect !== 'accepted') return;

  const msg = msgOf(data);
  const edits = [['sig', 'rejected-signature', (m) => flip(m, pick(signatureSpan(m)))]];
  if (c.attrs) edits.push(['attr', 'rejected-signature', (m) => flip(m, pick(messageDigestSpan(m)))]);
  if (!c.module && !c.detached) {
    edits.push(['content', 'rejected-signature', (m) => flip(m, pick(contentSpan(m)))]);
  }
  if (!c.module && c.certs === undefined) {
    // A bit of the last 16 bytes of the signer certificate's signatureValue, in
    // the message's copy: inside the value whatever signed it (for an ECDSA
    // issuer, inside s; a flip of its DER structure would be 'malformed').
    const cert = parseCert(PKI[c.signer].der);
    const end = msg.indexOf(cert.der) + cert.der.length;
    edits.push(['cert', 'rejected-signature', (m) => flip(m, end - 1 - randInt(16))]);
  }
  if (!c.module) {
    edits.push(['trunc', 'malformed', (m) => m.subarray(0, Math.floor(m.length / 4) +
      randInt(Math.floor(m.length / 2)))]);
  }
  for (const [corruption, expect, how] of edits) {
    const f = `${c.name}.${corruption}.der`;
    fs.writeFileSync(path.join(out, f), withMsg(data, how(msg)));
    row(`${c.name}.${corruption}`, c.kind, corruption, expect, args(f));
  }
  if (c.module) {
    const { body, sig } = splitModule(data);
    const more = [
      ['content', 'rejected-signature',
        Buffer.concat([flip(body, randInt(body.length)), sig, moduleTrailer(sig.length)])],
      // the marker gone: an unsigned module, refused by policy
      ['trunc-marker', 'rejected-policy', data.subarray(0, data.length - 1)],
      ['sig-len', 'malformed', Buffer.concat([body, sig, moduleTrailer(sig.length + 1)])],
    ];
    for (const [corruption, expect, bytes] of more) {
      const f = `${c.name}.${corruption}.der`;
      fs.writeFileSync(path.join(out, f), bytes);
      row(`${c.name}.${corruption}`, c.kind, corruption, expect, args(f));
    }
  } else if (c.detached) {
    const bad = c.name + '.content.bin';
    fs.writeFileSync(path.join(out, bad), flip(content, randInt(content.length)));
    row(c.name + '.content', c.kind, 'content', 'rejected-signature', args(file, bad));
  }
}

// ---- The raw differential ----

function rawTuples(n) {
  const hex = (b) => (b.length ? Buffer.from(b).toString('hex') : '-');
  const lines = ['# gen-mldsa.mjs raw differential, seed ' + seed,
    '# PARAM VERDICT CONTEXT MESSAGE PUBLIC-KEY SIGNATURE (hex, - empty; VERDICT 1: noble accepts)'];
  const put = (s, ctx, msg, pk, sig) => {
    const v = mldsaVerify(s, pk, msg, sig, ctx) ? 1 : 0;
    lines.push([s, v, hex(ctx), hex(msg), hex(pk), hex(sig)].join(' '));
    return v;
  };
  let accepted = 0, total = 0;
  for (const s of Object.keys(SETS)) {
    for (let i = 0; i < n; i++) {
      const { publicKey, secretKey } = SETS[s].alg.keygen(rand(32, 'raw keygen'));
      const pk = Buffer.from(publicKey);
      const msg = i === 0 ? Buffer.alloc(0) : rand(1 + randInt(400), 'raw msg');
      const ctx = i % 2 ? rand(i === n - 1 ? 255 : 1 + randInt(64), 'raw ctx') : Buffer.alloc(0);
      const sig = mldsaSign(s, secretKey, msg, ctx);
      const sigLen = SETS[s].sig;
      // FIPS 204 section 7.2: the hint h is the last omega + k bytes.
      const k = { 44: 4, 65: 6, 87: 8 }[s], omega = { 44: 80, 65: 55, 87: 75 }[s];
      const hintStart = sigLen - omega - k;
      const cases = [
        [ctx, msg, pk, sig],
        [ctx, msg, pk, flip(sig, randInt(sigLen))],
        [ctx, msg, pk, flip(sig, randInt(32))],                         // c~
        [ctx, msg, pk, flip(sig, hintStart + randInt(sigLen - hintStart))],   // h
        [ctx, msg, pk, flip(sig, sigLen - 1 - randInt(k))],             // h's counts
        [ctx, msg, flip(pk, randInt(pk.length)), sig],
        [ctx, msg.length ? flip(msg, randInt(msg.length)) : Buffer.from([0]), pk, sig],
        [ctx.length ? flip(ctx, randInt(ctx.length)) : Buffer.from([0]), msg, pk, sig],
        [ctx.length ? Buffer.alloc(0) : rand(8, 'raw ctx'), msg, pk, sig],
        [ctx, msg, pk, sig.subarray(0, sigLen - 1)],
      ];
      for (const [cx, m, k, g] of cases) {
        accepted += put(s, cx, m, k, g);
        total++;
      }
    }
  }
  fs.writeFileSync(path.join(out, 'raw.txt'), lines.join('\n') + '\n');
  return [total, accepted];
}

const [rawTotal, rawAccepted] = noRaw ? [0, 0] : rawTuples(rawCount);
if (rawOnly) {
  console.log(`gen-mldsa: ${rawTotal} raw tuples (${rawAccepted} accepted by noble) in ${out} ` +
    `(seed ${seed})`);
  process.exit(0);
}

makeCert('root65', 65, null, true);
makeCert('leaf65', 65, 'root65', false);
if (bench) {
  const content = (n) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 131 + 7) & 255));
  fs.writeFileSync(path.join(out, 'root65.der'), PKI.root65.der);
  for (const n of [4096, 1048576]) {
    fs.writeFileSync(path.join(out, `verify-mldsa65-${n}.der`),
      signedData(content(n), { signer: 'leaf65', attrs: 'sha512', detached: true, certs: true }));
  }
  for (const n of [1048576, 4194304, 67108864]) {
    fs.writeFileSync(path.join(out, `fw-bench-mldsa65-${n}.p7s`),
      signedData(content(n), { signer: 'leaf65', attrs: false, detached: true, certs: false }));
  }
  // A module as scripts/sign-file signs it with ML-DSA and OpenSSL < 4.0:
  // detached, no certificates, contentType and messageDigest (SHA-512).
  const body = content(4096);
  const sd = signedData(body, { signer: 'leaf65', attrs: 'sha512', detached: true, certs: false });
  fs.writeFileSync(path.join(out, 'module-mldsa65-attrs.ko'),
    Buffer.concat([body, sd, moduleTrailer(sd.length)]));
  console.log(`gen-mldsa: the bench inputs in ${out} (seed ${seed})`);
  process.exit(0);
}
makeCert('root87', 87, null, true);
makeCert('leaf44', 44, 'root87', false);
makeCert('rootrsa', 'rsa', null, true);
makeCert('leaf87', 87, 'rootrsa', false);
makeCert('rootec', 'ec', null, true);
makeCert('leaf65ec', 65, 'rootec', false);

const CASES = [
  // Signed attributes, SHA-512 (RFC 9882 section 3.3), each chain.
  { name: 'attr-sha512-65-detached', kind: 'attr', signer: 'leaf65', trust: 'root65', attrs: 'sha512', detached: true },
  { name: 'attr-sha512-65-attached', kind: 'attr', signer: 'leaf65', trust: 'root65', attrs: 'sha512' },
  { name: 'attr-sha512-44-attached', kind: 'attr', signer: 'leaf44', trust: 'root87', attrs: 'sha512' },
  { name: 'attr-sha512-87rsa-detached', kind: 'attr', signer: 'leaf87', trust: 'rootrsa', attrs: 'sha512', detached: true },
  // messageDigest by SHAKE256 (64 bytes), parameters absent.
  { name: 'attr-shake256-65-detached', kind: 'shake256', signer: 'leaf65', trust: 'root65', attrs: 'shake256', detached: true },
  { name: 'attr-shake256-44-attached', kind: 'shake256', signer: 'leaf44', trust: 'root87', attrs: 'shake256' },
  // No signed attributes: the signature is over the content itself.
  { name: 'noattr-65-detached', kind: 'noattr', signer: 'leaf65', trust: 'root65', detached: true },
  { name: 'noattr-44-attached', kind: 'noattr', signer: 'leaf44', trust: 'root87' },
  { name: 'noattr-87rsa-attached', kind: 'noattr', signer: 'leaf87', trust: 'rootrsa' },
  // An ECDSA P-256 root over an ML-DSA-65 leaf.
  { name: 'attr-sha512-65ec-detached', kind: 'attr', signer: 'leaf65ec', trust: 'rootec', attrs: 'sha512', detached: true },
  // RFC 9882 section 3.3: without signed attributes the digestAlgorithm is
  // ignored: MD5 and SHA-1 there change nothing (no -ENOPKG, no SHA-1 rule).
  { name: 'noattr-65-md5-digest', kind: 'noattr', signer: 'leaf65', trust: 'root65', detached: true, digestAlg: 'md5' },
  { name: 'noattr-44-sha1-digest', kind: 'noattr', signer: 'leaf44', trust: 'root87', digestAlg: 'sha1' },
  // The certificate from --certs, none in the message.
  { name: 'nocerts-65-detached', kind: 'nocerts', signer: 'leaf65', trust: 'root65', certs: 'leaf65', attrs: 'sha512', detached: true },
  // A keyring that does not hold the chain's root.
  { name: 'untrusted-65', kind: 'untrusted', signer: 'leaf65', trust: 'root87', attrs: 'sha512', expect: 'no-trusted-key' },
  // Module files (scripts/sign-file): the signer's key in the keyring, no
  // certificates; without signed attributes, and with contentType and
  // messageDigest (sign-file's ML-DSA with OpenSSL < 4.0).
  { name: 'module-44', kind: 'module', signer: 'leaf44', trust: 'leaf44', module: true, certs: null },
  // The kernel refuses them unless CONFIG_PKCS7_WAIVE_AUTHATTRS_REJECTION_FOR_MLDSA:
  // vouch --mldsa-module-attrs; without it, refused (check_cms.py's DELIBERATE).
  { name: 'module-attr-65', kind: 'module', signer: 'leaf65', trust: 'leaf65', module: true, certs: null, attrs: 'sha512',
    vouchExtra: ['--mldsa-module-attrs'] },
  { name: 'module-attr-nowaiver-87', kind: 'module', signer: 'leaf87', trust: 'leaf87', module: true, certs: null,
    attrs: 'sha512', expect: 'rejected-policy' },
  { name: 'module-87', kind: 'module', signer: 'leaf87', trust: 'leaf87', module: true, certs: null },
];
for (const c of CASES) build(c);

fs.writeFileSync(path.join(out, 'manifest.tsv'),
  `# gen-mldsa.mjs --seed ${seed} (tests/interop/mldsa/gen-mldsa.mjs)\n` +
  '# name\tkind\tcorruption\texpect\tpkcs7verify-args\toracle-args\toracle\n' +
  rows.join('\n') + '\n');
console.log(`gen-mldsa: ${rows.length} cases and ${rawTotal} raw tuples in ${out} (seed ${seed})`);
