/**
 * Everything preflight reports about a PDF, gathered once: document facts,
 * page boxes, and what the content interpreter found per page (fonts with
 * their sizes, image placements with their resolution, colour, transparency).
 * Checks judge these facts; they never read the PDF themselves.
 */
import type { PDFDict } from '@cantoo/pdf-lib';
import { inventoryActions, type ActionSite } from '../core/actions';
import { readDocumentFacts } from '../core/document-facts';
import { describeFont, fontsByPage } from '../core/fonts';
import type { PageInventory, PlacedImage } from '../core/interpret/types';
import type { OpenedPdf } from '../core/load-pdf';
import { intersect, marginsMm, MM_PER_PT, readPageBoxes, round1, sizeMm, type PageBoxes } from '../core/page-boxes';
import { ObjectNumbers } from '../core/pdf-objects';
import type { FontFacts } from './checks-text';
import type { ImageFacts } from './checks-images';
import { emptyInventory, type InventoryPage } from './inventory-page';
import { readDocumentStructure, type AnnotationFacts } from './pdf-document';
import type { PageSection, PdfDocumentSection, SpotColourSection } from './report';

export interface PdfPageFacts extends PageSection, InventoryPage {
  boxes: PageBoxes;
}

export interface PdfFacts {
  document: PdfDocumentSection;
  pages: PdfPageFacts[];
  fonts: FontFacts[];
  images: ImageFacts[];
  spotColors: SpotColourSection[];
  actions: ActionSite[];
  annotations: AnnotationFacts[];
}

/** Limits listed in the document section; the findings still count every one. */
const MAX_LISTED_LIMITS = 100;

/** `inventories[i]` is what the interpreter found on page i + 1 (missing pages count as unread). */
export function gatherPdfFacts(pdf: OpenedPdf, inventories: PageInventory[]): PdfFacts {
  const { doc } = pdf;
  const facts = readDocumentFacts(pdf);
  const structure = readDocumentStructure(doc);
  const actions = inventoryActions(doc).sites;

  const pages: PdfPageFacts[] = doc.getPages().map((p, i) => {
    const boxes = readPageBoxes(doc.context, p.node);
    const { declared, media, trim, bleed, rotation, userUnit } = boxes;
    const inventory = inventories[i] ?? { ...emptyInventory(i + 1), empty: false, limits: [{ page: i + 1, limit: 'undecodable-content', detail: 'not analysed' }] };
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
      empty: inventory.empty,
      colourSpaces: [...new Set(inventory.colours.map((c) => c.space.label))].sort(),
      spotColors: [...inventory.spotColours].sort(),
      maxTacPercent: inventory.maxTacPercent === null ? null : Math.round(inventory.maxTacPercent),
      transparency: inventory.transparency.length > 0,
      trim,
      inventory,
      boxes,
    };
  });

  const fonts = fontFacts(pdf, pages);
  const images = pages.flatMap((p) => p.inventory.images.map((img) => imageFacts(img, p.userUnit)));
  const spots = new Map<string, Set<number>>();
  for (const p of pages) for (const s of p.spotColors) (spots.get(s) ?? spots.set(s, new Set()).get(s)!).add(p.page);
  const spotColors = [...spots].map(([name, on]) => ({ name, pages: [...on].sort((a, b) => a - b) })).sort((a, b) => a.name.localeCompare(b.name));

  const actionCounts: Record<string, number> = {};
  for (const a of actions) actionCounts[a.type] = (actionCounts[a.type] ?? 0) + 1;
  const xmp = facts.xmp;
  const pdfa = xmp.pdfa?.part ? `${xmp.pdfa.part.value}${(xmp.pdfa.conformance?.value ?? '').toLowerCase()}` : null;
  const limits = pages.flatMap((p) => p.inventory.limits);

  const document: PdfDocumentSection = {
    kind: 'pdf',
    pdfVersion: facts.pdfVersion,
    pageCount: facts.pageCount,
    fileSizeBytes: pdf.size,
    encrypted: facts.encrypted,
    repairs: [...pdf.repairs],
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
    annotations: structure.annotations.length,
    formFields: structure.formFields,
    embeddedFiles: structure.embeddedFiles,
    layers: structure.layers,
    tagged: facts.markInfo?.marked === true && facts.structTreeRoot,
    title: xmp.dcTitle ?? facts.info.title,
    creator: facts.info.creator,
    producer: facts.info.producer,
    colourSpaces: [...new Set(pages.flatMap((p) => p.colourSpaces))].sort(),
    transparency: pages.some((p) => p.transparency),
    analysisLimits: limits.slice(0, MAX_LISTED_LIMITS).map(({ page, limit, detail }) => ({ page, limit, detail })),
  };

  return { document, pages, fonts, images, spotColors, actions, annotations: structure.annotations };
}

