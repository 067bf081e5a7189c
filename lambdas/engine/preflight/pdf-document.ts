/**
 * Document structure preflight reports on besides content: interactive form
 * fields, layers (optional content groups and whether the default view shows
 * them), embedded files, and every annotation with what decides whether it
 * prints (its flags and appearance).
 */
import { PDFArray, PDFDict, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { listEmbeddedFiles, type EmbeddedFileSpec } from '../core/embedded-files';
import { rectFrom, type Rect } from '../core/page-boxes';
import { getDict, getName, getNumber, getText, has, name, resolve, resolvedItems } from '../core/pdf-objects';

export interface AnnotationFacts {
  page: number;
  subtype: string;
  rect: Rect | null;
  /** Print flag set and Hidden / NoView flags clear (ISO 32000-1 12.5.3). */
  prints: boolean;
  hasAppearance: boolean;
}

export interface DocumentStructure {
  formFields: number;
  layers: { name: string; visibleByDefault: boolean }[];
  embeddedFiles: { name: string; mimeType: string | null; sizeBytes: number | null; page: number | null }[];
  annotations: AnnotationFacts[];
}

/** Trees larger than real files have (a guard against hostile nesting and loops). */
const MAX_NODES = 100_000;

export function readDocumentStructure(doc: PDFDocument): DocumentStructure {
  const ctx = doc.context;
  const catalog = doc.catalog as PDFDict;
  const annotations: AnnotationFacts[] = [];
  doc.getPages().forEach((page, i) => {
    for (const a of resolvedItems(ctx, page.node.get(name('Annots')))) {
      if (!(a instanceof PDFDict) || annotations.length >= MAX_NODES) continue;
      const subtype = getName(a, 'Subtype') ?? 'Unknown';
      const flags = getNumber(a, 'F') ?? 0;
      annotations.push({
        page: i + 1,
        subtype,
        rect: rectFrom(resolve(ctx, a.get(name('Rect')))),
        // Bit 3 Print; bit 2 Hidden and bit 6 NoView keep it off the output regardless.
        prints: (flags & 4) !== 0 && (flags & 2) === 0 && (flags & 32) === 0,
        hasAppearance: has(getDict(a, 'AP'), 'N'),
      });
    }
  });

  const embeddedFiles = listEmbeddedFiles(doc, MAX_NODES).map(describeFile);

  return { formFields: countTerminalFields(ctx, catalog), layers: readLayers(ctx, catalog), embeddedFiles, annotations };
}

/** Name, type and size without decoding the file: Params/Size when stated, else the stored length. */
function describeFile({ name: label, file, page }: EmbeddedFileSpec): DocumentStructure['embeddedFiles'][number] {
  const size = getNumber(getDict(file?.dict, 'Params'), 'Size') ?? getNumber(file?.dict, 'Length') ?? null;
  return { name: label, mimeType: file ? (getName(file.dict, 'Subtype') ?? null) : null, sizeBytes: size, page };
}

/** Fields that hold a value: field-tree nodes with a name none of whose kids are named fields. */
function countTerminalFields(ctx: PDFContext, catalog: PDFDict): number {
  let count = 0;
  let visited = 0;
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, depth: number) => {
    if (seen.has(node) || depth > 32 || ++visited > MAX_NODES) return;
    seen.add(node);
    const kids = resolvedItems(ctx, node.get(name('Kids'))).filter((k): k is PDFDict => k instanceof PDFDict);
    const fieldKids = kids.filter((k) => has(k, 'T'));
    if (fieldKids.length === 0) count++;
    for (const kid of fieldKids) visit(kid, depth + 1);
  };
  for (const f of resolvedItems(ctx, getDict(catalog, 'AcroForm')?.get(name('Fields')))) if (f instanceof PDFDict) visit(f, 0);
  return count;
}

/** Optional content groups; the default configuration (D) hides those in its OFF array, or all but ON with BaseState OFF. */
function readLayers(ctx: PDFContext, catalog: PDFDict): DocumentStructure['layers'] {
  const props = getDict(catalog, 'OCProperties');
  if (!props) return [];
  const d = getDict(props, 'D');
  const off = new Set(resolvedItems(ctx, d?.get(name('OFF'))));
  const onList = new Set(resolvedItems(ctx, d?.get(name('ON'))));
  const baseOff = getName(d, 'BaseState') === 'OFF';
  const ocgs = resolve(ctx, props.get(name('OCGs')));
  if (!(ocgs instanceof PDFArray)) return [];
  return resolvedItems(ctx, ocgs)
    .slice(0, 1000)
    .filter((g): g is PDFDict => g instanceof PDFDict)
    .map((g) => ({ name: getText(g, 'Name') ?? 'Unnamed layer', visibleByDefault: baseOff ? onList.has(g) : !off.has(g) }));
}
