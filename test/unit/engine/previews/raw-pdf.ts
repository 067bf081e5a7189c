/** Hand-made PDFs for the previews tests: exact objects, such as a large stream no page uses. */

/** A PDF from numbered object bodies (object 1 is the catalog), with a correct cross-reference table. */
export function rawPdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}

export const stream = (dict: string, data: string | Buffer): Buffer =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${Buffer.byteLength(data)} >>\nstream\n`), Buffer.isBuffer(data) ? data : Buffer.from(data), Buffer.from('\nendstream')]);

/** `pages` pages of 72 × 72 pt, each a red square, then a stream of `unusedBytes` no page uses. */
export function pagesAndUnusedStream(pages: number, unusedBytes: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ');
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    stream('', '1 0 0 rg 10 10 50 50 re f'),
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] /Contents 3 0 R >>'),
    stream('', Buffer.alloc(unusedBytes, 0x78)),
  ]);
}
