/**
 * Syntax rules (lambdas/engine/validate/file-structure/syntax-rules.ts) on
 * files written byte by byte: trailers of linearized files and the PDF/A-4
 * document information dictionary (6.1.3), and cross-reference tables of
 * PDF/A-1 (6.1.4).
 */
import { describe, expect, it } from 'vitest';
import { failureOf, ID_A, ID_B, rawPdf, ruleIds } from './raw-pdf';

describe('trailer (6.1.3)', () => {
  // The first object of a linearized file is its linearization parameter dictionary.
  const linearized = (updateId?: string) =>
    rawPdf({ objects: { 1: '<< /Linearized 1 /L 1000 /O 4 /E 500 /N 1 /T 900 >>', 6: '<< /Type /Catalog /Pages 2 0 R >>' }, root: 6, ...(updateId ? { updateId } : {}) });

  it('PDF/A-1: a linearized file whose first page trailer and last trailer carry different IDs fails', async () => {
    // One trailer only: nothing to compare.
    expect(await ruleIds(linearized(), '1b')).not.toContain('pdfa.trailer.linearized-id');
    const f = await failureOf(linearized(`${ID_B} ${ID_B}`), '1b', 'pdfa.trailer.linearized-id');
    expect(f).toMatchObject({ clause: '6.1.3', examples: [{ context: expect.stringContaining('different IDs') }] });
  });

  it('PDF/A-1: identical IDs in both trailers, or a file that is not linearized, pass', async () => {
    expect(await ruleIds(linearized(`${ID_A} ${ID_A}`), '1b')).not.toContain('pdfa.trailer.linearized-id');
    expect(await ruleIds(rawPdf({ updateId: `${ID_B} ${ID_B}` }), '1b')).not.toContain('pdfa.trailer.linearized-id');
  });

  it('PDF/A-4: the trailer shall not have an Info entry unless the catalog has PieceInfo', async () => {
    const info = { header: '%PDF-2.0', objects: { 6: '<< /ModDate (D:20240101000000Z) >>' }, trailer: '/Info 6 0 R' };
    const f = await failureOf(rawPdf(info), '4', 'pdfa.trailer.info');
    expect(f).toMatchObject({ clause: '6.1.3', examples: [{ context: 'the trailer has an Info entry' }] });
    expect(await ruleIds(rawPdf({ ...info, catalog: '/PieceInfo << >>' }), '4')).not.toContain('pdfa.trailer.info');
    expect(await ruleIds(rawPdf({ header: '%PDF-2.0' }), '4')).not.toContain('pdfa.trailer.info');
    // PDF/A-2 allows an Info dictionary.
    expect(await ruleIds(rawPdf({ ...info, header: '%PDF-1.7' }), '2b')).not.toContain('pdfa.trailer.info');
  });

  it('PDF/A-4: a document information dictionary shall hold only ModDate', async () => {
    const withInfo = (dict: string) => rawPdf({ header: '%PDF-2.0', objects: { 6: dict }, trailer: '/Info 6 0 R', catalog: '/PieceInfo << >>' });
    const f = await failureOf(withInfo('<< /Title (Report) /ModDate (D:20240101000000Z) >>'), '4', 'pdfa.trailer.info-moddate');
    expect(f).toMatchObject({ clause: '6.1.3', examples: [{ context: expect.stringContaining('Title') }] });
    expect(await ruleIds(withInfo('<< /ModDate (D:20240101000000Z) >>'), '4')).not.toContain('pdfa.trailer.info-moddate');
  });
});

describe('cross-reference (PDF/A-1 6.1.4)', () => {
  it('the first object number and the count of a subsection header are separated by one space', async () => {
    const f = await failureOf(rawPdf({ subsectionSeparator: '  ' }), '1b', 'pdfa.xref.subsection-spacing');
    expect(f).toMatchObject({ clause: '6.1.4', examples: [{ context: expect.stringMatching(/^xref at byte \d+$/) }] });
    expect(await ruleIds(rawPdf(), '1b')).not.toContain('pdfa.xref.subsection-spacing');
    // Only PDF/A-1 has this requirement.
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', subsectionSeparator: '  ' }), '2b')).not.toContain('pdfa.xref.subsection-spacing');
  });

  it('cross-reference streams are not allowed in PDF/A-1; PDF/A-2 allows them', async () => {
    const bytes = rawPdf({ xrefStream: true });
    const f = await failureOf(bytes, '1b', 'pdfa.xref.no-streams');
    expect(f).toMatchObject({ clause: '6.1.4', examples: [{ objectNumber: 5, context: 'cross-reference stream' }] });
    expect(await ruleIds(rawPdf(), '1b')).not.toContain('pdfa.xref.no-streams');
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', xrefStream: true }), '2b')).not.toContain('pdfa.xref.no-streams');
  });
});
