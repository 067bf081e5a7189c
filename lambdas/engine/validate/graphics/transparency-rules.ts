/**
 * Transparency.
 *  - PDF/A-1 (6.4) forbids it: no soft masks, no transparency groups, constant
 *    alpha 1.0, blend mode Normal or Compatible.
 *  - PDF/A-2/3 (6.2.10) and PDF/A-4 (6.2.9) allow it with conditions: only the
 *    blend modes ISO 32000 defines; a page that paints with transparency needs
 *    a blending colour space (its Group's CS) when no PDF/A output intent
 *    applies; and a device blending colour space must be one the output intent
 *    (or a Default colour space) makes device independent — a DeviceRGB group
 *    on a CMYK press intent has no defined meaning.
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFObject } from '@cantoo/pdf-lib';
import { parseIccHeader } from '../../core/output-intents';
import { inheritedResources } from '../../core/page-content';
import { getDict, getName, getNumber, has, name, resolve, resolvedItems, streamBytes } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type Rule } from '../rule';
import type { StandardProfile } from '../profiles';
import { annotations, graphicsObjects, type Found } from './graphics-objects';
import { collected } from '../content-pass';
import { graphicsUse } from './graphics-use';

const ex = (f: Found<unknown>, context: string): Example => ({ ...(f.pages[0] !== undefined ? { page: f.pages[0] } : {}), ...(f.objectNumber !== undefined ? { objectNumber: f.objectNumber } : {}), context });

/** ISO 32000-1 Table 136 and 137: the separable and non-separable blend modes. */
const STANDARD_BLEND_MODES = new Set([
  'Normal', 'Compatible', 'Multiply', 'Screen', 'Overlay', 'Darken', 'Lighten', 'ColorDodge', 'ColorBurn',
  'HardLight', 'SoftLight', 'Difference', 'Exclusion', 'Hue', 'Saturation', 'Color', 'Luminosity',
]);

/** The names a BM entry gives (a name, or an array of names); non-names read as '?'. */
function blendModeNames(v: PDFObject | undefined): string[] {
  if (v instanceof PDFName) return [v.decodeText()];
  if (v instanceof PDFArray) return v.asArray().map((x) => (x instanceof PDFName ? x.decodeText() : '?'));
  return [];
}

/** Alpha equal to 1 within the precision a PDF writer gives (a file with 1.0000001 is opaque). */
const opaque = (a: number | undefined) => a === undefined || Math.abs(a - 1) < 1e-6;

interface GroupOwner {
  kind: 'page' | 'form';
  group: PDFDict;
  /** Resources the CS resolves Default colour spaces against. */
  resources: PDFDict | undefined;
  page: number;
  objectNumber: number | undefined;
  /** PDF/A-4 page-level PDF/A output intent colour space ('' when the page has one without a readable profile). */
  pageIntent: string | null;
  /** For a form: the number of components of the page group's device-independent blending space (0 when none). */
  enclosingComponents: number;
}

/** Transparency groups of pages and of painted forms (soft mask groups are masks, not blending spaces of ink). */
const transparencyGroups = fact('graphics-transparency-groups', (m): GroupOwner[] => {
  const out: GroupOwner[] = [];
  m.doc.getPages().forEach((p, i) => {
    const g = getDict(p.node, 'Group');
    if (g && getName(g, 'S') === 'Transparency')
      out.push({ kind: 'page', group: g, resources: inheritedResources(p.node), page: i + 1, objectNumber: p.ref.objectNumber, pageIntent: pageIntent(m, p.node), enclosingComponents: 0 });
  });
  const objs = graphicsObjects(m);
  const pages = m.doc.getPages();
  for (const f of objs.forms) {
    if (objs.softMaskGroups.has(f.obj)) continue;
    const g = getDict(f.obj.dict, 'Group');
    if (g && getName(g, 'S') === 'Transparency')
      out.push({ kind: 'form', group: g, resources: getDict(f.obj.dict, 'Resources'), page: f.pages[0] ?? 0, objectNumber: f.objectNumber, pageIntent: null, enclosingComponents: independentComponents(m, getDict(pages[(f.pages[0] ?? 1) - 1]?.node, 'Group')?.get(name('CS'))) });
  }
  return out;
});

/** Components of a device-independent colour space (ICCBased N, CalRGB 3, CalGray 1); 0 for anything else. */
function independentComponents(m: ValidationModel, cs: PDFObject | undefined): number {
  const v = resolve(m.context, cs);
  if (!(v instanceof PDFArray) || v.size() < 1) return 0;
  const family = v.lookup(0);
  const fam = family instanceof PDFName ? family.decodeText() : '';
  if (fam === 'CalRGB') return 3;
  if (fam === 'CalGray') return 1;
  if (fam !== 'ICCBased') return 0;
  const stream = resolve(m.context, v.get(1));
  return stream instanceof PDFStream ? (getNumber(stream.dict, 'N') ?? 0) : 0;
}

