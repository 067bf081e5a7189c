/**
 * Page-box, order-context and document-structure checks on PDFs built in code,
 * with the page content given as hand-built inventories (what the interpreter
 * would report), so each check is specified on its own.
 */
import { PDFName, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import type { OrderContext } from '../../../../lambdas/domain/model';
import type { PageInventory } from '../../../../lambdas/engine/core/interpret/types';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { checkBoxes } from '../../../../lambdas/engine/preflight/checks-boxes';
import { checkDocument } from '../../../../lambdas/engine/preflight/checks-document';
import { checkAgainstOrder } from '../../../../lambdas/engine/preflight/checks-against-order';
import { emptyInventory } from '../../../../lambdas/engine/preflight/inventory-page';
import { gatherPdfFacts, type PdfFacts } from '../../../../lambdas/engine/preflight/pdf-facts';
import { buildPdf, MM, mutatePdf, type PageSpec, type PdfSpec } from '../../../support/pdf-fixtures';
import { judge, only, severities } from './judge';

/** A content inventory with something on it, or the parts given. */
const content = (page: number, parts: Partial<PageInventory> = {}): PageInventory => ({ ...emptyInventory(page), empty: false, ...parts });

async function factsOf(bytesOrSpec: Uint8Array | PdfSpec, inventories?: PageInventory[]): Promise<PdfFacts> {
  const bytes = bytesOrSpec instanceof Uint8Array ? bytesOrSpec : await buildPdf(bytesOrSpec);
  const pdf = await openPdfBytes(bytes);
  return gatherPdfFacts(pdf, inventories ?? pdf.doc.getPages().map((_, i) => content(i + 1)));
}

const boxes = (profile: string, facts: PdfFacts) => judge(profile, (s) => checkBoxes(facts.pages, s));
const order = (profile: string, facts: PdfFacts, context: OrderContext) => judge(profile, (s) => checkAgainstOrder(facts.pages, facts.document.pageCount, s), context);
const documentFindings = (profile: string, facts: PdfFacts) => judge(profile, (s) => checkDocument({ document: facts.document, actions: facts.actions, annotations: facts.annotations, pages: facts.pages }, s));

const square = (over: PageSpec): PdfSpec => ({ pages: [{ size: [300, 300], trimBox: [10, 10, 290, 290], bleedBox: [0, 0, 300, 300], ...over }] });

describe('boxes.inconsistent', () => {
  it('is an error in sheetfed when the TrimBox is not inside the BleedBox, and the box fix resolves it', async () => {
    const [f] = only(boxes('gwg-sheetfed-cmyk', await factsOf(square({ bleedBox: [20, 20, 280, 280] }))), 'boxes.inconsistent');
    expect(f).toMatchObject({ severity: 'error', page: 1, bbox: [20, 20, 280, 280], measured: { problem: 'trim-outside-bleed' }, fix: { available: true, fixId: 'boxes.normalize' } });
    expect(f!.message).toBe('The page boxes contradict each other on page 1: the TrimBox is not inside the BleedBox. The printer cannot be sure which area is the finished page.');
  });
  it('reports a CropBox that hides part of the trim', async () => {
    const [f] = only(boxes('default', await factsOf(square({ cropBox: [50, 50, 250, 250] }))), 'boxes.inconsistent');
    expect(f).toMatchObject({ severity: 'warn', measured: { problem: 'trim-outside-crop' }, fix: { available: true } });
  });
  it('reports an ArtBox beyond the bleed area, which the box fix cannot change', async () => {
    const [f] = only(boxes('gwg-sheetfed-cmyk', await factsOf(square({ bleedBox: [5, 5, 295, 295], artBox: [0, 0, 300, 300] }))), 'boxes.inconsistent');
    expect(f).toMatchObject({ measured: { problem: 'art-outside-bleed' }, fix: { available: false, fixId: 'boxes.normalize' } });
  });
  it('accepts an ArtBox that reaches into the bleed, as Illustrator writes it, and consistent boxes', async () => {
    expect(only(boxes('gwg-sheetfed-cmyk', await factsOf(square({ artBox: [5, 5, 295, 295] }))), 'boxes.inconsistent')).toEqual([]);
  });
  it('is off for screen', async () => {
    expect(boxes('screen', await factsOf(square({ bleedBox: [20, 20, 280, 280] })))).toEqual([]);
  });
});

describe('boxes.trimbox-missing per profile', () => {
  it('is an error in sheetfed, a warning by default and in digital print, off for screen', async () => {
    const facts = await factsOf({ pages: 1 });
    expect(severities(boxes('gwg-sheetfed-cmyk', facts))).toEqual([['boxes.trimbox-missing', 'error']]);
    expect(severities(boxes('gwg-digital-print', facts))).toEqual([['boxes.trimbox-missing', 'warn']]);
    expect(severities(boxes('default', facts))).toEqual([['boxes.trimbox-missing', 'warn']]);
    expect(boxes('screen', facts)).toEqual([]);
  });
});

describe('pages.empty', () => {
  it('warns about pages with nothing visible on them, in one finding', async () => {
    const facts = await factsOf(square({}), [{ ...emptyInventory(1) }]);
    const more = await factsOf({ pages: 3 }, [content(1), emptyInventory(2), emptyInventory(3)]);
    expect(only(boxes('default', facts), 'pages.empty')[0]!.message).toBe('Page 1 is empty: nothing visible is printed on it. Remove it unless a blank page is intended.');
    expect(only(boxes('gwg-sheetfed-cmyk', more), 'pages.empty')[0]).toMatchObject({ severity: 'warn', count: 2, pages: [2, 3] });
    expect(only(boxes('gwg-sheetfed-cmyk', more), 'pages.empty')[0]!.message).toMatch(/^2 pages are empty \(pages 2–3\)/);
  });
  it('does not call a page empty when its content could not be read', async () => {
    const unread = { ...emptyInventory(1), limits: [{ page: 1, limit: 'undecodable-content' as const, detail: 'bad stream' }] };
    expect(only(boxes('default', await factsOf(square({}), [unread])), 'pages.empty')).toEqual([]);
  });
});

describe('safety.live-content (context.safety.min_mm)', () => {
  // A4 trim 3 mm inside the sheet: x from 8.5 pt; 5 mm is 14.17 pt.
  const a4 = { pages: [{ size: [595.28 + 17, 841.89 + 17] as [number, number], trimBox: [8.5, 8.5, 603.78, 850.39] as [number, number, number, number], bleedBox: [0, 0, 612.28, 858.89] as [number, number, number, number] }] };
  const live = async (items: PageInventory['liveContent']) => factsOf(a4, [content(1, { liveContent: items })]);

  it('warns about text inside the margin and says how close it is', async () => {
    const facts = await live([{ kind: 'text', bbox: [8.5 + 2 * MM, 400, 200, 412] }]);
    const [f] = order('gwg-sheetfed-cmyk', facts, { safety: { min_mm: 5 } });
    expect(f).toMatchObject({ checkId: 'safety.live-content', severity: 'warn', page: 1, bbox: [8.5 + 2 * MM, 400, 200, 412], measured: { kind: 'text', distance_mm: 2, sides: ['left'] }, required: { min_mm: 5 } });
    expect(f!.message).toBe('Text on page 1 is 2 mm from the trim edge, inside the 5 mm safety margin; the cut may clip it. Keep live content at least 5 mm inside the trim.');
  });
  it('accepts text at the margin or further in, and slug text outside the trim', async () => {
    const facts = await live([
      { kind: 'text', bbox: [8.5 + 5 * MM, 400, 200, 412] },
      { kind: 'text', bbox: [0, 0, 8, 8] },
    ]);
    expect(order('gwg-sheetfed-cmyk', facts, { safety: { min_mm: 5 } })).toEqual([]);
  });
  it('accepts an image that bleeds over the trim, but not one whose edge stops just inside it', async () => {
    const bleeding = await live([{ kind: 'image', bbox: [0, 0, 612.28, 858.89] }]);
    expect(order('gwg-sheetfed-cmyk', bleeding, { safety: { min_mm: 5 } })).toEqual([]);
    const short = await live([{ kind: 'image', bbox: [8.5 + 1 * MM, 0, 612.28, 858.89] }]);
    expect(order('gwg-sheetfed-cmyk', short, { safety: { min_mm: 5 } })[0]).toMatchObject({ measured: { kind: 'image', distance_mm: 1, sides: ['left'] } });
  });
  it('is inactive without the context, and ignored by a profile without the check', async () => {
    const facts = await live([{ kind: 'text', bbox: [9, 400, 200, 412] }]);
    expect(judge('gwg-sheetfed-cmyk', (s) => checkAgainstOrder(facts.pages, 1, s))).toEqual([]);
    expect(order('screen', facts, { safety: { min_mm: 5 } })).toEqual([]);
  });
});

/** Adds an annotation dictionary to page 1. */
const withAnnotation = (fields: Record<string, unknown>) => async (doc: PDFDocument) => {
  const ctx = doc.context;
  const ap = ctx.register(ctx.stream('0 0 1 rg 0 0 10 10 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }));
  const annot = ctx.register(ctx.obj({ Type: 'Annot', Rect: [100, 100, 200, 150], AP: ctx.obj({ N: ap }), ...fields } as never));
  doc.getPage(0).node.set(PDFName.of('Annots'), ctx.obj([annot]));
};

describe('annotations.in-trim', () => {
  const base = () => buildPdf({ pages: [{ trimBox: [10, 10, 585, 831] }] });
  it('warns about an annotation set to print on the finished page', async () => {
    const facts = await factsOf(await mutatePdf(await base(), withAnnotation({ Subtype: 'Stamp', F: 4 })));
    const [f] = only(documentFindings('gwg-sheetfed-cmyk', facts), 'annotations.in-trim');
    expect(f).toMatchObject({ severity: 'warn', page: 1, bbox: [100, 100, 200, 150] });
    expect(f!.message).toBe('An annotation (Stamp) on page 1 is set to print and lies on the finished page; it would print on top of the artwork. Remove it, or flatten it if meant to print.');
    expect(facts.document.annotations).toBe(1);
  });
  it('ignores annotations that do not print, links, and annotations outside the trim', async () => {
    for (const fields of [{ Subtype: 'Stamp' }, { Subtype: 'Stamp', F: 6 }, { Subtype: 'Link', F: 4 }, { Subtype: 'Stamp', F: 4, Rect: [0, 0, 5, 5] }]) {
      const facts = await factsOf(await mutatePdf(await base(), withAnnotation(fields)));
      expect(only(documentFindings('gwg-sheetfed-cmyk', facts), 'annotations.in-trim')).toEqual([]);
    }
  });
});

describe('document structure', () => {
  it('document.forms counts the fields that hold values', async () => {
    const bytes = await mutatePdf(await buildPdf(), (doc) => {
      const ctx = doc.context;
      const widget = (n: number) => ctx.obj({ Type: 'Annot', Subtype: 'Widget', Rect: [n, n, n + 10, n + 10] });
      const name = ctx.obj({ FT: 'Tx', T: PDFString.of('name'), Kids: [ctx.register(widget(1)), ctx.register(widget(20))] });
      const address = ctx.obj({ T: PDFString.of('address'), Kids: [ctx.register(ctx.obj({ FT: 'Tx', T: PDFString.of('street') })), ctx.register(ctx.obj({ FT: 'Tx', T: PDFString.of('city') }))] });
      doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [ctx.register(name), ctx.register(address)] }));
    });
    const facts = await factsOf(bytes);
    expect(facts.document.formFields).toBe(3);
    const [f] = only(documentFindings('gwg-sheetfed-cmyk', facts), 'document.forms');
    expect(f).toMatchObject({ severity: 'warn', page: null, measured: { fields: 3 } });
    expect(f!.message).toBe('The PDF has 3 interactive form fields; what a field shows may print differently or not at all unless the form is flattened before sending it.');
    expect(only(documentFindings('screen', facts), 'document.forms')).toEqual([]);
  });

  it('document.layers lists the layers and names those hidden by default', async () => {
    const bytes = await mutatePdf(await buildPdf(), (doc) => {
      const ctx = doc.context;
      const art = ctx.register(ctx.obj({ Type: 'OCG', Name: PDFString.of('Artwork') }));
      const die = ctx.register(ctx.obj({ Type: 'OCG', Name: PDFString.of('Die line') }));
      doc.catalog.set(PDFName.of('OCProperties'), ctx.obj({ OCGs: [art, die], D: ctx.obj({ OFF: [die] }) }));
    });
    const facts = await factsOf(bytes);
    expect(facts.document.layers).toEqual([{ name: 'Artwork', visibleByDefault: true }, { name: 'Die line', visibleByDefault: false }]);
    const [f] = only(documentFindings('default', facts), 'document.layers');
    expect(f!.severity).toBe('info');
    expect(f!.message).toBe('The PDF has 2 layers, 1 hidden by default (“Die line”); only the layers visible by default will print. Check that exactly the intended layers are visible, or flatten them.');
  });

  it('document.embedded-files names the attachments: a warning in sheetfed, information by default', async () => {
    const facts = await factsOf({ embeddedFile: { name: 'data.csv', bytes: new TextEncoder().encode('a,b\n1,2\n'), mimeType: 'text/csv' } });
    expect(facts.document.embeddedFiles).toEqual([{ name: 'data.csv', mimeType: 'text/csv', sizeBytes: 8, page: null }]);
    expect(severities(only(documentFindings('gwg-sheetfed-cmyk', facts), 'document.embedded-files'))).toEqual([['document.embedded-files', 'warn']]);
    const [f] = only(documentFindings('default', facts), 'document.embedded-files');
    expect(f).toMatchObject({ severity: 'info' });
    expect(f!.message).toBe('The PDF carries 1 embedded file (“data.csv”); attachments do not print and some print workflows refuse them. Remove them before sending the file.');
  });

  describe('document.output-intent', () => {
    it('flags a PDF/X claim without a PDF/X output intent in every print profile', async () => {
      const facts = await factsOf({ pdfx: 'PDF/X-4' });
      const [f] = only(documentFindings('default', facts), 'document.output-intent');
      expect(f).toMatchObject({ severity: 'warn', measured: { pdfx: 'PDF/X-4', outputIntents: [] } });
      expect(f!.message).toBe('The PDF claims PDF/X-4 but has no PDF/X output intent, so the printing condition it was made for is unknown and the claim is invalid. Export it again as PDF/X.');
    });
    it('requires a PDF/X output intent in the GWG profiles only', async () => {
      const plain = await factsOf({});
      expect(only(documentFindings('gwg-sheetfed-cmyk', plain), 'document.output-intent')[0]!.message).toMatch(/^The PDF has no PDF\/X output intent/);
      expect(only(documentFindings('default', plain), 'document.output-intent')).toEqual([]);
      expect(only(documentFindings('gwg-sheetfed-cmyk', await factsOf({ pdfx: 'PDF/X-4', outputIntent: 'pdfx-srgb' })), 'document.output-intent')).toEqual([]);
    });
  });

  it('document.repaired warns that a damaged file was read by repairing it, and says what was repaired', async () => {
    const text = Buffer.from(await buildPdf({ pages: 2 })).toString('latin1');
    // Every cross-reference offset 7 bytes off: the table is rebuilt from the objects.
    const shifted = Buffer.from(text.replace(/^(\d{10}) 00000 n/gm, (_, off: string) => `${String(Number(off) + 7).padStart(10, '0')} 00000 n`), 'latin1');
    const facts = await factsOf(new Uint8Array(shifted));
    expect(facts.document.repairs).toEqual(["The cross-reference table was damaged and was rebuilt by reading the file's objects."]);
    const [f] = only(documentFindings('default', facts), 'document.repaired');
    expect(f).toMatchObject({ severity: 'warn', count: 1 });
    expect(f!.message).toBe(
      "The PDF's internal structure is damaged and had to be repaired to read it (the cross-reference table was damaged and was rebuilt by reading the file's objects); other programs may read it differently or refuse it. Export it again from the application that made it.",
    );
    expect(only(documentFindings('default', await factsOf({ pages: 2 })), 'document.repaired')).toEqual([]);
  });

  it('document.analysis-incomplete says which pages could not be analysed and why', async () => {
    const facts = await factsOf({ pages: 3 }, [content(1), content(2, { limits: [{ page: 2, limit: 'operations', detail: 'over 5000000 operations' }] })]);
    const [f] = only(documentFindings('default', facts), 'document.analysis-incomplete');
    expect(f).toMatchObject({ severity: 'warn', pages: [2, 3], count: 2 });
    expect(f!.message).toBe(
      'The content of pages 2–3 could not be analysed completely (it has more drawing operations than preflight analyses and part of its content could not be decoded); problems there may be missing from this report.',
    );
    expect(facts.document.analysisLimits).toEqual([
      { page: 2, limit: 'operations', detail: 'over 5000000 operations' },
      { page: 3, limit: 'undecodable-content', detail: 'not analysed' },
    ]);
  });
});
