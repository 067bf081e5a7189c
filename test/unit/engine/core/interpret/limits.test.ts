import { describe, expect, it } from 'vitest';
import { form, image, standardFont, stream, type FormSpec } from '../../../../support/content-fixtures';
import { interpretOne, interpretPages } from './support';

const dot = () => image({ width: 10, height: 10 });

describe('limits: budgets and hostile content end in a LimitHit, never an exception', () => {
  it('stops at the operation budget per document and says so on every page it cut', async () => {
    const busy = Array.from({ length: 40 }, (_, i) => `${i} ${i} 1 1 re f`).join(' ');
    const pages = await interpretPages([{ content: busy }, { content: busy }], { maxOperations: 50 });
    expect(pages[0]!.limits).toEqual([expect.objectContaining({ page: 1, limit: 'operations' })]);
    expect(pages[0]!.operations).toBe(50);
    expect(pages[0]!.colours[0]!.count).toBe(25);
    expect(pages[1]!.limits).toEqual([expect.objectContaining({ page: 2, limit: 'operations' })]);
    expect(pages[1]!.colours).toEqual([]);
  });

  it('counts operations of forms against the budget', async () => {
    const fm = form({ content: '0 0 1 1 re f '.repeat(10) });
    const page = await interpretOne({ content: '/Fm Do /Fm Do /Fm Do', resources: { xobjects: { Fm: fm } } }, { maxOperations: 45 });
    expect(page.limits.map((l) => l.limit)).toEqual(['operations']);
  });

  it('stops at the deadline', async () => {
    const page = await interpretOne({ content: '0 0 10 10 re f' }, { deadline: Date.now() - 1 });
    expect(page.limits).toEqual([expect.objectContaining({ limit: 'time' })]);
    expect(page.colours).toEqual([]);
  });

  it('breaks a cycle of forms painting each other', async () => {
    const a: FormSpec = form({ content: 'q 10 0 0 10 0 0 cm /Im Do Q /B Do', resources: { xobjects: { Im: dot() } } });
    const b = form({ content: '/A Do', resources: { xobjects: { A: a } } });
    a.resources!.xobjects!['B'] = b;
    const page = await interpretOne({ content: '/A Do', resources: { xobjects: { A: a } } });
    expect(page.limits).toEqual([expect.objectContaining({ limit: 'form-cycle' })]);
    expect(page.images).toHaveLength(1);
  });

  it('stops nesting at the depth limit, and goes deeper when allowed', async () => {
    let inner: FormSpec = form({ content: 'q 10 0 0 10 0 0 cm /Im Do Q', resources: { xobjects: { Im: dot() } } });
    for (let i = 0; i < 14; i++) inner = form({ content: '/Fm Do', resources: { xobjects: { Fm: inner } } });
    const spec = { content: '/Fm Do', resources: { xobjects: { Fm: inner } } };
    const limited = await interpretOne(spec);
    expect(limited.limits).toEqual([expect.objectContaining({ limit: 'form-depth' })]);
    expect(limited.images).toEqual([]);
    const deep = await interpretOne(spec, { maxDepth: 20 });
    expect(deep.limits).toEqual([]);
    expect(deep.images).toHaveLength(1);
  });

  it('caps the images listed per page', async () => {
    const page = await interpretOne({ content: '/Im Do /Im Do /Im Do', resources: { xobjects: { Im: dot() } } }, { maxImagesPerPage: 2 });
    expect(page.images).toHaveLength(2);
    expect(page.limits).toEqual([expect.objectContaining({ limit: 'images' })]);
  });

  it('caps the images listed in the whole document', async () => {
    const page = { content: '/Im Do /Im Do', resources: { xobjects: { Im: dot() } } };
    const pages = await interpretPages([page, page], { maxImagesPerDocument: 3 });
    expect(pages.map((p) => p.images.length)).toEqual([2, 1]);
    expect(pages.map((p) => p.limits.map((l) => l.limit))).toEqual([[], ['images']]);
  });

  it('reports an undecodable page content stream and counts the fonts of its resources as used', async () => {
    const page = await interpretOne({
      content: 'BT ET',
      resources: { fonts: { F1: standardFont('Helvetica') } },
      raw: { Contents: stream({ dict: { Filter: '/JBIG2Decode' }, data: 'junk', compress: false }) },
    });
    expect(page.limits).toEqual([expect.objectContaining({ limit: 'undecodable-content', detail: expect.stringContaining('unsupported') })]);
    expect(page.fonts).toEqual([expect.objectContaining({ visible: true, unread: true, glyphs: 0 })]);
  });

  it('reports an undecodable form and goes on with the page', async () => {
    const broken = form({ content: 'junk', raw: { Filter: '/JBIG2Decode' } });
    const page = await interpretOne({ content: '/Bad Do 0 0 10 10 re f', resources: { xobjects: { Bad: broken } } });
    expect(page.limits).toEqual([expect.objectContaining({ limit: 'undecodable-content', detail: expect.stringMatching(/^form XObject \d+ could not be decoded/) })]);
    expect(page.colours).toHaveLength(1);
  });

  it('skips operators with malformed or missing operands and interprets the rest', async () => {
    const page = await interpretOne({
      content: [
        '(abc) 0 0 1 0 0 cm',
        '1 2 re f',
        '/Nope Do',
        '12 Tf',
        'BT /F9 12 Tf (no font) Tj [1 (x)] TJ Tj ET',
        '1 0 rg',
        '/Missing cs 1 scn',
        '/Missing gs',
        '/Missing sh',
        'BI ID EI',
        'q '.repeat(2000),
        'Q '.repeat(2100),
        '0 1 0 rg 5 5 10 10 re f',
        '[ 1 2 3 w',
      ].join('\n'),
      resources: { fonts: { F1: standardFont('Helvetica') } },
    });
    // The inline image without a dictionary is listed (0 × 0 px, no colour space), and the valid fill counts.
    expect(page.images).toEqual([expect.objectContaining({ inline: true, widthPx: 0, heightPx: 0 })]);
    expect(page.colours.map((c) => [c.kind, c.space.label, c.count])).toEqual([
      ['image', 'Unknown (no colour space)', 1],
      ['vector', 'DeviceRGB', 1],
    ]);
    expect(page.colours[1]!.bbox).toEqual([5, 5, 15, 15]);
    expect(page.limits).toEqual([]);
  });
});
