import { describe, expect, it } from 'vitest';
import { DEVICE_CMYK, DEVICE_RGB } from '../../../../../lambdas/engine/core/interpret/colour-space-info';
import { PaintStates } from '../../../../../lambdas/engine/core/interpret/graphics-state';
import type { Rect } from '../../../../../lambdas/engine/core/page-boxes';
import { PageCollector } from '../../../../../lambdas/engine/core/interpret/page-collector';
import { Paints } from '../../../../../lambdas/engine/core/interpret/paint';

const paints = new Paints();
const states = new PaintStates();
const normal = states.of(false, 0, 1, 'Normal', false);
const overprint = states.of(true, 1, 1, 'Normal', false);

describe('page collector: text groups', () => {
  it('groups runs by font, size, painting, paints and state, however many styles a page cycles through', () => {
    const c = new PageCollector(1);
    const black = paints.flat(DEVICE_CMYK, [0, 0, 0, 1]);
    const cyan = paints.flat(DEVICE_CMYK, [1, 0, 0, 0]);
    type Style = [fontName: string, size: number, painting: 'fill' | 'stroke', fill: typeof black | null, stroke: typeof black | null, state: typeof normal];
    const base: Style = ['F0', 9, 'fill', black, null, normal];
    // Each variant differs from the base in one thing only; then fillers, so that more styles are in use than the collector keeps at hand.
    const styles: Style[] = [
      base,
      ['F1', 9, 'fill', black, null, normal],
      ['F0', 9.04, 'fill', black, null, normal], // rounds to the base's 9.0
      ['F0', 9.1, 'fill', black, null, normal],
      ['F0', 9, 'stroke', black, null, normal],
      ['F0', 9, 'fill', cyan, null, normal],
      ['F0', 9, 'fill', black, cyan, normal],
      ['F0', 9, 'fill', black, null, overprint],
      ...Array.from({ length: 6 }, (_, i): Style => [`G${i}`, 12, 'fill', black, null, normal]),
    ];
    for (let round = 0; round < 10; round++) {
      styles.forEach(([fontName, size, painting, fill, stroke, state], i) => c.textRun(null, fontName, size, painting, fill, stroke, state, [round, i, round + 1, i + 1], 'page'));
    }
    const groups = c.finish().text;
    expect(groups).toHaveLength(styles.length - 1);
    const baseGroup = groups.find((g) => g.fontName === 'F0' && g.sizePt === 9 && g.painting === 'fill' && g.fill === black && g.stroke === null && g.state === normal)!;
    expect(baseGroup.count).toBe(20);
    expect(baseGroup.union).toEqual([0, 0, 10, 3]);
    expect(groups.filter((g) => g !== baseGroup).every((g) => g.count === 10)).toBe(true);
  });
});

describe('page collector: bounded lists', () => {
  it('keeps the painted areas of highest coverage, and every white area set to overprint', () => {
    const c = new PageCollector(1);
    for (let i = 0; i <= 1000; i++) c.area('vector', paints.flat(DEVICE_CMYK, [0, 0, 0, i / 1000]), normal, [i, 0, i + 1, 1], 'page');
    c.area('vector', paints.flat(DEVICE_CMYK, [0, 0, 0, 0]), overprint, [5, 5, 6, 6], 'page');
    c.area('vector', paints.flat(DEVICE_RGB, [0.2, 0.3, 0.4]), normal, [7, 7, 8, 8], 'page');
    const inv = c.finish();
    expect(inv.maxTacPercent).toBe(100);
    expect(inv.paintedAreas.length).toBeLessThanOrEqual(201);
    expect(inv.paintedAreas[0]).toMatchObject({ paint: { white: true }, state: { overprint: true } });
    const tacs = inv.paintedAreas.slice(1).map((a) => a.paint.tacPercent!);
    expect(tacs[0]).toBe(100);
    expect(tacs).toEqual([...tacs].sort((a, b) => b - a));
    // RGB is not in ink terms: it adds nothing to coverage checks.
    expect(inv.paintedAreas.some((a) => a.paint.space.family === 'DeviceRGB')).toBe(false);
  });

  it('merges live content boxes when there are many, never outside what was painted', () => {
    const c = new PageCollector(1);
    const boxes: Rect[] = [];
    for (let i = 0; i < 2000; i++) {
      const box: Rect = [10 + (i % 40) * 10, 10 + Math.floor(i / 40) * 12, 18 + (i % 40) * 10, 20 + Math.floor(i / 40) * 12];
      boxes.push(box);
      c.visible(box, i % 3 === 0 ? 'image' : 'text');
    }
    const inv = c.finish();
    expect(inv.liveContent.length).toBeLessThanOrEqual(300);
    const all = boxes.reduce((u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])]);
    for (const { bbox } of inv.liveContent) {
      expect(bbox[0]).toBeGreaterThanOrEqual(all[0]);
      expect(bbox[3]).toBeLessThanOrEqual(all[3]);
    }
    expect(inv.contentBox).toEqual(all);
    expect(new Set(inv.liveContent.map((l) => l.kind))).toEqual(new Set(['text', 'image']));
  });

  it('records a limit once per kind and detail', () => {
    const c = new PageCollector(3);
    c.limit('form-cycle', 'form XObject 7 paints itself');
    c.limit('form-cycle', 'form XObject 7 paints itself');
    expect(c.finish().limits).toEqual([{ page: 3, limit: 'form-cycle', detail: 'form XObject 7 paints itself' }]);
  });
});
