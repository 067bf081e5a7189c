/**
 * Reading `pdfimages -list` output (poppler 22.12), on rows captured from the
 * pdfjs corpus and from generated files, and judging a resolution against the
 * figure poppler printed.
 */
import { describe, expect, it } from 'vitest';
import { parsePdfimagesList, ppiAgrees } from '../../bench/support/pdfimages-output';

const HEADER = [
  'page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio',
  '--------------------------------------------------------------------------------------------',
];
const table = (...rows: string[]) => [...HEADER, ...rows, ''].join('\n');

describe('parsePdfimagesList', () => {
  it('reads every column of an image XObject row', () => {
    const [row] = parsePdfimagesList(table('   1     0 image     102    72  gray    1   8  image  no       394  0   301   302   83B 1.1%'));
    expect(row).toEqual({
      page: 1,
      num: 0,
      type: 'image',
      width: 102,
      height: 72,
      color: 'gray',
      components: 1,
      bitsPerComponent: 8,
      encoding: 'image',
      interpolate: false,
      inline: false,
      objectNumber: 394,
      generation: 0,
      xPpi: 301,
      yPpi: 302,
    });
  });

  it('reads an inline image as inline with no object number', () => {
    const [row] = parsePdfimagesList(table('   1     1 image     161    47  gray    1   8  image  yes  [inline]     109   108    0B 0.0%'));
    expect(row).toMatchObject({ inline: true, objectNumber: null, interpolate: true, xPpi: 109, yPpi: 108 });
  });

  it('reads an image with no object id ([none]) as not inline with no object number', () => {
    const [row] = parsePdfimagesList(table('   2     4 image      64    64  rgb     3   8  image  no   [none]        72    72   12K 100%'));
    expect(row).toMatchObject({ page: 2, inline: false, objectNumber: null, xPpi: 72 });
  });

  it('reads stencil, mask and smask rows with their type', () => {
    const rows = parsePdfimagesList(
      table(
        '   1     0 stencil  1168   202  -       1   1  ccitt  no       403  0   601   601 87.9K 305%',
        '   1     1 mask      543   289  -       1   1  image  no        60  0   309   309  367B 1.9%',
        '   1     3 smask     102    72  gray    1   8  image  no       394  0   301   302   83B 1.1%',
      ),
    );
    expect(rows.map((r) => [r.type, r.color, r.objectNumber])).toEqual([
      ['stencil', '-', 403],
      ['mask', '-', 60],
      ['smask', 'gray', 394],
    ]);
  });

  it('reads resolutions below 1 ppi, printed with three decimals', () => {
    const [row] = parsePdfimagesList(table('   1     0 image     100    50  gray    1   8  image  no         5  0 0.101 0.051 5000B 100%'));
    expect([row!.xPpi, row!.yPpi]).toEqual([0.101, 0.051]);
  });

  it('reads inf (an image squeezed to nothing) as NaN rather than a number', () => {
    const [row] = parsePdfimagesList(table('   1     0 image     100    50  gray    1   8  image  no         5  0   inf   inf 5000B 100%'));
    expect(Number.isNaN(row!.xPpi)).toBe(true);
  });

  it('skips the header, the rule and warnings', () => {
    expect(parsePdfimagesList(table('Syntax Error (128): Command token too long'))).toEqual([]);
  });
});

describe('ppiAgrees (1 % tolerance)', () => {
  it('accepts our figure within 1 % of poppler’s', () => {
    expect(ppiAgrees(302.9, 300, 0.01)).toBe(true);
    expect(ppiAgrees(297.1, 300, 0.01)).toBe(true);
  });

  it('refuses a figure more than 1 % (plus poppler’s rounding) away', () => {
    expect(ppiAgrees(304, 300, 0.01)).toBe(false);
    expect(ppiAgrees(150, 300, 0.01)).toBe(false);
  });

  it('does not count poppler’s rounding to whole ppi as our error at low resolutions', () => {
    // poppler prints 29.6 as 30; 1 % of 30 alone would reject it
    expect(ppiAgrees(29.6, 30, 0.01)).toBe(true);
    expect(ppiAgrees(29.1, 30, 0.01)).toBe(false);
  });

  it('uses three-decimal precision below 1 ppi', () => {
    expect(ppiAgrees(0.1014, 0.101, 0.01)).toBe(true);
    expect(ppiAgrees(0.2, 0.101, 0.01)).toBe(false);
  });

  it('never agrees with an unreadable figure on either side', () => {
    expect(ppiAgrees(NaN, 300, 0.01)).toBe(false);
    expect(ppiAgrees(300, NaN, 0.01)).toBe(false);
  });
});
