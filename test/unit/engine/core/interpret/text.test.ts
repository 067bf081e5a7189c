import { describe, expect, it } from 'vitest';
import { standardFont, trueTypeFont, type0Font, type3Font } from '../../../../support/content-fixtures';
import { interpretOne, rounded } from './support';

const helvetica = () => standardFont('Helvetica');
// Helvetica advance widths (1/1000 em): H 722, e 556, l 222, o 556, space 278; ascender 718, descender -207.

describe('text: fonts, sizes and boxes', () => {
  it('reports the effective size: Tf size × the vertical scale of Tm × CTM', async () => {
    const page = await interpretOne({
      content: [
        'BT /F1 12 Tf 2 0 0 2 72 700 Tm (Hello) Tj ET',
        'q 0.5 0 0 0.5 0 0 cm BT /F1 12 Tf 72 700 Td (Hello) Tj ET Q',
        'BT /F1 12 Tf 0 1 -1 0 300 300 Tm (Hello) Tj ET',
      ].join('\n'),
      resources: { fonts: { F1: helvetica() } },
    });
    expect(page.fonts).toHaveLength(1);
    expect(page.fonts[0]).toMatchObject({ minSizePt: 6, maxSizePt: 24, glyphs: 15, visible: true, objectNumber: expect.any(Number) });
    expect(page.text.map((t) => t.sizePt).sort((a, b) => a - b)).toEqual([6, 12, 24]);
    expect(page.text.every((t) => t.fontName === 'Helvetica' && t.painting === 'fill')).toBe(true);
  });

  it('applies UserUnit to text sizes', async () => {
    const page = await interpretOne({ userUnit: 2, content: 'BT /F1 7 Tf 10 10 Td (Hi) Tj ET', resources: { fonts: { F1: helvetica() } } });
    expect(page.fonts[0]!.maxSizePt).toBe(14);
  });

  it('advances by the font widths and TJ adjustments, so the text box is where the text is', async () => {
    const page = await interpretOne({ content: 'BT /F1 10 Tf 100 200 Td [(Hel) -1000 (lo)] TJ (o) Tj ET', resources: { fonts: { F1: helvetica() } } });
    const group = page.text[0]!;
    expect(group.count).toBe(2);
    expect(rounded(group.bbox)).toEqual([100, 197.93, 132.78, 207.18]);
    // The second run starts where the first ended.
    expect(rounded(group.union)).toEqual([100, 197.93, 138.34, 207.18]);
  });

  it('adds character spacing, word spacing (on code 32) and horizontal scaling', async () => {
    const page = await interpretOne({ content: 'BT /F1 10 Tf 2 Tc 5 Tw 50 Tz 0 0 Td (l l) Tj ET', resources: { fonts: { F1: helvetica() } } });
    expect(rounded(page.text[0]!.bbox)[2]).toBe(9.11);
  });

  it('uses the standard 14 metrics for a standard font written without Widths', async () => {
    const page = await interpretOne({ content: 'BT /F1 10 Tf 0 0 Td (Hello) Tj ET', resources: { fonts: { F1: standardFont('Helvetica', { withoutWidths: true }) } } });
    expect(rounded(page.text[0]!.bbox)[2]).toBe(22.78);
  });

  it('reads two-byte codes of an Identity-H Type0 font and advances by W and DW', async () => {
    const page = await interpretOne({
      content: 'BT /F0 10 Tf 0 0 Td <00010002000B0063> Tj ET',
      resources: { fonts: { F0: type0Font({ w: [1, [500, 600], 10, 12, 700], dw: 1000 }) } },
    });
    expect(page.fonts[0]!.glyphs).toBe(4);
    expect(rounded(page.text[0]!.bbox)[2]).toBe(28);
  });

  it('splits codes by the codespace ranges of an embedded CMap and maps them to CIDs', async () => {
    const cmap = [
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
      '1 begincodespacerange <00> <7F> <8000> <FFFF> endcodespacerange',
      '1 begincidrange <20> <7F> 1 endcidrange',
      'endcmap CMapName currentdict /CMap defineresource pop end end',
    ].join('\n');
    const page = await interpretOne({
      content: 'BT /F0 10 Tf 0 0 Td <418001> Tj ET',
      resources: { fonts: { F0: type0Font({ encoding: { cmap }, w: [34, [250]], dw: 1000 }) } },
    });
    expect(page.fonts[0]!.glyphs).toBe(2);
    expect(rounded(page.text[0]!.bbox)[2]).toBe(12.5);
  });

  it('places Type 3 text with the FontMatrix and reports its size in a 1000-unit em', async () => {
    const font = type3Font({ fontMatrix: [0.01, 0, 0, 0.01, 0, 0], fontBBox: [0, 0, 100, 100], glyphs: { a: { code: 97, width: 60, content: '60 0 0 0 60 100 d1 0 0 60 100 re f' } } });
    const page = await interpretOne({ content: 'BT /T 1 Tf 10 10 Td (aa) Tj ET', resources: { fonts: { T: font } } });
    expect(page.fonts[0]!.maxSizePt).toBe(10);
    expect(rounded(page.text[0]!.bbox)).toEqual([10, 10, 11.2, 11]);
    // The glyph's own paths are the text, not separate vector objects.
    expect(page.colours.map((c) => c.kind)).toEqual(['text']);
  });

  it('with everyGlyph, runs every glyph procedure of a Type 3 font in use once per page, shown or not, without ink', async () => {
    const font = type3Font({
      fontMatrix: [0.01, 0, 0, 0.01, 0, 0],
      fontBBox: [0, 0, 100, 100],
      glyphs: { a: { code: 97, width: 60, content: '60 0 d0' }, b: { code: 98, width: 60, content: '60 0 d0 0 0 60 100 re f' } },
    });
    const seen: string[] = [];
    const observer = { operation: (_at: unknown, op: { op: string }) => void seen.push(op.op) };
    const spec = { content: 'BT /T 1 Tf 10 10 Td (aa) Tj ET', resources: { fonts: { T: font } } };
    const page = await interpretOne(spec, { observer: observer as never, everyGlyph: true });
    expect(seen.filter((op) => op === 'f')).toHaveLength(1);
    // Only the text shown puts down ink; glyph b's path is not a paint of the page.
    expect(page.colours.map((c) => c.kind)).toEqual(['text']);
    seen.length = 0;
    await interpretOne(spec, { observer: observer as never });
    expect(seen).not.toContain('f');
  });

  it('takes the font and size from an ExtGState /Font entry', async () => {
    const page = await interpretOne({ content: 'BT /GS1 gs 0 0 Td (Hi) Tj ET', resources: { extGStates: { GS1: { Font: [helvetica(), 14] } } } });
    expect(page.fonts[0]!.maxSizePt).toBe(14);
  });

  it('records invisible text (mode 3) as a font use that paints nothing', async () => {
    const page = await interpretOne({ content: 'BT 3 Tr /F1 10 Tf 0 0 Td (ocr layer) Tj ET', resources: { fonts: { F1: trueTypeFont({ embedded: true }) } } });
    expect(page.fonts[0]).toMatchObject({ visible: false, glyphs: 9 });
    expect(page.text[0]).toMatchObject({ painting: 'invisible' });
    expect(page.liveContent).toEqual([]);
    expect(page.empty).toBe(true);
  });

  it('tells fill, stroke and fill-and-stroke text apart, each with its own paint', async () => {
    const page = await interpretOne({
      content: 'BT /F1 10 Tf 1 0 0 rg 0 0 1 RG 0 0 Td (a) Tj 1 Tr (b) Tj 2 Tr (c) Tj 7 Tr (d) Tj ET',
      resources: { fonts: { F1: helvetica() } },
    });
    const byPainting = Object.fromEntries(page.text.map((t) => [t.painting, t]));
    expect(Object.keys(byPainting).sort()).toEqual(['clip', 'fill', 'fill-stroke', 'stroke']);
    expect(byPainting['fill']!.stroke).toBeNull();
    expect(byPainting['stroke']!.fill).toBeNull();
    expect(byPainting['fill-stroke']!.fill).not.toBeNull();
    expect(byPainting['fill-stroke']!.stroke).not.toBeNull();
    expect(page.fonts[0]!.visible).toBe(true);
  });

  it('groups runs by font, size, painting and paint, keeping the first box and the union', async () => {
    const page = await interpretOne({
      content: 'BT /F1 10 Tf 0 g 0 700 Td (one) Tj 0 -20 Td (two) Tj 1 0 0 rg (red) Tj ET',
      resources: { fonts: { F1: helvetica() } },
    });
    expect(page.text.map((t) => t.count)).toEqual([2, 1]);
    expect(page.text[0]!.union[1]).toBeLessThan(page.text[0]!.bbox[1]);
  });

  it('counts text as live content and grows the content box', async () => {
    const page = await interpretOne({ content: 'BT /F1 10 Tf 50 60 Td (H) Tj ET', resources: { fonts: { F1: helvetica() } } });
    expect(page.liveContent).toHaveLength(1);
    expect(rounded(page.liveContent[0]!.bbox)).toEqual([50, 57.93, 57.22, 67.18]);
    expect(page.contentBox).toEqual(page.liveContent[0]!.bbox);
  });
});
