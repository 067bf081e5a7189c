/**
 * Document-level facts read from the catalog, trailer and Info dictionary: the
 * things preflight reports and validate judges that need no content parsing.
 */
import { PDFDict } from '@cantoo/pdf-lib';
import { compareVersions } from './file-header';
import type { OpenedPdf } from './load-pdf';
import { readOutputIntents, type OutputIntentInfo } from './output-intents';
import { bytesOf, getBool, getDict, getName, getText, has, name, resolve, resolvedItems } from './pdf-objects';
import { readXmp, type XmpFacts } from './xmp/identification';

export interface DocumentFacts {
  /** The effective version: the header's, raised by the catalog's Version entry. */
  pdfVersion: string | null;
  headerVersion: string | null;
  pageCount: number;
  encrypted: boolean;
  xmp: XmpFacts;
  info: { title: string | null; producer: string | null; creator: string | null; gtsPdfxVersion: string | null };
  outputIntents: OutputIntentInfo[];
  /** The trailer has a non-empty ID array. */
  trailerId: boolean;
  markInfo: { marked: boolean | null; suspects: boolean | null } | null;
  structTreeRoot: boolean;
  lang: string | null;
  displayDocTitle: boolean | null;
  optionalContent: boolean;
  /** Annotations per page, 1-based page → count (pages without any omitted). */
  annotationsPerPage: Map<number, number>;
}

export function readDocumentFacts(pdf: OpenedPdf): DocumentFacts {
  const { doc } = pdf;
  const ctx = doc.context;
  const catalog = doc.catalog as PDFDict;
  const catalogVersion = getName(catalog, 'Version') ?? null;
  const headerVersion = pdf.header.version;
  let pdfVersion = headerVersion;
  if (catalogVersion && /^\d+\.\d+$/.test(catalogVersion) && (!pdfVersion || compareVersions(catalogVersion, pdfVersion) > 0)) {
    pdfVersion = catalogVersion;
  }

  const infoObj = resolve(ctx, ctx.trailerInfo.Info);
  const info = infoObj instanceof PDFDict ? infoObj : undefined;
  const id = resolvedItems(ctx, ctx.trailerInfo.ID);
  const markInfo = getDict(catalog, 'MarkInfo');

  const annotationsPerPage = new Map<number, number>();
  doc.getPages().forEach((p, i) => {
    const n = resolvedItems(ctx, p.node.get(name('Annots'))).filter((a) => a instanceof PDFDict).length;
    if (n > 0) annotationsPerPage.set(i + 1, n);
  });

  return {
    pdfVersion,
    headerVersion,
    pageCount: doc.getPageCount(),
    encrypted: pdf.encryption !== null,
    xmp: readXmp(doc),
    info: {
      title: getText(info, 'Title') ?? null,
      producer: getText(info, 'Producer') ?? null,
      creator: getText(info, 'Creator') ?? null,
      gtsPdfxVersion: getText(info, 'GTS_PDFXVersion') ?? getName(info, 'GTS_PDFXVersion') ?? null,
    },
    outputIntents: readOutputIntents(doc),
    trailerId: id.length > 0 && (bytesOf(id[0])?.length ?? 0) > 0,
    markInfo: markInfo ? { marked: getBool(markInfo, 'Marked') ?? null, suspects: getBool(markInfo, 'Suspects') ?? null } : null,
    structTreeRoot: getDict(catalog, 'StructTreeRoot') !== undefined,
    lang: getText(catalog, 'Lang') ?? null,
    displayDocTitle: getBool(getDict(catalog, 'ViewerPreferences'), 'DisplayDocTitle') ?? null,
    optionalContent: has(catalog, 'OCProperties'),
    annotationsPerPage,
  };
}
