/**
 * Annotations that belong to a layer hidden when the document prints (their
 * /OC names an optional content group, or a membership of groups, that is off
 * in the default configuration for the Print event, ISO 32000-1 8.11.3.2 and
 * 12.5.2). PDFium draws annotations with FPDF_PRINTING without looking at
 * their /OC (measured: an annotation in a layer that is off by default was
 * drawn, test/unit/engine/autofix/interactive/layers-flatten.test.ts), so the
 * PDFium page renderer takes these off the page before drawing it.
 *
 * Read with our own lazy reader, from the same bytes PDFium reads, opened
 * once per document and only as far as the catalogue's /OCProperties and the
 * page's /Annots, and only for a page PDFium found annotations with /OC on
 * (pdfium.ts renderPage): the reader (pdf-lib) is loaded only then. Indices
 * are positions in the page's /Annots array, as FPDFPage_GetAnnot counts them.
 */
import type { PDFDict } from '@cantoo/pdf-lib';
import type { OpenedPdf } from '../core/load-pdf';
import type { ByteSource } from '../core/reader/byte-source';
import type { OcVisibility } from '../core/oc-visibility';

const NONE: ReadonlySet<number> = new Set();

type PdfLib = typeof import('@cantoo/pdf-lib');

interface LayeredDocument {
  pdf: OpenedPdf;
  lib: PdfLib;
  layers: OcVisibility | null;
}

export class LayerHiddenAnnotations {
  private opened: Promise<LayeredDocument | null> | undefined;

  /** `source`: the document's bytes, owned by the caller (not closed here). */
  constructor(private readonly source: ByteSource) {}

  /** Which of the annotations at `candidates` (positions in the page's /Annots) are in a layer that is off for printing. */
  async forPage(pageNo: number, candidates: readonly number[]): Promise<ReadonlySet<number>> {
    const doc = await (this.opened ??= this.open());
    if (!doc?.layers) return NONE;
    const { PDFArray, PDFDict, PDFName } = doc.lib;
    try {
      const page = doc.pdf.doc.getPage(pageNo - 1).node;
      const annots = page.lookup(PDFName.of('Annots'));
      if (!(annots instanceof PDFArray)) return NONE;
      const hidden = new Set<number>();
      for (const i of candidates) {
        if (i >= annots.size()) continue;
        const annot = annots.lookup(i);
        if (annot instanceof PDFDict && annot.has(PDFName.of('OC')) && !doc.layers.visible(annot.get(PDFName.of('OC')))) hidden.add(i);
      }
      return hidden;
    } catch {
      // What cannot be read is drawn as PDFium sees it.
      return NONE;
    }
  }

  close(): void {
    void this.opened?.then((doc) => doc?.pdf.source.close());
  }

  private async open(): Promise<LayeredDocument | null> {
    try {
      // Loaded on first use: most documents have no annotation in a layer and never need them.
      const [lib, { openPdfSource }, { OcVisibility }] = await Promise.all([import('@cantoo/pdf-lib'), import('../core/load-pdf'), import('../core/oc-visibility')]);
      const source = this.source;
      // The reader closes its source when done; the caller's stays open for PDFium.
      const pdf = await openPdfSource({ size: source.size, read: (offset, length) => source.read(offset, length), close: () => undefined });
      const props = pdf.doc.catalog.lookup(lib.PDFName.of('OCProperties'));
      return { pdf, lib, layers: props instanceof lib.PDFDict ? new OcVisibility(pdf.doc.context, props as PDFDict, 'print') : null };
    } catch {
      return null;
    }
  }
}
