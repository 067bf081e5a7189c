/**
 * Document-level rules (lambdas/engine/validate/file-structure/document-rules.ts):
 * the DocMDP signature references of PDF/A-2/3 (6.1.12), on files written byte
 * by byte.
 */
import { describe, expect, it } from 'vitest';
import { failureOf, rawPdf, ruleIds } from './raw-pdf';

describe('DocMDP signatures (PDF/A-2/3 6.1.12)', () => {
  const docMdp = (reference: string) =>
    rawPdf({
      header: '%PDF-1.7',
      catalog: '/Perms << /DocMDP 6 0 R >>',
      objects: { 6: `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Contents <00> /ByteRange [0 0 0 0] /Reference [${reference}] >>` },
    });

  it('a signature reference dictionary shall not carry DigestLocation, DigestMethod or DigestValue', async () => {
    const bytes = docMdp('<< /Type /SigRef /TransformMethod /DocMDP /DigestMethod /MD5 /DigestValue <0011> /DigestLocation [0 0] >>');
    const f = await failureOf(bytes, '2b', 'pdfa.perms.docmdp-digest');
    expect(f).toMatchObject({ clause: '6.1.12', examples: [{ objectNumber: 6, context: 'signature reference has digest entries' }] });
    expect(await ruleIds(bytes, '3b')).toContain('pdfa.perms.docmdp-digest');
  });

  it('a reference without digest entries passes, as does a file without DocMDP', async () => {
    expect(await ruleIds(docMdp('<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /P 1 /V /1.2 >> >>'), '2b')).not.toContain('pdfa.perms.docmdp-digest');
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7' }), '2b')).not.toContain('pdfa.perms.docmdp-digest');
  });
});
