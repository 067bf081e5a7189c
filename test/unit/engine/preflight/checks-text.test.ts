import { PDFDict, PDFDocument } from '@cantoo/pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkText, type FontFacts } from '../../../../lambdas/engine/preflight/checks-text';
import type { InventoryPage } from '../../../../lambdas/engine/preflight/inventory-page';
import { inventoryPage, paint, paints, spaces, stroke, text } from './inventory-builders';
import { judge, only, severities } from './judge';

const check = (profile: string, pages: InventoryPage[], fonts: FontFacts[] = []) => judge(profile, (s) => checkText(pages, fonts, s));
const withText = (...groups: Parameters<typeof text>[0][]) => [inventoryPage(1, { text: groups.map(text) })];

function font(over: Partial<FontFacts>): FontFacts {
  return { name: 'Helvetica', type: 'Type1', embedded: false, subset: false, objectNumber: 7, pages: [1], usedOnPages: [1], minSizePt: 10, maxSizePt: 10, visible: true, dict: null, ...over };
}

describe('font checks', () => {
  let dict: PDFDict;
  beforeAll(async () => {
    dict = (await PDFDocument.create()).context.obj({ Type: 'Font' }) as PDFDict;
  });

  it('fonts.not-embedded: an error per font naming its pages, pointing at its first text on each page', () => {
    const pages = [inventoryPage(1, { text: [text({ sizePt: 10, font: dict, bbox: [1, 2, 3, 4] })] }), inventoryPage(2)];
    const [f] = check('gwg-sheetfed-cmyk', pages, [font({ dict, usedOnPages: [1, 2] })]);
    expect(f).toMatchObject({ checkId: 'fonts.not-embedded', severity: 'error', pages: [1, 2], count: 2, bbox: [1, 2, 3, 4] });
    expect(f!.message).toBe(
      'The font Helvetica (Type1) is not embedded (used on pages 1–2); the printer would substitute another font and the text would look different. Embed all fonts when exporting the PDF.',
    );
  });
  it('fonts.not-embedded is silent for embedded fonts and for fonts only used for invisible text', () => {
    expect(check('default', [], [font({ embedded: true }), font({ visible: false })])).toEqual([]);
  });
  it('fonts.not-embedded is a warning for screen', () => {
    expect(severities(check('screen', [], [font({})]))).toEqual([['fonts.not-embedded', 'warn']]);
  });
  it('fonts.type3 is information', () => {
    const [f] = check('default', [], [font({ name: 'T3Font_0', type: 'Type3', embedded: true })]);
    expect(f).toMatchObject({ checkId: 'fonts.type3', severity: 'info' });
    expect(f!.message).toMatch(/^The Type 3 font T3Font_0 is used on page 1;/);
  });
});

