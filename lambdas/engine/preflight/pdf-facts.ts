/**
 * Everything preflight reports about a PDF, gathered once from the core readers:
 * document facts, page boxes, fonts with where they are used, and image
 * placements with their effective resolution. Checks judge these facts; they
 * never read the PDF themselves.
 */
import type { PDFDict } from '@cantoo/pdf-lib';
import { inventoryActions, type ActionSite } from '../core/actions';
import { scanContent, type ImagePlacement } from '../core/content-scan';
import { readDocumentFacts } from '../core/document-facts';
import { describeFont, fontsByPage, type FontInfo } from '../core/fonts';
import type { OpenedPdf } from '../core/load-pdf';
import { intersect, marginsMm, MM_PER_PT, readPageBoxes, round1, sizeMm, type PageBoxes } from '../core/page-boxes';
import type { FontSection, ImageSection, PageSection, PdfDocumentSection } from './report';

export interface PdfPageFacts extends PageSection {
  boxes: PageBoxes;
}

export interface PdfFontFacts extends FontSection {
  info: FontInfo;
  /** Shows text in a visible rendering mode somewhere. */
  visible: boolean;
}

export interface PdfImageFacts extends ImageSection {
  bitDepthOne: boolean;
}

export interface PdfFacts {
  document: PdfDocumentSection;
  pages: PdfPageFacts[];
  fonts: PdfFontFacts[];
  images: PdfImageFacts[];
  actions: ActionSite[];
}

/** Placements smaller than this in either pixel dimension are flat fills, not pictures. */
const MIN_IMAGE_PIXELS = 4;

export function gatherPdfFacts(pdf: OpenedPdf): PdfFacts {
  const { doc } = pdf;
  const facts = readDocumentFacts(pdf);
  const usage = scanContent(doc);
  const actions = inventoryActions(doc).sites;

  const pages: PdfPageFacts[] = doc.getPages().map((p, i) => {
    const boxes = readPageBoxes(doc.context, p.node);
    const { declared, media, trim, bleed, rotation, userUnit } = boxes;
    const finished = declared.TrimBox ?? boxes.crop;
    const usableBleed = intersect(bleed, media);
    return {
      page: i + 1,
      mediaBox: media,
      cropBox: declared.CropBox,
      trimBox: declared.TrimBox,
      bleedBox: declared.BleedBox,
      artBox: declared.ArtBox,
      sizeMm: sizeMm(finished, userUnit, rotation),
      mediaSizeMm: sizeMm(media, userUnit, rotation),
      // Negative on a side where the BleedBox cuts into the TrimBox.
      bleedMm: declared.TrimBox ? marginsMm(usableBleed ?? trim, trim, userUnit) : null,
      rotation,
      userUnit,
      annotations: facts.annotationsPerPage.get(i + 1) ?? 0,
      boxes,
    };
  });

  const reachable = fontsByPage(doc);
  const fontDicts = new Set<PDFDict>([...reachable.keys(), ...usage.fonts.keys()]);
  const fonts: PdfFontFacts[] = [...fontDicts].map((dict) => {
    const info = describeFont(doc.context, dict);
    const used = usage.fonts.get(dict);
    return {
      name: info.name,
      type: info.type,
      embedded: info.embedded,
      subset: info.subset,
      pages: [...(reachable.get(dict) ?? used?.pages ?? [])].sort((a, b) => a - b),
      usedOnPages: [...(used?.pages ?? [])].sort((a, b) => a - b),
      info,
      visible: used?.visible ?? false,
    };
  });

  const images = usage.images.map((img) => imageFacts(img, pages[img.page - 1]?.userUnit ?? 1)).filter((i): i is PdfImageFacts => i !== null);

  const actionCounts: Record<string, number> = {};
  for (const a of actions) actionCounts[a.type] = (actionCounts[a.type] ?? 0) + 1;
  const xmp = facts.xmp;
  const pdfa = xmp.pdfa?.part ? `${xmp.pdfa.part.value}${(xmp.pdfa.conformance?.value ?? '').toLowerCase()}` : null;

  const document: PdfDocumentSection = {
    kind: 'pdf',
    pdfVersion: facts.pdfVersion,
    pageCount: facts.pageCount,
    fileSizeBytes: pdf.bytes.length,
    encrypted: facts.encrypted,
    ...(pdf.encryption
      ? { encryption: { filter: pdf.encryption.filter, keyBits: pdf.encryption.keyBits, printingAllowed: pdf.encryption.printingAllowed } }
      : {}),
    pdfx: xmp.pdfxVersion ?? facts.info.gtsPdfxVersion,
    pdfa,
    pdfua: xmp.pdfua?.part ? `ua${xmp.pdfua.part.value}` : null,
    outputIntents: facts.outputIntents.map((oi) => ({
      subtype: oi.subtype,
      outputConditionIdentifier: oi.outputConditionIdentifier,
      outputCondition: oi.outputCondition,
      registryName: oi.registryName,
      hasIccProfile: oi.hasProfile,
      iccColourSpace: oi.profile?.colourSpace.trim() ?? null,
    })),
    javaScript: actions.some((a) => a.type === 'JavaScript'),
    actions: actionCounts,
    annotations: [...facts.annotationsPerPage.values()].reduce((a, b) => a + b, 0),
    tagged: facts.markInfo?.marked === true && facts.structTreeRoot,
    title: xmp.dcTitle ?? facts.info.title,
    creator: facts.info.creator,
    producer: facts.info.producer,
    deviceColourSpaces: [...usage.deviceColours.keys()].sort(),
  };

  return { document, pages, fonts, images, actions };
}

function imageFacts(img: ImagePlacement, userUnit: number): PdfImageFacts | null {
  if (img.widthPx < MIN_IMAGE_PIXELS || img.heightPx < MIN_IMAGE_PIXELS) return null;
  const [a, b, c, d] = img.matrix;
  const wPt = Math.hypot(a, b) * userUnit;
  const hPt = Math.hypot(c, d) * userUnit;
  if (wPt < 0.1 || hPt < 0.1) return null;
  const ppi = Math.min(img.widthPx / (wPt / 72), img.heightPx / (hPt / 72));
  const oneBit = img.imageMask || img.bitsPerComponent === 1;
  return {
    page: img.page,
    widthPx: img.widthPx,
    heightPx: img.heightPx,
    placedMm: { width: round1(wPt * MM_PER_PT), height: round1(hPt * MM_PER_PT) },
    effectivePpi: Math.round(ppi),
    bitsPerComponent: img.bitsPerComponent,
    colourSpaces: img.deviceSpaces,
    inline: img.image === null,
    imageMask: img.imageMask,
    bitDepthOne: oneBit,
  };
}
