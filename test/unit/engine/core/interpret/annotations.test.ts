import { describe, expect, it } from 'vitest';
import { form, image, standardFont, type FormSpec } from '../../../../support/content-fixtures';
import { interpretOne, interpretPages, rounded } from './support';

const withImage = (matrix?: FormSpec['matrix']) =>
  form({ content: 'q 50 0 0 25 0 0 cm /Im Do Q', bbox: [0, 0, 50, 25], matrix, resources: { xobjects: { Im: image({ width: 100, height: 50 }) } } });

describe('annotation appearances', () => {
  it('places the normal appearance into the annotation Rect (BBox scaled onto Rect)', async () => {
    const page = await interpretOne({ content: '', annotations: [{ rect: [100, 100, 200, 150], appearance: withImage() }] });
    expect(page.images).toHaveLength(1);
    expect(page.images[0]).toMatchObject({ within: 'annotation', matrix: [100, 0, 0, 50, 100, 100], bbox: [100, 100, 200, 150] });
    expect(page.images[0]!.ppiX).toBeCloseTo(72, 6);
  });

  it('maps an appearance with a rotating /Matrix by its transformed box (ISO 32000-1 12.5.5)', async () => {
    const page = await interpretOne({ content: '', annotations: [{ rect: [100, 100, 200, 150], appearance: withImage([0, 1, -1, 0, 0, 0]) }] });
    expect(rounded(page.images[0]!.matrix)).toEqual([0, 50, -100, 0, 200, 100]);
    expect(rounded(page.images[0]!.bbox)).toEqual([100, 100, 200, 150]);
  });

  it('shows the appearance state named by /AS', async () => {
    const states = (state: string) => ({ states: { On: withImage(), Off: form({ content: '', bbox: [0, 0, 50, 25] }) }, state });
    const pages = await interpretPages([
      { content: '', annotations: [{ subtype: 'Widget', rect: [0, 0, 50, 25], appearance: states('On') }] },
      { content: '', annotations: [{ subtype: 'Widget', rect: [0, 0, 50, 25], appearance: states('Off') }] },
    ]);
    expect(pages.map((p) => p.images.length)).toEqual([1, 0]);
  });

  it('skips hidden and no-view annotations and popups', async () => {
    const page = await interpretOne({
      content: '',
      annotations: [
        { rect: [0, 0, 50, 25], flags: 2, appearance: withImage() },
        { rect: [0, 0, 50, 25], flags: 32, appearance: withImage() },
        { subtype: 'Popup', rect: [0, 0, 50, 25], appearance: withImage() },
      ],
    });
    expect(page.images).toEqual([]);
  });

  it('with everyAppearance, runs for an observer the appearances no viewer shows (other states, hidden annotations)', async () => {
    const seen: string[] = [];
    const observer = { operation: (_at: unknown, op: { op: string }) => void seen.push(op.op) };
    const states = { states: { On: withImage(), Off: form({ content: '', bbox: [0, 0, 50, 25] }) }, state: 'Off' };
    const spec = { content: '', annotations: [{ subtype: 'Widget', rect: [0, 0, 50, 25] as [number, number, number, number], appearance: states }, { rect: [0, 0, 50, 25] as [number, number, number, number], flags: 2, appearance: withImage() }] };
    await interpretOne(spec, { observer: observer as never, everyAppearance: true });
    expect(seen.filter((op) => op === 'Do')).toHaveLength(2);
    seen.length = 0;
    await interpretOne(spec, { observer: observer as never });
    expect(seen).not.toContain('Do');
  });

  it('lists fonts and paints of appearances but leaves the page empty and its content box alone', async () => {
    const stamp = form({ content: 'BT /F1 9 Tf 2 2 Td (Approved) Tj ET 1 0 0 rg 0 0 40 10 re f', bbox: [0, 0, 40, 10], resources: { fonts: { F1: standardFont('Helvetica') } } });
    const page = await interpretOne({ content: '', annotations: [{ subtype: 'Stamp', rect: [300, 300, 340, 310], appearance: stamp }] });
    expect(page.fonts).toHaveLength(1);
    expect(page.colours.map((c) => c.kind)).toEqual(['text', 'vector']);
    expect(page).toMatchObject({ empty: true, contentBox: null, liveContent: [] });
  });
});

describe('page content structure', () => {
  it('joins a /Contents array of streams, even when a split falls inside an operation', async () => {
    const page = await interpretOne({ content: ['0 0 1 rg 10 10', '20 20 re f'] });
    expect(page.colours[0]!.bbox).toEqual([10, 10, 30, 30]);
  });

  it('gives every page its own inventory, numbered from 1', async () => {
    const pages = await interpretPages([{ content: '0 0 1 1 re f' }, { content: '' }]);
    expect(pages.map((p) => [p.page, p.empty])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});
