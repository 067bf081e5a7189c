import { describe, expect, it } from 'vitest';
import { buildPdf, MM } from '../../support/pdf-fixtures';
import { appearanceDifference, printsTheSame } from '../../support/appearance-compare';
import { tempFiles } from '../engine/temp-files';

const files = tempFiles('appearance-compare');
const bleed = 3 * MM;

describe('comparing how two files print inside their finished area', () => {
  it('finds no difference when only declarations changed: the CropBox opened up to the MediaBox', async () => {
    const media: [number, number, number, number] = [0, 0, 400 + 2 * bleed, 300 + 2 * bleed];
    const trim: [number, number, number, number] = [bleed, bleed, bleed + 400, bleed + 300];
    const before = files.write(await buildPdf({ pages: 2, pageDefaults: { mediaBox: media, cropBox: trim, trimBox: trim } }), 'pdf');
    const after = files.write(await buildPdf({ pages: 2, pageDefaults: { mediaBox: media, trimBox: trim } }), 'pdf');
    const diff = await appearanceDifference(before, after);
    expect(diff.map((d) => d.page)).toEqual([1, 2]);
    expect(diff.every(printsTheSame)).toBe(true);
  });

  it('sees content that moved, changed or vanished', async () => {
    const before = files.write(await buildPdf({ pages: 1 }), 'pdf');
    const otherText = files.write(await buildPdf({ pages: [{ text: 'Something else entirely' }] }), 'pdf');
    const [d] = await appearanceDifference(before, otherText);
    expect(printsTheSame(d!)).toBe(false);
    expect(d!.changedShare).toBeGreaterThan(0.001);
  });

  it('sees a finished area that changed size', async () => {
    const before = files.write(await buildPdf({ pages: [{ trimBox: [0, 0, 300, 300] }] }), 'pdf');
    const after = files.write(await buildPdf({ pages: [{ trimBox: [0, 0, 200, 300] }] }), 'pdf');
    const [d] = await appearanceDifference(before, after);
    expect(d!.sizeChanged).toBe(true);
    expect(printsTheSame(d!)).toBe(false);
  });
});
