/**
 * Image dictionaries (PDF/A-1 6.2.4, PDF/A-2/3 6.2.8.1, PDF/A-4 6.2.7.1): no
 * alternate images, no OPI, no interpolation, only the bit depths a PDF/A
 * reader supports; and JPEG 2000 data (PDF/A-2/3 6.2.8.3, PDF/A-4 6.2.7.3).
 * XObject images include those used as soft masks and stencil masks of other
 * images; inline images are read from content (their I, BPC and IM entries).
 */
import type { PDFStream } from '@cantoo/pdf-lib';
import { getBool, getNumber, name, streamFilters } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type RuleOutcome, type Rule } from '../rule';
import type { StandardProfile } from '../profiles';
import { graphicsObjects, type Found } from './graphics-objects';
import { collected } from '../content-pass';
import { graphicsUse } from './graphics-use';
import { readJpeg2000Header, type Jpeg2000Header } from './jpeg2000';

/** One image to judge: an XObject (with its dictionary) or an inline image (with its entries). */
interface ImageItem {
  bpc: number | undefined;
  mask: boolean;
  interpolate: boolean;
  hasAlternates: boolean;
  hasOpi: boolean;
  example: Example;
}

const ex = (f: Found<unknown>, context: string): Example => ({ ...(f.pages[0] !== undefined ? { page: f.pages[0] } : {}), ...(f.objectNumber !== undefined ? { objectNumber: f.objectNumber } : {}), context });

const imageItems = fact('graphics-image-items', (m): ImageItem[] => {
  const out: ImageItem[] = [];
  for (const f of graphicsObjects(m).images) {
    const d = f.obj.dict;
    out.push({
      bpc: getNumber(d, 'BitsPerComponent'),
      mask: getBool(d, 'ImageMask') === true,
      interpolate: getBool(d, 'Interpolate') === true,
      hasAlternates: d.has(name('Alternates')),
      hasOpi: d.has(name('OPI')),
      example: ex(f, `image XObject${f.objectNumber !== undefined ? ` ${f.objectNumber}` : ''}`),
    });
  }
  for (const i of collected(m, graphicsUse).inlineImages) {
    const e = i.entries;
    out.push({
      bpc: typeof e['BitsPerComponent'] === 'number' ? e['BitsPerComponent'] : undefined,
      mask: e['ImageMask'] === true,
      interpolate: e['Interpolate'] === true,
      hasAlternates: false,
      hasOpi: 'OPI' in e,
      example: { page: i.page, context: 'inline image' },
    });
  }
  return out;
});

const images = (m: ValidationModel, ok: (i: ImageItem) => boolean, what: (i: ImageItem) => string): RuleOutcome =>
  eachOf(imageItems(m), ok, (i) => ({ ...i.example, context: `${i.example.context} ${what(i)}` }));

const IMAGE_CLAUSES = { 1: '6.2.4', 2: '6.2.8.1', 3: '6.2.8.1', 4: '6.2.7.1' };
const JPX_CLAUSES = { 2: '6.2.8.3', 3: '6.2.8.3', 4: '6.2.7.3' };

interface JpxImage {
  found: Found<PDFStream>;
  header: Jpeg2000Header | null;
  /** The image dictionary gives ColorSpace: the data's own colour specification is not used. */
  hasColourSpace: boolean;
}

/** JPEG 2000 images whose data is stored with the JPXDecode filter alone (the header is then readable as is). */
const jpxImages = fact('graphics-jpx-images', (m): JpxImage[] => {
  const out: JpxImage[] = [];
  for (const f of graphicsObjects(m).images) {
    const filters = streamFilters(f.obj);
    if (filters[filters.length - 1] !== 'JPXDecode') continue;
    let header: Jpeg2000Header | null = null;
    if (filters.length === 1) {
      try {
        header = readJpeg2000Header(f.obj.getContents());
      } catch {
        header = null;
      }
    }
    out.push({ found: f, header, hasColourSpace: f.obj.dict.has(name('ColorSpace')) });
  }
  return out;
});

const jpx = (m: ValidationModel, ok: (j: JpxImage & { header: Jpeg2000Header }) => boolean, what: (j: JpxImage & { header: Jpeg2000Header }) => string): RuleOutcome =>
  eachOf(
    jpxImages(m).filter((j): j is JpxImage & { header: Jpeg2000Header } => j.header !== null),
    ok,
    (j) => ex(j.found, `JPEG 2000 image ${what(j)}`),
  );

/** The colour specification a reader uses: the one marked exact (APPROX 1) among several, else the first. */
const usedSpec = (h: Jpeg2000Header) => (h.colourSpecs.length > 1 ? (h.colourSpecs.find((c) => c.approx === 1) ?? h.colourSpecs[0]) : h.colourSpecs[0]);