/** The colour space of the document's PDF/A output intent: 'RGB ', 'CMYK', 'GRAY'…; '' when it has no readable profile; null without one. */
function documentIntent(m: ValidationModel): string | null {
  const oi = m.facts.outputIntents.find((o) => o.subtype === 'GTS_PDFA1');
  if (!oi) return null;
  return oi.profile?.colourSpace ?? '';
}

function pageIntent(m: ValidationModel, page: PDFDict): string | null {
  for (const oi of resolvedItems(m.context, page.get(name('OutputIntents')))) {
    if (!(oi instanceof PDFDict) || getName(oi, 'S') !== 'GTS_PDFA1') continue;
    const profile = resolve(m.context, oi.get(name('DestOutputProfile')));
    const bytes = profile instanceof PDFStream ? streamBytes(profile) : null;
    return (bytes && parseIccHeader(bytes)?.colourSpace) || '';
  }
  return null;
}

/** Why a device blending space is not device independent here, or null when it is fine. */
function deviceGroupProblem(space: string, resources: PDFDict | undefined, intent: string | null): string | null {
  const fam = { DeviceRGB: 'RGB', DeviceCMYK: 'CMYK', DeviceGray: 'Gray' }[space];
  if (!fam) return null;
  if (has(getDict(resources, 'ColorSpace'), `Default${fam}`)) return null;
  // An output intent whose profile we could not read: other rules report the profile; do not guess here.
  if (intent === '') return null;
  if (space === 'DeviceGray') return intent === null ? 'DeviceGray blending space without a PDF/A output intent' : null;
  const want = space === 'DeviceRGB' ? 'RGB ' : 'CMYK';
  if (intent === want) return null;
  return `${space} blending space ${intent === null ? 'without a PDF/A output intent' : `with a ${intent.trim()} output intent`}`;
}

