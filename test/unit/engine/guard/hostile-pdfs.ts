/**
 * Hostile PDFs built byte by byte, for the robustness specifications: files no
 * honest producer writes, shaped to exhaust a naive reader (decompression
 * bombs, reference cycles, deep nesting, huge page trees, absurd numbers).
 * pdf-lib cannot write most of them (it normalises what it saves), so objects
 * are given as source text and `rawPdf` adds a correct cross-reference table.
 */
import { deflateRawSync, constants as zlibConstants } from 'node:zlib';

/** An indirect object's body: source text, or a stream given as dictionary text and data. */
export type RawObject = string | { dict: string; data: Buffer };

/**
 * A PDF with these objects (keyed by object number), a classic xref table and a
 * trailer whose /Root is object 1 unless `trailer` says otherwise.
 */
export function rawPdf(objects: Record<number, RawObject>, options: { trailer?: string; header?: string } = {}): Buffer {
  const parts: Buffer[] = [Buffer.from(`${options.header ?? '%PDF-1.7'}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let length = parts[0]!.length;
  const offsets = new Map<number, number>();
  const add = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  const numbers = Object.keys(objects).map(Number).sort((a, b) => a - b);
  for (const n of numbers) {
    offsets.set(n, length);
    const body = objects[n]!;
    if (typeof body === 'string') add(Buffer.from(`${n} 0 obj\n${body}\nendobj\n`, 'latin1'));
    else {
      add(Buffer.from(`${n} 0 obj\n${body.dict.replace(/>>\s*$/, '')} /Length ${body.data.length} >>\nstream\n`, 'latin1'));
      add(body.data);
      add(Buffer.from('\nendstream\nendobj\n'));
    }
  }
  const size = Math.max(0, ...numbers) + 1;
  const xref = [`xref\n0 ${size}\n`, '0000000000 65535 f \n'];
  for (let n = 1; n < size; n++) {
    const at = offsets.get(n);
    xref.push(at === undefined ? '0000000000 65535 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`);
  }
  const xrefAt = length;
  add(Buffer.from(`${xref.join('')}trailer\n<< /Size ${size} ${options.trailer ?? '/Root 1 0 R'} >>\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * Catalog (1), page tree (2) and one page (3) whose content is object 4; the
 * page's other entries are `pageEntries` (default: an A4 MediaBox, no resources).
 */
export function onePage(content: RawObject, extra: Record<number, RawObject> = {}, pageEntries = ''): Buffer {
  return rawPdf({
    1: '<< /Type /Catalog /Pages 2 0 R >>',
    2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    3: `<< /Type /Page /Parent 2 0 R /Contents 4 0 R ${pageEntries || '/MediaBox [0 0 595 842] /Resources << >>'} >>`,
    4: content,
    ...extra,
  });
}

const MiB = 1024 * 1024;

/**
 * A zlib stream that inflates to `mib` MiB of zero bytes (NUL is white space
 * in PDF syntax), about a thousand times smaller than its output. It is built
 * without ever holding the output: one MiB of zeros deflated to byte-aligned
 * blocks of matches at distance 1, repeated; then an empty final block and
 * the Adler-32 of n zeros, which is (n mod 65521) << 16 | 1.
 */
export function zeroBomb(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MiB), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const total = mib * MiB;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), ...Array<Buffer>(mib).fill(block), Buffer.from([0x03, 0x00]), adler]);
}

/** Text nested `depth` levels deep: `[[[…]]]` or `<< /A << /A … >> >>`. */
export function nested(depth: number, kind: 'array' | 'dict'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '<< /A '.repeat(depth) + '>> '.repeat(depth);
}

/**
 * A balanced page tree of `pages` pages: intermediate nodes of `fanout` kids,
 * every page sharing one content stream. About 100 bytes per page.
 */
export function manyPages(pages: number, fanout = 64): Buffer {
  const objects: Record<number, RawObject> = { 1: '<< /Type /Catalog /Pages 2 0 R >>', 3: { dict: '<< >>', data: Buffer.from('0 0 m 10 10 l S') } };
  let next = 4;
  // Leaves first, then parents level by level; the root is object 2.
  let level: number[] = [];
  for (let i = 0; i < pages; i++) level.push(next++);
  const leaves = new Set(level);
  const parentOf = new Map<number, number>();
  const kidsOf = new Map<number, number[]>();
  while (level.length > fanout) {
    const up: number[] = [];
    for (let i = 0; i < level.length; i += fanout) {
      const node = next++;
      kidsOf.set(node, level.slice(i, i + fanout));
      for (const k of level.slice(i, i + fanout)) parentOf.set(k, node);
      up.push(node);
    }
    level = up;
  }
  kidsOf.set(2, level);
  for (const k of level) parentOf.set(k, 2);
  const countOf = (n: number): number => (leaves.has(n) ? 1 : kidsOf.get(n)!.reduce((s, k) => s + countOf(k), 0));
  for (const [node, kids] of kidsOf) {
    const parent = node === 2 ? '' : `/Parent ${parentOf.get(node)} 0 R`;
    objects[node] = `<< /Type /Pages ${parent} /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${countOf(node)} >>`;
  }
  for (const leaf of leaves) objects[leaf] = `<< /Type /Page /Parent ${parentOf.get(leaf)} 0 R /MediaBox [0 0 595 842] /Contents 3 0 R >>`;
  return rawPdf(objects);
}
