/**
 * Signature rules (lambdas/engine/validate/interactive/signature-rules.ts):
 * digital signatures of PDF/A-2 and -3 (6.4.3), on a file signed here with a
 * PKCS#7 object built byte by byte.
 */
import { describe, expect, it } from 'vitest';
import { PDFHexString, PDFName, PDFString } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { buildPdf, mutatePdf, patchBytes, pdfaSpec } from '../../../../support/pdf-fixtures';
import { addAnnotWithTabs as addAnnot, failuresOfBytes, text } from './annotation-fixtures';

// ---------------------------------------------------------------------------
// DER building blocks for a PKCS#7 SignedData object (RFC 2315).
const der = (tag: number, ...content: number[][]): number[] => {
  const body = content.flat();
  const len = body.length < 128 ? [body.length] : body.length < 256 ? [0x81, body.length] : [0x82, body.length >> 8, body.length & 0xff];
  return [tag, ...len, ...body];
};
const SEQ = (...c: number[][]) => der(0x30, ...c);
const SET = (...c: number[][]) => der(0x31, ...c);
const INT = (...v: number[]) => der(0x02, v);
const OID_SIGNED_DATA = der(0x06, [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]);
const OID_DATA = der(0x06, [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]);
const ISSUER = SEQ(SET(SEQ(der(0x06, [0x55, 0x04, 0x03]), der(0x0c, [...Buffer.from('Test CA')]))));
/** A certificate skeleton: tbsCertificate with version, serial, algorithm and issuer. */
const certificate = (serial: number) => SEQ(SEQ(der(0xa0, INT(2)), INT(serial), SEQ(), ISSUER));
const signerInfo = (serial: number) => SEQ(INT(1), SEQ(ISSUER, INT(serial)));
function signedData(opts: { certSerials?: number[]; signerSerials?: number[] } = {}): Uint8Array {
  const certs = opts.certSerials ?? [7];
  const signers = opts.signerSerials ?? [7];
  const sd = SEQ(INT(1), SET(), SEQ(OID_DATA), ...(certs.length ? [der(0xa0, ...certs.map(certificate))] : []), SET(...signers.map(signerInfo)));
  const bytes = Uint8Array.from(SEQ(OID_SIGNED_DATA, der(0xa0, sd)));
  // Signing tools reserve room: the value is padded with zeros.
  const padded = new Uint8Array(bytes.length + 64);
  padded.set(bytes);
  return padded;
}
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

/**
 * A PDF/A-2b file with one signature field whose signature covers the file as
 * saved: ByteRange [0 b c len-c] around the Contents hexadecimal string.
 * `contents` replaces the PKCS#7 value; `rangeEnd` shifts the end of the range.
 */
async function signedPdf(opts: { contents?: Uint8Array; literalContents?: boolean; rangeEndShift?: number } = {}): Promise<Uint8Array> {
  const value = opts.contents ?? signedData();
  const bytes = await mutatePdf(await buildPdf(pdfaSpec(2, 'B')), (d) => {
    const ctx = d.context;
    const sig = ctx.register(
      ctx.obj({
        Type: 'Sig',
        Filter: 'Adobe.PPKLite',
        SubFilter: 'adbe.pkcs7.detached',
        ByteRange: [1111111111, 2222222222, 3333333333, 4444444444],
        Contents: opts.literalContents ? PDFString.of(Buffer.from(value).toString('latin1')) : PDFHexString.of(hex(value)),
      } as never),
    );
    const widget = addAnnot(d, { Subtype: 'Widget', FT: 'Sig', T: text('Signature1'), V: sig, Rect: [0, 0, 0, 0], AP: undefined, P: d.getPage(0).ref });
    d.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [widget.ref], SigFlags: 3 }));
  });
  const buf = Buffer.from(bytes);
  const marker = opts.literalContents ? '/Contents (' : `<${hex(value)}>`;
  const at = buf.indexOf(marker, 0, 'latin1');
  const b = opts.literalContents ? at + '/Contents '.length : at;
  const c = opts.literalContents ? b + 10 : b + marker.length;
  const pad = (n: number) => String(n).padStart(10, '0');
  let out: Uint8Array = patchBytes(buf, '1111111111', pad(0));
  out = patchBytes(out, '2222222222', pad(b));
  out = patchBytes(out, '3333333333', pad(c));
  return patchBytes(out, '4444444444', pad(buf.length - c + (opts.rangeEndShift ?? 0)));
}

const sigFailure = async (ruleId: string, bytes: Uint8Array, profile: ValidateProfileCode = '2b') => (await failuresOfBytes(bytes, profile)).find((f) => f.ruleId === ruleId);

describe('digital signatures (PDF/A-2 and -3 6.4.3)', () => {
  it('requires the ByteRange to cover the whole file except the Contents hexadecimal string', async () => {
    expect(await sigFailure('pdfa.signatures.byte-range', await signedPdf())).toBeUndefined();
    expect(await sigFailure('pdfa.signatures.byte-range', await signedPdf(), '3b')).toBeUndefined();
    const short = await sigFailure('pdfa.signatures.byte-range', await signedPdf({ rangeEndShift: -10 }));
    expect(short).toMatchObject({ clause: '6.4.3', occurrences: 1, examples: [{ objectNumber: expect.any(Number), context: expect.stringMatching(/^signature field "Signature1": ByteRange \[0 \d+ \d+ \d+\] ends at byte \d+, not at the end of the file/) }] });
    const literal = await sigFailure('pdfa.signatures.byte-range', await signedPdf({ literalContents: true }));
    expect(literal?.examples[0]?.context).toBe('signature field "Signature1": Contents is not a hexadecimal string');
  });

  it('accepts a range that ends at an earlier revision: bytes appended by a later incremental update', async () => {
    const signed = await signedPdf();
    const update = Buffer.from('\n% an incremental update would follow here\n');
    expect(await sigFailure('pdfa.signatures.byte-range', Buffer.concat([signed, update]))).toBeUndefined();
  });

  it("requires the PKCS#7 object to include the signer's certificate", async () => {
    expect(await sigFailure('pdfa.signatures.signing-certificate', await signedPdf())).toBeUndefined();
    const noCerts = await sigFailure('pdfa.signatures.signing-certificate', await signedPdf({ contents: signedData({ certSerials: [] }) }));
    expect(noCerts).toMatchObject({ clause: '6.4.3', occurrences: 1, examples: [{ context: 'signature field "Signature1": the PKCS#7 object does not include the signing certificate' }] });
    // A certificate is there, but not the one the signer names.
    const otherCert = await sigFailure('pdfa.signatures.signing-certificate', await signedPdf({ contents: signedData({ certSerials: [8] }) }));
    expect(otherCert?.clause).toBe('6.4.3');
    const notPkcs7 = await sigFailure('pdfa.signatures.signing-certificate', await signedPdf({ contents: Uint8Array.from([1, 2, 3, 4]) }));
    expect(notPkcs7?.examples[0]?.context).toBe('signature field "Signature1": Contents is not a PKCS#7 SignedData object');
  });

  it('requires exactly one signer', async () => {
    expect(await sigFailure('pdfa.signatures.single-signer', await signedPdf())).toBeUndefined();
    const two = await sigFailure('pdfa.signatures.single-signer', await signedPdf({ contents: signedData({ certSerials: [7, 9], signerSerials: [7, 9] }) }));
    expect(two).toMatchObject({ clause: '6.4.3', occurrences: 1, examples: [{ context: 'signature field "Signature1": 2 SignerInfo structures' }] });
  });
});
