/**
 * Values in content streams judged against the syntax rules (hexadecimal
 * strings) and the implementation limits. The content lexer hands out numbers
 * as JavaScript numbers and strings as bytes, so `60000.0` and `60000` look
 * alike (PDF/A-1 limits reals to ±32767 but integers to ±2^31) and `<484!>`
 * reads like any string. The raw scanner the file itself is read with judges
 * each content stream's decoded bytes instead: page contents, form XObjects
 * (annotation appearances included), tiling patterns and Type 3 glyph
 * procedures, each once; and any other stream the content pass ran as content
 * (an appearance stream without /Subtype, the glyphs of a Type 3 font that is
 * a direct object), since a reader interprets those too.
 */
import { PDFDict, PDFName, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { contentBytes } from '../../core/page-content';
import { getDict, getName, getNumber, streamBytes } from '../../core/pdf-objects';
import { collected } from '../content-pass';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { streamsRun } from './streams-run';
import { emptyFindings, reachableObjects, scanValues, type ValueFindings } from './syntax-scan';

export interface ContentValueFindings {
  /** The page whose content this is; undefined for shared forms, patterns and glyphs. */
  page: number | undefined;
  findings: ValueFindings;
}

export const contentValues = fact('file-structure/content-values', (m: ValidationModel): ContentValueFindings[] => {
  const out: ContentValueFindings[] = [];
  const judged = new Set<PDFStream>();
  const judge = (bytes: Uint8Array | null, page: number | undefined, objectNumber: number | undefined, stream?: PDFStream): void => {
    if (stream) judged.add(stream);
    if (!bytes) return;
    const findings = emptyFindings();
    scanValues(bytes, findings, objectNumber);
    if (Object.values(findings).some((list) => list.length > 0)) out.push({ page, findings });
  };
  m.doc.getPages().forEach((page, i) => {
    try {
      judge(contentBytes(m.context, page.node.get(PDFName.of('Contents'))), i + 1, undefined);
    } catch {
      // Undecodable page content is reported by the content pass.
    }
  });
  const inUse = reachableObjects(m);
  for (const [ref, obj] of m.context.enumerateIndirectObjects()) {
    if (!inUse.has(ref.objectNumber)) continue;
    try {
      if (obj instanceof PDFStream && (getName(obj.dict, 'Subtype') === 'Form' || getNumber(obj.dict, 'PatternType') === 1)) judge(streamBytes(obj), undefined, ref.objectNumber, obj);
      else if (obj instanceof PDFDict && getName(obj, 'Subtype') === 'Type3') {
        const procs = getDict(obj, 'CharProcs');
        for (const [, v] of procs?.entries() ?? []) {
          const s = v instanceof PDFRef ? m.context.lookup(v) : v;
          if (s instanceof PDFStream) judge(streamBytes(s), undefined, v instanceof PDFRef ? v.objectNumber : ref.objectNumber, s);
        }
      }
    } catch {
      // An undecodable stream holds nothing we can judge.
    }
  }
  for (const [stream, page] of collected(m, streamsRun)) {
    if (judged.has(stream)) continue;
    try {
      judge(streamBytes(stream), page || undefined, m.objectNumbers.of(stream), stream);
    } catch {
      // An undecodable stream holds nothing we can judge.
    }
  }
  return out;
});