export const TRANSPARENCY_RULES: readonly Rule[] = [
  {
    id: 'pdfa.transparency.soft-mask',
    clauses: { 1: '6.4' },
    description: 'Soft masks shall not be used: an ExtGState SMask shall be None and XObjects shall not have an SMask.',
    test: (m) => {
      const objs = graphicsObjects(m);
      const gs = eachOf(
        objs.extGStates,
        (f) => {
          const s = f.obj.lookup(name('SMask'));
          return s === undefined || (s instanceof PDFName && s.decodeText() === 'None');
        },
        (f) => ex(f, 'graphics state uses a soft mask'),
      );
      const xobjects = [...objs.images, ...objs.forms.filter((f) => !objs.softMaskGroups.has(f.obj))];
      const xo = eachOf(xobjects, (f) => !f.obj.dict.has(name('SMask')), (f) => ex(f, 'XObject has an SMask'));
      return { checked: gs.checked + xo.checked, failures: [...gs.failures, ...xo.failures] };
    },
  },
  {
    id: 'pdfa.transparency.group',
    clauses: { 1: '6.4' },
    description: 'No form XObject or page shall have a transparency group (Group with S Transparency).',
    test: (m) => eachOf(transparencyGroups(m), () => false, (g) => ({ ...(g.page ? { page: g.page } : {}), ...(g.objectNumber !== undefined ? { objectNumber: g.objectNumber } : {}), context: `${g.kind === 'page' ? 'page' : 'form XObject'} has a transparency group` })),
  },
  {
    id: 'pdfa.transparency.alpha',
    clauses: { 1: '6.4' },
    description: 'Constant alpha (CA and ca in an ExtGState) shall be 1.0.',
    test: (m) =>
      eachOf(
        graphicsObjects(m).extGStates,
        (f) => opaque(getNumber(f.obj, 'CA')) && opaque(getNumber(f.obj, 'ca')),
        (f) => ex(f, `graphics state sets alpha (ca ${getNumber(f.obj, 'ca') ?? 1}, CA ${getNumber(f.obj, 'CA') ?? 1})`),
      ),
  },
  {
    id: 'pdfa.transparency.blend-mode',
    clauses: { 1: '6.4' },
    description: 'A blend mode (BM in an ExtGState) shall be Normal or Compatible.',
    test: (m) =>
      eachOf(
        graphicsObjects(m).extGStates.filter((f) => f.obj.has(name('BM'))),
        (f) => {
          const modes = blendModeNames(f.obj.lookup(name('BM')));
          return modes.length > 0 && modes.every((b) => b === 'Normal' || b === 'Compatible');
        },
        (f) => ex(f, `graphics state uses blend mode ${blendModeNames(f.obj.lookup(name('BM'))).join(', ') || 'of a wrong type'}`),
      ),
  },
  {
    id: 'pdfa.transparency.standard-blend-mode',
    clauses: { 2: '6.2.10', 3: '6.2.10', 4: '6.2.9' },
    description: (p: StandardProfile) => `Only blend modes ISO 32000 defines shall be used as the BM of a graphics state${p.part === 4 ? ' or an annotation' : ''}.`,
    test: (m, p) => {
      const items: { modes: string[]; example: Example }[] = graphicsObjects(m)
        .extGStates.filter((f) => f.obj.has(name('BM')))
        .map((f) => ({ modes: blendModeNames(f.obj.lookup(name('BM'))), example: ex(f, 'graphics state') }));
      if (p.part === 4) {
        for (const a of annotations(m)) {
          if (a.annot.has(name('BM'))) items.push({ modes: blendModeNames(a.annot.lookup(name('BM'))), example: { page: a.page, context: `${getName(a.annot, 'Subtype') ?? ''} annotation`.trim() } });
        }
      }
      return eachOf(
        items,
        (i) => i.modes.every((b) => STANDARD_BLEND_MODES.has(b)),
        (i) => ({ ...i.example, context: `${i.example.context} uses blend mode ${i.modes.filter((b) => !STANDARD_BLEND_MODES.has(b)).join(', ')}` }),
      );
    },
  },
  {
    id: 'pdfa.transparency.page-blending-space',
    clauses: { 2: '6.2.10', 3: '6.2.10', 4: '6.2.9' },
    description: (p: StandardProfile) =>
      `Without a PDF/A output intent${p.part === 4 ? ' (for the document or the page)' : ''}, a page that paints with transparency shall have a Group whose CS gives the blending colour space.`,
    test: (m, p) => {
      if (documentIntent(m) !== null) return { checked: 1, failures: [] };
      const transparent = transparentPages(m, p);
      const pages = m.doc.getPages();
      const items = [...transparent].map(([page, why]) => ({ page, why, node: pages[page - 1]?.node, ref: pages[page - 1]?.ref }));
      return eachOf(
        items,
        (i) => {
          if (!i.node) return true;
          if (p.part === 4 && pageIntent(m, i.node) !== null) return true;
          return getDict(i.node, 'Group')?.has(name('CS')) === true;
        },
        (i) => ({ page: i.page, ...(i.ref ? { objectNumber: i.ref.objectNumber } : {}), context: `page paints with transparency (${i.why}) but its Group gives no CS` }),
      );
    },
  },
  {
    id: 'pdfa.transparency.device-blending-space',
    clauses: { 2: '6.2.10', 3: '6.2.10', 4: '6.2.9' },
    description:
      'A device blending colour space (CS of a transparency group) shall be device independent through the PDF/A output intent or a Default colour space: DeviceRGB needs an RGB intent, DeviceCMYK a CMYK intent, DeviceGray any intent.',
    test: (m, p) => {
      const doc = documentIntent(m);
      const groups = transparencyGroups(m)
        .map((g) => {
          const cs = resolve(m.context, g.group.get(name('CS')));
          const space = cs instanceof PDFName ? cs.decodeText() : undefined;
          const intent = p.part === 4 && g.pageIntent !== null ? g.pageIntent : doc;
          // A form group inside a page blending in a device-independent space of the same kind blends in that space's terms
          // (PDF/A-4 6.2.4.3 accepts the enclosing transparency blending space; the veraPDF corpus has such PDF/A-4 pass files).
          const wanted = space === 'DeviceRGB' ? 3 : space === 'DeviceCMYK' ? 4 : space === 'DeviceGray' ? -1 : 0;
          if (g.kind === 'form' && g.enclosingComponents > 0 && (wanted === -1 || wanted === g.enclosingComponents)) return { g, problem: null };
          return { g, problem: space ? deviceGroupProblem(space, g.resources, intent) : null };
        });
      return eachOf(
        groups,
        (x) => x.problem === null,
        (x) => ({ ...(x.g.page ? { page: x.g.page } : {}), ...(x.g.objectNumber !== undefined ? { objectNumber: x.g.objectNumber } : {}), context: `${x.g.kind === 'page' ? 'page' : 'form XObject'} group: ${x.problem}` }),
      );
    },
  },
];

/** Pages painting with transparency: from content, plus (PDF/A-4, PDF 2.0) annotations with a blend mode other than Normal. */
function transparentPages(m: ValidationModel, p: StandardProfile): Map<number, string> {
  const out = new Map(collected(m, graphicsUse).transparentPages);
  if (p.part === 4) {
    for (const a of annotations(m)) {
      const bm = a.annot.lookup(name('BM'));
      if (bm instanceof PDFName && bm.decodeText() !== 'Normal' && !out.has(a.page)) out.set(a.page, `an annotation has blend mode ${bm.decodeText()}`);
    }
  }
  return out;
}
