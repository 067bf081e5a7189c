/**
 * Files written byte by byte for the file structure rules' tests: the syntax
 * under test (trailers, cross-reference sections, implementation limits) is
 * what a PDF writer library normalises away.
 */
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { tempFiles } from '../../temp-files';

export const files = tempFiles('file-structure-raw');

export const ID_A = '<0123456789ABCDEF0123456789ABCDEF>';
export const ID_B = '<FEDCBA9876543210FEDCBA9876543210>';

export interface RawPdf {
  header?: string;
  /** Object bodies by number, replacing or adding to the defaults (1 catalog, 2 pages, 3 page, 4 content, 5 font). */
  objects?: Record<number, string>;
  /** Extra catalog entries. */
  catalog?: string;
  /** Extra page entries. */
  page?: string;
  /** The page's MediaBox (default [0 0 612 792]). */
  mediaBox?: string;
  /** Extra trailer entries. */
  trailer?: string;
  /** The catalog's object number (default 1). */
  root?: number;
  /** The trailer's ID array (default two copies of ID_A). */
  id?: string;
  /** Writes the first-subsection header "first count" with this separator. */
  subsectionSeparator?: string;
  /** Writes a cross-reference stream instead of a table and trailer. */
  xrefStream?: boolean;
  /** Appends an incremental-update section whose trailer carries this ID array. */
  updateId?: string;
}

/** A small one-page PDF written byte by byte, with a correct cross-reference section. */
export function rawPdf(spec: RawPdf = {}): Uint8Array {
  const content = 'q 0 0 10 10 re f Q';
  const objects: Record<number, string> = {
    1: `<< /Type /Catalog /Pages 2 0 R ${spec.catalog ?? ''} >>`,
    2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    3: `<< /Type /Page /Parent 2 0 R /MediaBox ${spec.mediaBox ?? '[0 0 612 792]'} /Contents 4 0 R /Resources << >> ${spec.page ?? ''} >>`,
    4: `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...spec.objects,
  };
  const max = Math.max(...Object.keys(objects).map(Number));
  let out = `${spec.header ?? '%PDF-1.4'}\n%\xe2\xe3\xcf\xd3\n`;
  const offsets: number[] = [];
  for (let n = 1; n <= max; n++) {
    if (objects[n] === undefined) continue;
    offsets[n] = out.length;
    out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
  }
  const trailerEntries = `/Root ${spec.root ?? 1} 0 R /ID [${spec.id ?? `${ID_A} ${ID_A}`}] ${spec.trailer ?? ''}`;
  const xref = out.length;
  if (spec.xrefStream) {
    // ISO 32000-1 7.5.8: one entry per object, W [1 4 2]; the stream itself is object max + 1.
    const self = max + 1;
    offsets[self] = xref;
    const rows: number[] = [0, 0, 0, 0, 0, 0xff, 0xff];
    for (let n = 1; n <= self; n++) {
      const o = offsets[n] ?? 0;
      rows.push(offsets[n] === undefined ? 0 : 1, (o >>> 24) & 255, (o >>> 16) & 255, (o >>> 8) & 255, o & 255, 0, 0);
    }
    const data = Buffer.from(rows).toString('latin1');
    out += `${self} 0 obj\n<< /Type /XRef /Size ${self + 1} /W [1 4 2] /Length ${data.length} ${trailerEntries} >>\nstream\n${data}\nendstream\nendobj\n`;
    out += `startxref\n${xref}\n%%EOF\n`;
    return Uint8Array.from(Buffer.from(out, 'latin1'));
  }
  out += `xref\n0${spec.subsectionSeparator ?? ' '}${max + 1}\n0000000000 65535 f \n`;
  for (let n = 1; n <= max; n++) {
    const free = offsets[n] === undefined;
    out += `${String(free ? 0 : offsets[n]).padStart(10, '0')} 00000 ${free ? 'f' : 'n'} \n`;
  }
  out += `trailer\n<< /Size ${max + 1} ${trailerEntries} >>\nstartxref\n${xref}\n%%EOF\n`;
  if (spec.updateId !== undefined) {
    // An incremental update that changes nothing but carries its own trailer.
    const second = out.length;
    out += `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${max + 1} /Root ${spec.root ?? 1} 0 R /Prev ${xref} /ID [${spec.updateId}] >>\nstartxref\n${second}\n%%EOF\n`;
  }
  return Uint8Array.from(Buffer.from(out, 'latin1'));
}

export async function failures(bytes: Uint8Array, profile: ValidateProfileCode) {
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures;
}
export async function failureOf(bytes: Uint8Array, profile: ValidateProfileCode, ruleId: string) {
  return (await failures(bytes, profile)).find((f) => f.ruleId === ruleId);
}
export async function ruleIds(bytes: Uint8Array, profile: ValidateProfileCode): Promise<string[]> {
  return (await failures(bytes, profile)).map((f) => f.ruleId);
}
