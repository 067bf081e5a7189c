/**
 * Digital signatures (PDF/A-2 and PDF/A-3 6.4.3). A signature in an archived
 * file must seal the whole file as it was signed: its ByteRange covers every
 * byte except the Contents value, which is written as a hexadecimal string, and
 * the value is a PKCS#7 (RFC 2315) SignedData object that carries the signer's
 * certificate and exactly one signer.
 *
 * Signatures are those of the interactive form's signature fields (AcroForm
 * Fields, through Kids): a signature dictionary reached only from a widget that
 * no field list names, or from the permissions dictionary, is not a form field
 * value and is not judged (veraPDF's 6.1.12 pass files carry such a UR3
 * signature whose ByteRange was never updated).
 */
import { PDFArray, PDFDict, PDFHexString, PDFNumber } from '@cantoo/pdf-lib';
import { bytesOf, name, resolve } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type Rule } from '../rule';
import { inheritedFieldType } from '../../core/form-fields';
import { fieldName, formFields } from './fields';
import { parseSignedData, type SignedDataSummary } from './pkcs7';

export interface SignatureInfo {
  field: PDFDict;
  /** The signature dictionary (the field's V). */
  sig: PDFDict;
  fieldName: string;
  objectNumber: number | undefined;
}

/** Signature fields with a value: one entry per signature dictionary. */
export const signatures = fact('interactive/signatures', (m): SignatureInfo[] => {
  const ctx = m.context;
  const out: SignatureInfo[] = [];
  const seen = new Set<PDFDict>();
  for (const field of formFields(m)) {
    if (inheritedFieldType(field) !== 'Sig') continue;
    const v = field.get(name('V'));
    const sig = resolve(ctx, v);
    if (!(sig instanceof PDFDict) || seen.has(sig)) continue;
    seen.add(sig);
    out.push({ field, sig, fieldName: fieldName(ctx, field), objectNumber: m.objectNumbers.of(sig) });
  }
  return out;
});

const isHexDigit = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
const isWhite = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;

/** Decodes the hexadecimal digits between `<` and `>`; null when anything else stands there. */
function hexBetween(bytes: Uint8Array, from: number, to: number): Uint8Array | null {
  const digits: number[] = [];
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if (isHexDigit(b)) digits.push(b);
    else if (!isWhite(b)) return null;
  }
  if (digits.length % 2) digits.push(0x30);
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(String.fromCharCode(digits[2 * i]!, digits[2 * i + 1]!), 16);
  return out;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Where a revision of the file ends: the end of the file, or just after a
 * `%%EOF` marker (and its end-of-line). A signature covers the file as it was
 * signed; a later incremental update (a DSS added for long-term validation)
 * appends bytes the signature cannot cover, and the standard's "entire file"
 * is read as the signed revision, as veraPDF does.
 */
function isRevisionEnd(bytes: Uint8Array, at: number): boolean {
  if (at === bytes.length) return true;
  if (at < 5 || at > bytes.length) return false;
  let p = at;
  // Skip back over the marker's end-of-line (CR, LF or CR LF).
  if (bytes[p - 1] === 0x0a) p--;
  if (bytes[p - 1] === 0x0d) p--;
  return String.fromCharCode(...bytes.subarray(p - 5, p)) === '%%EOF';
}

/** What is wrong with a signature's ByteRange, or null when it covers the signed file but the Contents value. */
export function byteRangeProblem(m: ValidationModel, s: SignatureInfo): string | null {
  const ctx = m.context;
  const bytes = m.bytes;
  const range = resolve(ctx, s.sig.get(name('ByteRange')));
  if (!(range instanceof PDFArray)) return 'no ByteRange';
  const n = range.asArray().map((x) => resolve(ctx, x));
  if (n.length !== 4 || !n.every((x) => x instanceof PDFNumber && Number.isInteger(x.asNumber()) && x.asNumber() >= 0)) return 'ByteRange is not four non-negative integers';
  const [a, b, c, d] = n.map((x) => (x as PDFNumber).asNumber()) as [number, number, number, number];
  const shown = `ByteRange [${a} ${b} ${c} ${d}]`;
  const contents = resolve(ctx, s.sig.get(name('Contents')));
  if (!(contents instanceof PDFHexString)) return contents === undefined ? 'no Contents' : 'Contents is not a hexadecimal string';
  if (a !== 0) return `${shown} does not start at byte 0`;
  if (!(b < c && c <= bytes.length && bytes[b] === 0x3c && bytes[c - 1] === 0x3e)) return `${shown}: the gap is not exactly the Contents hexadecimal string`;
  const hex = hexBetween(bytes, b + 1, c - 1);
  const value = bytesOf(contents);
  if (!hex || !value || !sameBytes(hex, value)) return `${shown}: the gap is not this signature's Contents value`;
  if (!isRevisionEnd(bytes, c + d)) return `${shown} ends at byte ${c + d}, not at the end of the file (${bytes.length} bytes)`;
  return null;
}

/** The parsed PKCS#7 object of a signature's Contents (memoised per signature dictionary). */
const signedData = fact('interactive/signed-data', (m): Map<PDFDict, SignedDataSummary | null> => {
  const out = new Map<PDFDict, SignedDataSummary | null>();
  for (const s of signatures(m)) out.set(s.sig, parseSignedData(bytesOf(resolve(m.context, s.sig.get(name('Contents')))) ?? new Uint8Array()));
  return out;
});

const sigExample = (s: SignatureInfo, what: string): Example => ({
  ...(s.objectNumber !== undefined ? { objectNumber: s.objectNumber } : {}),
  context: `signature field "${s.fieldName}": ${what}`,
});

/** Signatures whose Contents are a PKCS#7 value (adbe.x509.rsa_sha1 carries a bare PKCS#1 signature, which PDF/A-2 does not allow either). */
const pkcs7 = (m: ValidationModel, s: SignatureInfo) => signedData(m).get(s.sig) ?? null;

export const SIGNATURE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.signatures.byte-range',
    clauses: { 2: '6.4.3', 3: '6.4.3' },
    description: 'The ByteRange of a signature shall cover the entire file, signature dictionary included, except the signature value itself: the Contents entry, written as a hexadecimal string.',
    test: (m) => eachOf(signatures(m), (s) => byteRangeProblem(m, s) === null, (s) => sigExample(s, byteRangeProblem(m, s) ?? '')),
  },
  {
    id: 'pdfa.signatures.signing-certificate',
    clauses: { 2: '6.4.3', 3: '6.4.3' },
    description: "The Contents of a signature shall be a DER-encoded PKCS#7 SignedData object (RFC 2315) that includes the signer's X.509 signing certificate.",
    test: (m) =>
      eachOf(
        signatures(m),
        (s) => pkcs7(m, s)?.signingCertificatePresent === true,
        (s) => sigExample(s, pkcs7(m, s) ? 'the PKCS#7 object does not include the signing certificate' : 'Contents is not a PKCS#7 SignedData object'),
      ),
  },
  {
    id: 'pdfa.signatures.single-signer',
    clauses: { 2: '6.4.3', 3: '6.4.3' },
    description: 'The PKCS#7 object of a signature shall have exactly one signer (one SignerInfo).',
    test: (m) => eachOf(signatures(m), (s) => pkcs7(m, s)?.signerCount === 1, (s) => sigExample(s, `${pkcs7(m, s)?.signerCount ?? 0} SignerInfo structures`)),
  },
];