describe('text.small', () => {
  const red = paints.red; // magenta + yellow: two inks

  it('flags multi-ink text below 8 pt in sheetfed and stays silent at 8 pt', () => {
    const [f] = check('gwg-sheetfed-cmyk', withText({ sizePt: 7.9, fill: red(), fontName: 'Minion' }));
    expect(f).toMatchObject({ checkId: 'text.small', severity: 'warn', measured: { size_pt: 7.9, colorants: 2, white: false }, required: { min_size_pt: 8 } });
    expect(f!.message).toBe(
      'Text smaller than 8 pt is printed with several inks or in white on page 1 (smallest: 7.9 pt with 2 inks, font Minion, page 1); slight misregistration will make it look blurred or fringed. Use a single ink, such as 100 % black, for small text.',
    );
    expect(check('gwg-sheetfed-cmyk', withText({ sizePt: 8, fill: red() }))).toEqual([]);
  });
  it('flags white (knocked-out) small text', () => {
    expect(only(check('gwg-sheetfed-cmyk', withText({ sizePt: 6, fill: paints.white() })), 'text.small')[0]!.message).toContain('6 pt in white');
  });
  it('leaves single-ink small text alone', () => {
    expect(check('gwg-sheetfed-cmyk', withText({ sizePt: 5, fill: paints.black() }), [])).toEqual([]);
    expect(check('gwg-sheetfed-cmyk', withText({ sizePt: 5, fill: paint(spaces.separation('Gold'), { spots: { Gold: 1 } }) }))).toEqual([]);
  });
  it('counts RGB as several inks, since it separates into them', () => {
    expect(only(check('gwg-sheetfed-cmyk', withText({ sizePt: 6, fill: paints.rgbBlack() })), 'text.small')[0]!.measured).toMatchObject({ colorants: 3 });
  });
  it('uses each printing condition\'s size: 9 pt web, 10 pt newspaper, 6 pt digital', () => {
    expect(only(check('gwg-web-cmyk', withText({ sizePt: 8.9, fill: red() })), 'text.small')).toHaveLength(1);
    expect(check('gwg-web-cmyk', withText({ sizePt: 9, fill: red() }))).toEqual([]);
    expect(only(check('gwg-newspaper', withText({ sizePt: 9.9, fill: red() })), 'text.small')).toHaveLength(1);
    expect(check('gwg-newspaper', withText({ sizePt: 10, fill: red() }))).toEqual([]);
    expect(check('gwg-digital-print', withText({ sizePt: 6, fill: red() }))).toEqual([]);
  });
  it('ignores invisible text and judges stroked text by its stroke', () => {
    expect(check('gwg-sheetfed-cmyk', withText({ sizePt: 5, painting: 'invisible', fill: red() }))).toEqual([]);
    expect(only(check('gwg-sheetfed-cmyk', withText({ sizePt: 5, painting: 'stroke', fill: paints.black(), stroke: red() })), 'text.small')).toHaveLength(1);
  });
  it('groups many small texts into one finding that names the smallest', () => {
    const pages = [1, 2, 3].map((n) => inventoryPage(n, { text: [text({ page: n, sizePt: 8 - n, fill: red(), bbox: [n, n, n, n] })] }));
    const [f] = check('gwg-sheetfed-cmyk', pages);
    expect(f).toMatchObject({ count: 3, pages: [1, 2, 3], bbox: [3, 3, 3, 3], measured: { size_pt: 5 } });
    expect(f!.message).toContain('in 3 places on pages 1–3 (smallest: 5 pt with 2 inks, font Helvetica, page 3)');
  });
  it('is off for screen', () => {
    expect(check('screen', withText({ sizePt: 4, fill: red() }))).toEqual([]);
  });
});

describe('text.rich-black', () => {
  it('flags rich-black text below 12 pt instead of repeating it as small text', () => {
    const found = check('gwg-sheetfed-cmyk', withText({ sizePt: 7, fill: paints.richBlack() }), []);
    expect(severities(found)).toEqual([['text.rich-black', 'warn']]);
    expect(found[0]!.message).toBe(
      'Black text smaller than 12 pt is built from several inks (rich black) on page 1 (smallest: 7 pt, font Helvetica, page 1); slight misregistration gives it coloured fringes. Use 100 % black (K only) for small text.',
    );
  });
  it('leaves rich black at 12 pt and above alone', () => {
    expect(check('gwg-sheetfed-cmyk', withText({ sizePt: 12, fill: paints.richBlack() }))).toEqual([]);
  });
});

describe('lines.thin', () => {
  const lines = (...widths: number[]) => [inventoryPage(1, { strokes: widths.map((w) => stroke({ widthPt: w, count: 2 })) })];
  it('warns below 0.25 pt and is silent at 0.25 pt', () => {
    const [f] = check('gwg-sheetfed-cmyk', lines(0.24));
    expect(f).toMatchObject({ checkId: 'lines.thin', severity: 'warn', measured: { width_pt: 0.24, lines: 2 }, required: { min_width_pt: 0.25 } });
    expect(f!.message).toBe('2 lines thinner than 0.25 pt are drawn on page 1 (thinnest 0.24 pt, page 1); they may break up or disappear in print. Make lines at least 0.25 pt wide.');
    expect(check('gwg-sheetfed-cmyk', lines(0.25, 1))).toEqual([]);
  });
  it('names a zero-width line as a hairline', () => {
    const page = [inventoryPage(1, { strokes: [stroke({ widthPt: 0 })] })];
    expect(check('default', page)[0]!.message).toBe(
      'A line on page 1 is 0 pt (a hairline: the thinnest line the output device can draw) wide, thinner than 0.25 pt; it may break up or disappear in print. Make lines at least 0.25 pt wide.',
    );
  });
  it('is off for screen', () => {
    expect(check('screen', lines(0.01))).toEqual([]);
  });
});
