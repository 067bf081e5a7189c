/**
 * Action rules (lambdas/engine/validate/interactive/action-rules.ts):
 * alternate presentations and page transitions (PDF/A-2 and -3 6.10), with the
 * catalog's Requirements key (6.11, judged in
 * lambdas/engine/validate/file-structure/document-rules.ts) beside them.
 */
import { describe, expect, it } from 'vitest';
import { PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { pdfaSpec } from '../../../../support/pdf-fixtures';
import { failureOf, page0 } from './annotation-fixtures';

describe('presentations and requirements (PDF/A-2 and -3 6.10, 6.11)', () => {
  it('forbids AlternatePresentations in the name dictionary (6.10)', async () => {
    expect(await failureOf('pdfa.alternate-presentations', pdfaSpec(2, 'B'), '2b')).toBeUndefined();
    const edit = (d: PDFDocument) => d.catalog.set(PDFName.of('Names'), d.context.obj({ AlternatePresentations: d.context.obj({ Names: [] }) }));
    expect(await failureOf('pdfa.alternate-presentations', pdfaSpec(2, 'B'), '2b', edit)).toMatchObject({ clause: '6.10', examples: [{ context: 'name dictionary has AlternatePresentations' }] });
    expect((await failureOf('pdfa.alternate-presentations', pdfaSpec(3, 'B'), '3b', edit))?.clause).toBe('6.10');
  });

  it('forbids PresSteps in page dictionaries (6.10)', async () => {
    const edit = (d: PDFDocument) => page0(d).set(PDFName.of('PresSteps'), d.context.obj({ Type: 'NavNode' }));
    expect(await failureOf('pdfa.page-transitions', pdfaSpec(2, 'B'), '2b')).toBeUndefined();
    expect(await failureOf('pdfa.page-transitions', pdfaSpec(2, 'B'), '2b', edit)).toMatchObject({ clause: '6.10', examples: [{ page: 1, context: 'page has PresSteps' }] });
  });

  it('forbids the Requirements key in the catalog (6.11)', async () => {
    const edit = (d: PDFDocument) => d.catalog.set(PDFName.of('Requirements'), d.context.obj([d.context.obj({ Type: 'Requirement', S: 'EnableJavaScripts' })]));
    expect(await failureOf('pdfa.catalog.requirements', pdfaSpec(2, 'B'), '2b')).toBeUndefined();
    expect(await failureOf('pdfa.catalog.requirements', pdfaSpec(2, 'B'), '2b', edit)).toMatchObject({ clause: '6.11', examples: [{ context: 'catalog has Requirements' }] });
    expect((await failureOf('pdfa.catalog.requirements', pdfaSpec(3, 'B'), '3b', edit))?.clause).toBe('6.11');
  });
});
