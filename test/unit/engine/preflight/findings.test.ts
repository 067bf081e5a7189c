import { describe, expect, it } from 'vitest';
import { groupFindings, MAX_LOCATIONS, MAX_LOCATIONS_PER_PAGE, pagesText, recommendedFixes, verdictOf, type Observation } from '../../../../lambdas/engine/preflight/findings';

type Rect = [number, number, number, number];

const group = (obs: Observation[], severity: Record<string, 'error' | 'warn' | 'info' | 'off'> = {}) =>
  groupFindings(
    obs,
    (id) => severity[id] ?? 'warn',
    () => (g) => `${g.count} on ${g.pagesText}`,
    (id) => (id === 'fixable' ? 'some.fix' : null),
    ['a', 'b', 'fixable'],
  );

describe('findings', () => {
  it('writes page lists with ranges', () => {
    expect(pagesText([3])).toBe('page 3');
    expect(pagesText([1, 2, 3, 4, 7, 9, 10])).toBe('pages 1–4, 7, 9–10');
  });

  it('groups observations of one check per subject and keeps the worst as measured', () => {
    const f = group([
      { checkId: 'a', page: 2, subject: 'X', measured: 5, rank: 5 },
      { checkId: 'a', page: 1, subject: 'X', measured: 1, rank: 1 },
      { checkId: 'a', page: 3, subject: 'Y', measured: 9 },
    ]);
    expect(f.map((x) => [x.count, x.pages ?? [x.page], x.measured, x.message])).toEqual([
      [2, [1, 2], 1, '2 on pages 1–2'],
      [1, [3], 9, '1 on page 3'],
    ]);
  });

  it('drops checks whose severity is off and orders errors before warnings before infos', () => {
    const f = group(
      [
        { checkId: 'b', page: 1 },
        { checkId: 'a', page: 1 },
        { checkId: 'fixable', page: 1 },
      ],
      { a: 'info', b: 'error', fixable: 'off' },
    );
    expect(f.map((x) => x.checkId)).toEqual(['b', 'a']);
  });

  it('offers a fix only when at least one observation can use it', () => {
    expect(group([{ checkId: 'fixable', page: 1, fixable: false }])[0]!.fix).toEqual({ available: false, fixId: 'some.fix' });
    const f = group([{ checkId: 'fixable', page: 1, fixable: false }, { checkId: 'fixable', page: 2 }]);
    expect(f[0]!.fix).toEqual({ available: true, fixId: 'some.fix' });
    expect(recommendedFixes(f)).toEqual(['some.fix']);
  });

  it('derives the verdict from severities', () => {
    expect(verdictOf(group([{ checkId: 'a', page: 1 }], { a: 'error' }))).toBe('fail');
    expect(verdictOf(group([{ checkId: 'a', page: 1 }], { a: 'warn' }))).toBe('warn');
    expect(verdictOf(group([{ checkId: 'a', page: 1 }], { a: 'info' }))).toBe('pass');
    expect(verdictOf([])).toBe('pass');
  });

  describe('where a finding is', () => {
    const onPage1: Rect = [72, 72, 172, 172];
    const onPage3: Rect = [72, 72, 272, 272];

    it("lists each located observation once, in page order, and gives the worst hit's page", () => {
      const [f] = group([
        { checkId: 'a', page: 3, bbox: onPage3, rank: 36 },
        { checkId: 'a', page: 1, bbox: onPage1, rank: 72 },
        { checkId: 'a', page: 1, bbox: [...onPage1], rank: 80 }, // the same box again (another placement of one image)
        { checkId: 'a', page: 2, bbox: null }, // concerns page 2, no box
        { checkId: 'a', page: null, bbox: [0, 0, 1, 1] }, // no page: nowhere to draw it
      ]);
      expect(f).toMatchObject({ page: 1, pages: [1, 2, 3], count: 5, bbox: onPage3, bboxPage: 3 });
      expect(f!.locations).toEqual([{ page: 1, bbox: onPage1 }, { page: 3, bbox: onPage3 }]);
      expect(f!.locationsTruncated).toBeUndefined();
    });

    it('puts the worst of a page first and keeps content order among equals', () => {
      const [f] = group([
        { checkId: 'a', page: 2, bbox: [1, 1, 2, 2] },
        { checkId: 'a', page: 2, bbox: [3, 3, 4, 4] },
        { checkId: 'a', page: 2, bbox: [5, 5, 6, 6], rank: 1 },
      ]);
      expect(f!.locations!.map((l) => l.bbox)).toEqual([[5, 5, 6, 6], [1, 1, 2, 2], [3, 3, 4, 4]]);
      expect(f!.bboxPage).toBe(2);
    });

    it('has no bboxPage and no locations when nothing is located', () => {
      const [pageLevel] = group([{ checkId: 'a', page: 4 }, { checkId: 'a', page: 5 }]);
      expect(pageLevel!.bbox).toBeNull();
      expect(pageLevel!.bboxPage).toBeNull();
      expect(pageLevel).not.toHaveProperty('locations');
      // The worst hit has no box though another has: bbox and bboxPage stay the worst's, locations list the other.
      const [mixed] = group([{ checkId: 'a', page: 1, rank: 0 }, { checkId: 'a', page: 2, bbox: onPage1, rank: 5 }]);
      expect(mixed).toMatchObject({ bbox: null, bboxPage: null, locations: [{ page: 2, bbox: onPage1 }] });
    });

    it(`caps a 500-page file at ${MAX_LOCATIONS_PER_PAGE} a page and ${MAX_LOCATIONS} in all, keeping each page's worst and the earliest pages`, () => {
      // 30 thin lines on each of 500 pages; the thinnest of all is on page 450.
      const observations: Observation[] = [];
      for (let page = 1; page <= 500; page++) {
        for (let i = 0; i < 30; i++) observations.push({ checkId: 'a', page, bbox: [i, i, i + 10, i + 1], rank: page === 450 && i === 7 ? 0 : 100 - i });
      }
      const [f] = group(observations);
      expect(f!.count).toBe(15_000);
      expect(f!.locations).toHaveLength(MAX_LOCATIONS);
      expect(f!.locationsTruncated).toBe(true);
      const perPage = new Map<number, number>();
      for (const l of f!.locations!) perPage.set(l.page, (perPage.get(l.page) ?? 0) + 1);
      expect([...perPage]).toEqual(Array.from({ length: MAX_LOCATIONS / MAX_LOCATIONS_PER_PAGE }, (_, i) => [i + 1, MAX_LOCATIONS_PER_PAGE]));
      // On each page its worst (highest i, lowest rank) come first; the 10 least severe are left out.
      expect(f!.locations![0]).toEqual({ page: 1, bbox: [29, 29, 39, 30] });
      expect(f!.locations!.filter((l) => l.page === 1).map((l) => l.bbox[0])).toEqual(Array.from({ length: 20 }, (_, i) => 29 - i));
      // The worst hit, beyond the cap, is still named by bbox and bboxPage.
      expect(f).toMatchObject({ bbox: [7, 7, 17, 8], bboxPage: 450 });
      expect(JSON.stringify(f).length).toBeLessThan(16_000);
    });

    it('says nothing of truncation when a page has exactly the per-page cap', () => {
      const [f] = group(Array.from({ length: MAX_LOCATIONS_PER_PAGE }, (_, i): Observation => ({ checkId: 'a', page: 1, bbox: [i, 0, i + 1, 1] })));
      expect(f!.locations).toHaveLength(MAX_LOCATIONS_PER_PAGE);
      expect(f).not.toHaveProperty('locationsTruncated');
    });
  });
});
