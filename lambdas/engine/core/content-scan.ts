/**
 * What page content really uses, for validation (PDF/A, PDF/UA…): the fonts
 * text is shown with and whether any of it is visible, the device colour
 * spaces objects are painted in (per page, and whether a Default* space
 * replaced them), image placements, and pages whose content could not be read.
 *
 * A view over the content interpreter (interpret/), which follows forms,
 * patterns, Type 3 glyphs, soft masks and annotation appearances. A content
 * stream that cannot be decoded marks every font of its resources as used, so
 * an unreadable stream never hides a problem. Colours count where something is
 * painted with them (setting a colour that paints nothing is no use).
 */
import type { PDFDict, PDFDocument, PDFStream } from '@cantoo/pdf-lib';
import { deviceSpacesOf, type DeviceSpace } from './colour-spaces';
import { interpretDocument } from './interpret/interpret-document';
import type { InterpretOptions } from './interpret/document-run';
import type { ColourSpaceInfo, Matrix } from './interpret/types';

export type { Matrix } from './interpret/types';
export { multiply } from './interpret/matrix';

export interface ImagePlacement {
  /** The image XObject; null for an inline image. */
  image: PDFStream | null;
  page: number;
  widthPx: number;
  heightPx: number;
  /** The image's unit square mapped to page space. */
  matrix: Matrix;
  imageMask: boolean;
  bitsPerComponent: number | null;
  deviceSpaces: DeviceSpace[];
}

export interface ContentUsage {
  /** Fonts text is shown with, per font dictionary. */
  fonts: Map<PDFDict, { pages: Set<number>; visible: boolean }>;
  /** Device colour use per space: every page, and pages where no Default space replaced it. */
  deviceColours: Map<DeviceSpace, { pages: Set<number>; undefaultedPages: Set<number> }>;
  images: ImagePlacement[];
  /** Pages with a content stream that could not be decoded. */
  undecodablePages: Set<number>;
}

const MAX_IMAGES = 20_000;

export function scanContent(doc: PDFDocument, options: InterpretOptions = {}): ContentUsage {
  const usage: ContentUsage = { fonts: new Map(), deviceColours: new Map(), images: [], undecodablePages: new Set() };
  const useSpace = (info: ColourSpaceInfo | null, page: number) => {
    for (const { space, defaulted } of deviceSpacesOf(info)) {
      let use = usage.deviceColours.get(space);
      if (!use) {
        use = { pages: new Set(), undefaultedPages: new Set() };
        usage.deviceColours.set(space, use);
      }
      use.pages.add(page);
      if (!defaulted) use.undefaultedPages.add(page);
    }
  };
  for (const inv of interpretDocument(doc, options)) {
    for (const f of inv.fonts) {
      let use = usage.fonts.get(f.font);
      if (!use) {
        use = { pages: new Set(), visible: false };
        usage.fonts.set(f.font, use);
      }
      use.pages.add(inv.page);
      use.visible ||= f.visible;
    }
    for (const c of inv.colours) useSpace(c.space, inv.page);
    for (const img of inv.images) {
      // Images inside soft masks are listed but record no colour use; their spaces still count.
      useSpace(img.colourSpace, inv.page);
      if (usage.images.length >= MAX_IMAGES) continue;
      usage.images.push({
        image: img.xobject,
        page: inv.page,
        widthPx: img.widthPx,
        heightPx: img.heightPx,
        matrix: img.matrix,
        imageMask: img.imageMask,
        bitsPerComponent: img.bitsPerComponent,
        deviceSpaces: deviceSpacesOf(img.colourSpace).map((d) => d.space),
      });
    }
    if (inv.limits.some((l) => l.limit === 'undecodable-content')) usage.undecodablePages.add(inv.page);
  }
  return usage;
}
