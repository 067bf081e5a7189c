import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFInvalidObject, PDFRef } from '@cantoo/pdf-lib';
import { dropUnreferencedObjects } from '../../../../lambdas/engine/autofix/unreferenced';

/** A PDF written by hand: object 4 has a stray string where a key belongs, which pdf-lib keeps unparsed. */
function handMadePdf(): Uint8Array {
  const objects = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 200 50] >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >> endobj',
    '4 0 obj << /Type /Font /Subtype /Type0 /BaseFont /Arial (MS) /DescendantFonts [5 0 R] >> endobj',
    '5 0 obj << /Type /Font /Subtype /CIDFontType2 /BaseFont /Arial >> endobj',
    '6 0 obj << /Length 0 >> stream\n\nendstream endobj',
    '7 0 obj << /Orphan true >> endobj',
  ];
  return new TextEncoder().encode(`%PDF-1.7\n${objects.join('\n')}\ntrailer << /Root 1 0 R /Size 8 >>\n%%EOF\n`);
}

describe('dropping objects nothing refers to', () => {
  it('drops an orphan, and keeps what an unparsed object refers to in its bytes', async () => {
    const doc = await PDFDocument.load(handMadePdf(), { updateMetadata: false });
    expect(doc.context.lookup(PDFRef.of(4, 0))).toBeInstanceOf(PDFInvalidObject);
    expect(dropUnreferencedObjects(doc)).toBe(1);
    expect(doc.context.lookup(PDFRef.of(7, 0))).toBeUndefined();
    // The descendant font is named only inside the unparsed dictionary's bytes.
    expect(doc.context.lookup(PDFRef.of(5, 0))).toBeDefined();
    expect(doc.context.largestObjectNumber).toBe(6);
  });
});
