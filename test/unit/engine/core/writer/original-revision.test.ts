/**
 * Where an incremental update would attach (lambdas/engine/core/writer/original-revision.ts),
 * and the rule that a file with data after its last %%EOF is written whole.
 */
import { describe, expect, it } from 'vitest';
import { readOriginalRevision } from '../../../../../lambdas/engine/core/writer/original-revision';
import { tempFiles } from '../../temp-files';
import { buildRevisions, pagesDocument, ROOT } from '../reader/pdf-builder';

const files = tempFiles('original-revision');

const table = () => buildRevisions([{ objects: pagesDocument(1), trailer: ROOT }]);
const at = async (bytes: Buffer) => readOriginalRevision(files.write(bytes, 'pdf'), 9);

describe('readOriginalRevision', () => {
  it('finds the newest section of a table file and of a cross-reference stream file', async () => {
    const built = table();
    expect(await at(built.bytes)).toMatchObject({ startxref: built.xrefOffsets.at(-1), xrefIsStream: false, size: 9 });
    const stream = buildRevisions([{ objects: pagesDocument(1), trailer: ROOT, xref: 'stream', xrefStreamNumber: 9 }]);
    expect(await at(stream.bytes)).toMatchObject({ startxref: stream.xrefOffsets.at(-1), xrefIsStream: true });
  });

  it('accepts white space (and NUL padding) after %%EOF, and a file that ends right after its startxref offset', async () => {
    const built = table();
    expect(await at(Buffer.concat([built.bytes, Buffer.from('\r\n  \0\0\n')]))).not.toBeNull();
    const text = built.bytes.toString('latin1');
    expect(await at(Buffer.from(text.slice(0, text.lastIndexOf('%%EOF')), 'latin1'))).not.toBeNull();
  });

  it('says no (the file is written whole) when data follows the last %%EOF, however little or much', async () => {
    const built = table();
    expect(await at(Buffer.concat([built.bytes, Buffer.from('--boundary--\n')]))).toBeNull();
    expect(await at(Buffer.concat([built.bytes, Buffer.alloc(10_000, 0x41)]))).toBeNull();
  });

  it('says no when startxref is missing or points at neither a table nor an object', async () => {
    const text = table().bytes.toString('latin1');
    expect(await at(Buffer.from(text.replace(/startxref/g, 'startxrex'), 'latin1'))).toBeNull();
    expect(await at(Buffer.from(text.replace(/startxref\n\d+/, 'startxref\n3'), 'latin1'))).toBeNull();
  });
});