export const IMAGE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.image.alternates',
    clauses: IMAGE_CLAUSES,
    description: 'An image dictionary shall not contain Alternates.',
    test: (m) => images(m, (i) => !i.hasAlternates, () => 'has Alternates'),
  },
  {
    id: 'pdfa.image.opi',
    clauses: IMAGE_CLAUSES,
    description: (p: StandardProfile) => (p.part === 1 ? 'An XObject (image or form) shall not contain OPI.' : 'An image dictionary shall not contain OPI.'),
    test: (m, p) => {
      const base = images(m, (i) => !i.hasOpi, () => 'has OPI');
      if (p.part !== 1) return base;
      // PDF/A-1 puts OPI on forms under the same clause as images.
      const forms = eachOf(graphicsObjects(m).forms, (f) => !f.obj.dict.has(name('OPI')), (f) => ex(f, 'form XObject has OPI'));
      return { checked: base.checked + forms.checked, failures: [...base.failures, ...forms.failures] };
    },
  },
  {
    id: 'pdfa.image.interpolate',
    clauses: IMAGE_CLAUSES,
    description: 'Images shall not be interpolated: Interpolate (I in an inline image) shall be false when present.',
    test: (m) => images(m, (i) => !i.interpolate, () => 'has Interpolate true'),
  },
  {
    id: 'pdfa.image.bits-per-component',
    clauses: IMAGE_CLAUSES,
    description: (p: StandardProfile) => `BitsPerComponent of an image shall be 1, 2, 4${p.part === 1 ? ' or 8' : ', 8 or 16'}.`,
    test: (m, p) => {
      const allowed = p.part === 1 ? [1, 2, 4, 8] : [1, 2, 4, 8, 16];
      return images(m, (i) => i.mask || i.bpc === undefined || allowed.includes(i.bpc), (i) => `has BitsPerComponent ${i.bpc}`);
    },
  },
  {
    id: 'pdfa.image.mask-bits',
    clauses: IMAGE_CLAUSES,
    description: 'An image mask (ImageMask true) shall have BitsPerComponent 1 when it gives one.',
    test: (m) => images(m, (i) => !i.mask || i.bpc === undefined || i.bpc === 1, (i) => `is an image mask with BitsPerComponent ${i.bpc}`),
  },
  {
    id: 'pdfa.jpeg2000.channels',
    clauses: JPX_CLAUSES,
    description: 'JPEG 2000 image data shall have 1, 3 or 4 colour channels.',
    test: (m) => jpx(m, (j) => j.header.channels === 1 || j.header.channels === 3 || j.header.channels === 4, (j) => `has ${j.header.channels ?? 'an unreadable number of'} colour channels`),
  },
  {
    id: 'pdfa.jpeg2000.colour-specs',
    clauses: JPX_CLAUSES,
    description: 'JPEG 2000 data with several colour specifications shall mark exactly one of them as exact (APPROX 1), unless the image dictionary gives ColorSpace.',
    test: (m) =>
      jpx(
        m,
        (j) => j.hasColourSpace || j.header.colourSpecs.length <= 1 || j.header.colourSpecs.filter((c) => c.approx === 1).length === 1,
        (j) => `has ${j.header.colourSpecs.length} colour specifications, ${j.header.colourSpecs.filter((c) => c.approx === 1).length} marked exact`,
      ),
  },
  {
    id: 'pdfa.jpeg2000.colour-method',
    clauses: JPX_CLAUSES,
    description: 'The colour specification (colr box) of JPEG 2000 data shall use method 1, 2 or 3, unless the image dictionary gives ColorSpace.',
    test: (m) =>
      jpx(
        m,
        (j) => {
          const s = usedSpec(j.header);
          return j.hasColourSpace || s === undefined || s.method === 1 || s.method === 2 || s.method === 3;
        },
        (j) => `uses colour specification method ${usedSpec(j.header)?.method}`,
      ),
  },
  {
    id: 'pdfa.jpeg2000.cie-jab',
    clauses: JPX_CLAUSES,
    description: 'JPEG 2000 data shall not use the enumerated colour space 19 (CIEJab), unless the image dictionary gives ColorSpace.',
    test: (m) => jpx(m, (j) => j.hasColourSpace || usedSpec(j.header)?.enumCS !== 19, () => 'uses the CIEJab enumerated colour space'),
  },
  {
    id: 'pdfa.jpeg2000.bit-depth',
    clauses: JPX_CLAUSES,
    description: 'JPEG 2000 data shall have one bit depth for all colour channels, between 1 and 38.',
    test: (m) =>
      jpx(
        m,
        (j) => !j.header.bpccBox && j.header.bitDepth !== null && j.header.bitDepth >= 1 && j.header.bitDepth <= 38,
        (j) => (j.header.bpccBox || j.header.bitDepth === null ? 'has channels of different bit depths' : `has bit depth ${j.header.bitDepth}`),
      ),
  },
];

