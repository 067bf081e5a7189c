/**
 * Just enough ASN.1 to judge the PKCS#7 object of a PDF signature (RFC 2315
 * ContentInfo → SignedData): how many SignerInfo structures it holds and whether
 * the certificate of its signer travels with it. Never throws: malformed data
 * reads as "not a SignedData object".
 *
 * The reader accepts BER indefinite lengths as well as DER: PDF/A asks for DER,
 * but signing tools that write BER still produce signatures every validator
 * reads, and the rules here judge the signer and certificate, not the encoding.
 */

export interface SignedDataSummary {
  signerCount: number;
  certificateCount: number;
  /** The certificate named by the (first) signer's identifier is among the certificates. */
  signingCertificatePresent: boolean;
}

interface Tlv {
  tag: number;
  constructed: boolean;
  /** Offset of the content octets. */
  start: number;
  /** Offset just past the element (end-of-contents octets included for indefinite lengths). */
  end: number;
  /** Offset just past the content octets. */
  contentEnd: number;
}

/** Nesting followed at most; a PKCS#7 object nests a dozen levels. */
const MAX_DEPTH = 64;

function readTlv(b: Uint8Array, pos: number, limit: number, depth = 0): Tlv | null {
  if (pos + 2 > limit || depth > MAX_DEPTH) return null;
  const first = b[pos]!;
  let p = pos + 1;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    // High tag number form: base-128 digits.
    tag = 0;
    for (let i = 0; ; i++) {
      if (p >= limit || i > 4) return null;
      const x = b[p++]!;
      tag = tag * 128 + (x & 0x7f);
      if (!(x & 0x80)) break;
    }
  }
  const tagValue = (first & 0xe0) * 0x10000 + tag;
  const constructed = (first & 0x20) !== 0;
  if (p >= limit) return null;
  const l = b[p++]!;
  if (l === 0x80) {
    // Indefinite length: children up to the end-of-contents octets.
    if (!constructed) return null;
    let q = p;
    for (;;) {
      if (q + 2 > limit) return null;
      if (b[q] === 0 && b[q + 1] === 0) return { tag: tagValue, constructed, start: p, contentEnd: q, end: q + 2 };
      const child = readTlv(b, q, limit, depth + 1);
      if (!child) return null;
      q = child.end;
    }
  }
  let len = l;
  if (l & 0x80) {
    const n = l & 0x7f;
    if (n > 4 || p + n > limit) return null;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[p++]!;
  }
  if (p + len > limit) return null;
  return { tag: tagValue, constructed, start: p, contentEnd: p + len, end: p + len };
}

function children(b: Uint8Array, t: Tlv, depth = 0): Tlv[] | null {
  const out: Tlv[] = [];
  for (let p = t.start; p < t.contentEnd; ) {
    const c = readTlv(b, p, t.contentEnd, depth + 1);
    if (!c) return null;
    out.push(c);
    p = c.end;
  }
  return out;
}

// Tag values as readTlv builds them: class and constructed bits above the number.
const SEQUENCE = 0x20 * 0x10000 + 0x10;
const SET = 0x20 * 0x10000 + 0x11;
const INTEGER = 0x02;
const OID = 0x06;
const CONTEXT_0 = 0xa0 * 0x10000;

/** 1.2.840.113549.1.7.2 (signedData). */
const SIGNED_DATA_OID = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02];

const contentOf = (b: Uint8Array, t: Tlv) => b.subarray(t.start, t.contentEnd);
const equal = (a: Uint8Array, c: ArrayLike<number>) => a.length === c.length && a.every((x, i) => x === c[i]);

/** The serial number of a certificate (tbsCertificate's INTEGER after the optional [0] version). */
function certificateSerial(b: Uint8Array, cert: Tlv): Uint8Array | null {
  const parts = children(b, cert);
  const tbs = parts?.[0];
  if (!tbs || tbs.tag !== SEQUENCE) return null;
  const fields = children(b, tbs);
  if (!fields) return null;
  const serial = fields[0]?.tag === CONTEXT_0 ? fields[1] : fields[0];
  return serial && serial.tag === INTEGER ? contentOf(b, serial) : null;
}

export function parseSignedData(bytes: Uint8Array): SignedDataSummary | null {
  try {
    // Contents is padded with zeros after the object: read the first element only.
    const ci = readTlv(bytes, 0, bytes.length);
    if (!ci || ci.tag !== SEQUENCE) return null;
    const [oid, wrapped] = children(bytes, ci) ?? [];
    if (!oid || oid.tag !== OID || !equal(contentOf(bytes, oid), SIGNED_DATA_OID) || !wrapped || wrapped.tag !== CONTEXT_0) return null;
    const sd = children(bytes, wrapped)?.[0];
    if (!sd || sd.tag !== SEQUENCE) return null;
    const fields = children(bytes, sd);
    if (!fields || fields.length < 4) return null;
    // version, digestAlgorithms, contentInfo, [0] certificates?, [1] crls?, signerInfos
    const signerInfos = fields[fields.length - 1]!;
    if (signerInfos.tag !== SET) return null;
    const certSet = fields.slice(3, -1).find((f) => f.tag === CONTEXT_0);
    const certs = certSet ? (children(bytes, certSet) ?? []).filter((c) => c.tag === SEQUENCE) : [];
    const signers = (children(bytes, signerInfos) ?? []).filter((s) => s.tag === SEQUENCE);
    let signingCertificatePresent = certs.length > 0;
    const first = signers[0];
    if (first && signingCertificatePresent) {
      // sid: IssuerAndSerialNumber (a SEQUENCE) names the certificate by its serial; a
      // SubjectKeyIdentifier ([0]) would need the extension parsed and is trusted as is.
      const sid = children(bytes, first)?.[1];
      if (sid?.tag === SEQUENCE) {
        const serial = children(bytes, sid)?.[1];
        if (serial?.tag === INTEGER) {
          const wanted = contentOf(bytes, serial);
          signingCertificatePresent = certs.some((c) => {
            const s = certificateSerial(bytes, c);
            return s !== null && equal(s, wanted);
          });
        }
      }
    }
    return { signerCount: signers.length, certificateCount: certs.length, signingCertificatePresent };
  } catch {
    return null;
  }
}
