/**
 * How autofix writes what it fixed: an incremental update when a few objects
 * changed and nothing taken out must leave the file; otherwise a new file.
 */
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { autofix } from '../../../../lambdas/engine/autofix';
import { tempFiles } from '../temp-files';

const files = tempFiles('save-fixed');

/** Two pages without a TrimBox (boxes.normalize adds one), one with a script action. */
async function source(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['one', 'two']) doc.addPage([300, 300]).drawText(text, { x: 20, y: 100, font, size: 12 });
  const js = doc.context.register(doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert("secret script")') }));
  doc.catalog.set(PDFName.of('OpenAction'), js);
  return files.write(await doc.save({ useObjectStreams: false }), 'pdf');
}

async function run(path: string, items: string[]) {
  const outPath = files.path(`out-${items.join('+')}.pdf`);
  const result = await autofix({ path, outPath, items, recommended: null, profileId: 'default', context: null });
  return { result, before: readFileSync(path), after: readFileSync(outPath) };
}

describe('autofix saves', () => {
  it('appends an incremental update when the fixes edit a few objects: the original bytes stay a prefix', async () => {
    const { result, before, after } = await run(await source(), ['boxes.normalize']);
    expect(result.applied.map((a) => a.fixId)).toEqual(['boxes.normalize']);
    expect(result.runtimeParams.savedAs).toBe('incremental-update');
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.length - before.length).toBeLessThan(2000);
  });

  it('writes a new file when data follows the original\'s last %%EOF, even a few bytes of it', async () => {
    const path = files.write(Buffer.concat([readFileSync(await source()), Buffer.from('--mail-boundary--\n')]), 'pdf');
    const { result, after } = await run(path, ['boxes.normalize']);
    expect(result.runtimeParams.savedAs).toBe('rewritten');
    expect(after.toString('latin1')).not.toContain('mail-boundary');
  });

  it('writes a new file when a fix takes something out, so the removed script is gone from the bytes', async () => {
    const path = await source();
    expect(readFileSync(path).toString('latin1')).toContain('secret script');
    const { result, after } = await run(path, ['actions.remove']);
    expect(result.applied.map((a) => a.fixId)).toEqual(['actions.remove']);
    expect(result.runtimeParams.savedAs).toBe('rewritten');
    expect(after.toString('latin1')).not.toContain('secret script');
    expect(after.toString('latin1').match(/%%EOF/g)).toHaveLength(1);
  });
});
