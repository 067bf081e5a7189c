/**
 * Annotations that belong to a layer hidden when the document prints (their
 * /OC names an optional content group, or a membership of groups, that is off
 * in the default configuration for the Print event, ISO 32000-1 8.11.3.2 and
 * 12.5.2). PDFium draws annotations with FPDF_PRINTING without looking at
 * their /OC (measured: an annotation in a layer that is off by default was
 * drawn, test/unit/engine/autofix/interactive/layers-flatten.test.ts), so the
 * PDFium page renderer takes these off the page before drawing it.
 *
 * Read with our own lazy reader, opened once per document and only as far as
 * the catalogue's /OCProperties and the page's /Annots: a document without
 * layers costs one look at its catalogue. Indices are positions in the page's
 * /Annots array, as FPDFPage_GetAnnot counts them.
 */
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import type { OpenedPdf } from '../core/load-pdf';
import { OcVisibility } from '../core/oc-visibility';

interface LayeredDocument {
  pdf: OpenedPdf;
  layers: OcVisibility | null;
}

const NONE: ReadonlySet<number> = new Set();

export class LayerHiddenAnnotations {
  private opened: Promise<LayeredDocument | null> | undefined;

  constructor(private readonly path: string) {}

  async forPage(pageNo: number): Promise<ReadonlySet<number>> {
    const doc = await (this.opened ??= this.open());
    if (!doc?.layers) return NONE;
    try {
      const page = doc.pdf.doc.getPage(pageNo - 1).node;
      const annots = page.lookup(PDFName.of('Annots'));
      if (!(annots instanceof PDFArray)) return NONE;
      const hidden = new Set<number>();
      for (let i = 0; i < annots.size(); i++) {
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
      // Loaded on first use: render threads of documents PDFium refuses never need it.
      const { openPdfFile } = await import('../core/load-pdf');
      const pdf = await openPdfFile(this.path);
      const props = pdf.doc.catalog.lookup(PDFName.of('OCProperties'));
      return { pdf, layers: props instanceof PDFDict ? new OcVisibility(pdf.doc.context, props, 'print') : null };
    } catch {
      return null;
    }
  }
}