/** Fonts the pages reach through their resources, joined with where and at what sizes they show text. */
function fontFacts(pdf: OpenedPdf, pages: PdfPageFacts[]): FontFacts[] {
  const { doc } = pdf;
  const reachable = fontsByPage(doc);
  const used = new Map<PDFDict, { pages: Set<number>; visible: boolean; min: number; max: number; objectNumber: number | null }>();
  for (const p of pages) {
    for (const u of p.inventory.fonts) {
      const entry = used.get(u.font) ?? { pages: new Set<number>(), visible: false, min: Infinity, max: 0, objectNumber: u.objectNumber };
      entry.pages.add(p.page);
      entry.visible ||= u.visible;
      // A font listed only because its content could not be read has no sizes.
      if (!u.unread && u.glyphs > 0) {
        entry.min = Math.min(entry.min, u.minSizePt);
        entry.max = Math.max(entry.max, u.maxSizePt);
      }
      used.set(u.font, entry);
    }
  }
  const numbers = new ObjectNumbers(doc.context);
  const dicts = new Set<PDFDict>([...reachable.keys(), ...used.keys()]);
  return [...dicts].map((dict) => {
    const info = describeFont(doc.context, dict);
    const u = used.get(dict);
    const sized = u !== undefined && u.min !== Infinity;
    return {
      name: info.name,
      type: info.type,
      embedded: info.embedded,
      subset: info.subset,
      objectNumber: u?.objectNumber ?? numbers.of(dict) ?? null,
      pages: [...(reachable.get(dict) ?? u?.pages ?? [])].sort((a, b) => a - b),
      usedOnPages: [...(u?.pages ?? [])].sort((a, b) => a - b),
      minSizePt: sized ? round1(u.min) : null,
      maxSizePt: sized ? round1(u.max) : null,
      visible: u?.visible ?? false,
      dict,
    };
  });
}

function imageFacts(img: PlacedImage, userUnit: number): ImageFacts {
  const m = img.matrix;
  const a = m[0];
  const b = m[1];
  const c = m[2];
  const d = m[3];
  const k = userUnit * MM_PER_PT;
  return {
    page: img.page,
    width: img.widthPx,
    height: img.heightPx,
    ppiX: ppiValue(img.ppiX),
    ppiY: ppiValue(img.ppiY),
    colorSpace: img.colourSpace?.label ?? null,
    bitsPerComponent: img.bitsPerComponent,
    bbox: img.bbox,
    objectNumber: img.objectNumber,
    inline: img.inline,
    imageMask: img.imageMask,
    filter: img.filters.at(-1) ?? null,
    softMask: img.softMask,
    placedMm: { width: round1(Math.hypot(a, b) * k), height: round1(Math.hypot(c, d) * k) },
    within: img.within,
  };
}

/**
 * Three significant digits: a tiny placed-up image (a 2 × 2 px pattern cell
 * stretched over a page) is 0.979 ppi, not "1.0"; print-size images keep one
 * decimal, which is what a customer reads.
 */
export function ppiValue(ppi: number): number {
  if (!Number.isFinite(ppi) || ppi === 0) return ppi;
  return ppi >= 100 ? Math.round(ppi * 10) / 10 : Number(ppi.toPrecision(3));
}
