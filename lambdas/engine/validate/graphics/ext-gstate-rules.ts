/**
 * Graphics state parameter dictionaries (PDF/A-1 6.2.8, PDF/A-2/3/4 6.2.5):
 * no transfer functions, no halftone phase or origin, only halftone types 1
 * and 5 without names, transfer functions in halftones only where ISO 32000
 * allows them; and rendering intents (PDF/A-1 6.2.9, PDF/A-2/3 6.2.6): only the
 * four standard names, wherever an intent is given (ExtGState RI, image
 * Intent, inline image Intent, the `ri` operator).
 */
import { PDFDict, PDFName, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { getName, getNumber, name, resolve } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type RuleOutcome, type Rule } from '../rule';
import { graphicsObjects, type Found } from './graphics-objects';
import { collected } from '../content-pass';
import { graphicsUse, nameOperand } from './graphics-use';

const ex = (f: Found<unknown>, context: string): Example => ({ ...(f.pages[0] !== undefined ? { page: f.pages[0] } : {}), ...(f.objectNumber !== undefined ? { objectNumber: f.objectNumber } : {}), context });
const gsOk = (m: ValidationModel, ok: (g: PDFDict) => boolean, context: (g: PDFDict) => string): RuleOutcome =>
  eachOf(graphicsObjects(m).extGStates, (f) => ok(f.obj), (f) => ex(f, context(f.obj)));

interface Halftone {
  dict: PDFDict;
  /** The colorant a type 5 component is for; null for a top-level halftone. */
  colorant: string | null;
  found: Found<PDFDict>;
}

/** Every halftone of every graphics state: the HT entry and, for type 5, each colorant's component. */
const halftones = fact('graphics-halftones', (m): Halftone[] => {
  const out: Halftone[] = [];
  const seen = new Set<PDFDict>();
  for (const f of graphicsObjects(m).extGStates) {
    const ht = dictOf(m.context, f.obj.get(name('HT')));
    if (!ht || seen.has(ht)) continue;
    seen.add(ht);
    out.push({ dict: ht, colorant: null, found: f });
    if (getNumber(ht, 'HalftoneType') !== 5) continue;
    for (const [k, v] of ht.entries()) {
      const key = k.decodeText();
      if (key === 'Type' || key === 'HalftoneType' || key === 'HalftoneName') continue;
      const sub = dictOf(m.context, v);
      if (sub) out.push({ dict: sub, colorant: key, found: f });
    }
  }
  return out;
});

function dictOf(ctx: PDFContext, v: Parameters<PDFContext['lookup']>[0] | undefined): PDFDict | undefined {
  const o = resolve(ctx, v);
  return o instanceof PDFDict ? o : o instanceof PDFStream ? o.dict : undefined;
}

const PROCESS_COLORANTS = new Set(['Cyan', 'Magenta', 'Yellow', 'Black']);
const STANDARD_INTENTS = new Set(['RelativeColorimetric', 'AbsoluteColorimetric', 'Perceptual', 'Saturation']);

interface IntentUse {
  intent: string;
  page: number | undefined;
  objectNumber: number | undefined;
  where: string;
  /** Where the intent is given: a graphics state, an image dictionary, or content (`ri`, inline image). */
  kind: 'extgstate' | 'image' | 'content';
}

/** Rendering intents named anywhere: graphics states, images, inline images, `ri`. */
const renderingIntents = fact('graphics-rendering-intents', (m): IntentUse[] => {
  const out: IntentUse[] = [];
  const objs = graphicsObjects(m);
  for (const f of objs.extGStates) {
    const ri = f.obj.lookup(name('RI'));
    if (ri instanceof PDFName) out.push({ intent: ri.decodeText(), page: f.pages[0], objectNumber: f.objectNumber, where: 'graphics state RI', kind: 'extgstate' });
  }
  for (const f of objs.images) {
    const ri = f.obj.dict.lookup(name('Intent'));
    if (ri instanceof PDFName) out.push({ intent: ri.decodeText(), page: f.pages[0], objectNumber: f.objectNumber, where: 'image Intent', kind: 'image' });
  }
  const use = collected(m, graphicsUse);
  for (const r of use.riOperators) out.push({ intent: r.intent, page: r.page, objectNumber: undefined, where: 'ri operator', kind: 'content' });
  for (const i of use.inlineImages) {
    const intent = nameOperand(i.entries['Intent']);
    if (intent !== undefined) out.push({ intent, page: i.page, objectNumber: undefined, where: 'inline image Intent', kind: 'content' });
  }
  return out;
});

/*
 * One requirement (ISO 19005-1 6.2.9, 19005-2 6.2.6: only the four standard
 * intents), reported under the clause of the object carrying the intent: the
 * veraPDF corpus files an RI in a graphics state under the graphics state
 * clause and an image Intent under the image clause.
 */
const intents = (m: ValidationModel, kind: IntentUse['kind']): RuleOutcome =>
  eachOf(
    renderingIntents(m).filter((r) => r.kind === kind),
    (r) => STANDARD_INTENTS.has(r.intent),
    (r) => ({ ...(r.page !== undefined ? { page: r.page } : {}), ...(r.objectNumber !== undefined ? { objectNumber: r.objectNumber } : {}), context: `${r.where} ${r.intent}` }),
  );

export const EXT_GSTATE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.extgstate.transfer',
    clauses: { 1: '6.2.8', 2: '6.2.5', 3: '6.2.5', 4: '6.2.5' },
    description: 'A graphics state parameter dictionary shall not contain a transfer function (TR).',
    test: (m) => gsOk(m, (g) => !g.has(name('TR')), () => 'graphics state has a TR transfer function'),
  },
  {
    id: 'pdfa.extgstate.transfer2',
    clauses: { 1: '6.2.8', 2: '6.2.5', 3: '6.2.5', 4: '6.2.5' },
    description: 'A graphics state parameter dictionary shall contain TR2 only with the value Default.',
    test: (m) => gsOk(m, (g) => !g.has(name('TR2')) || getName(g, 'TR2') === 'Default', () => 'graphics state has a TR2 transfer function other than Default'),
  },
  {
    id: 'pdfa.extgstate.halftone-phase',
    clauses: { 2: '6.2.5', 3: '6.2.5' },
    description: 'A graphics state parameter dictionary shall not contain a halftone phase (HTP).',
    test: (m) => gsOk(m, (g) => !g.has(name('HTP')), () => 'graphics state has an HTP halftone phase'),
  },
  {
    id: 'pdfa.extgstate.halftone-origin',
    clauses: { 4: '6.2.5' },
    description: 'A graphics state parameter dictionary shall not contain a halftone origin (HTO).',
    test: (m) => gsOk(m, (g) => !g.has(name('HTO')), () => 'graphics state has an HTO halftone origin'),
  },
  {
    id: 'pdfa.halftone.type',
    clauses: { 2: '6.2.5', 3: '6.2.5', 4: '6.2.5' },
    description: 'Every halftone shall have a HalftoneType of 1 or 5.',
    test: (m) =>
      eachOf(
        halftones(m),
        (h) => {
          const t = getNumber(h.dict, 'HalftoneType');
          return t === 1 || t === 5;
        },
        (h) => ex(h.found, `halftone${h.colorant ? ` for ${h.colorant}` : ''} has HalftoneType ${getNumber(h.dict, 'HalftoneType') ?? 'missing'}`),
      ),
  },
  {
    id: 'pdfa.halftone.name',
    clauses: { 2: '6.2.5', 3: '6.2.5', 4: '6.2.5' },
    description: 'A halftone shall not contain a HalftoneName.',
    test: (m) => eachOf(halftones(m), (h) => !h.dict.has(name('HalftoneName')), (h) => ex(h.found, `halftone${h.colorant ? ` for ${h.colorant}` : ''} has a HalftoneName`)),
  },
  {
    id: 'pdfa.halftone.transfer',
    clauses: { 2: '6.2.5', 3: '6.2.5', 4: '6.2.5' },
    description:
      'A halftone shall have a TransferFunction only where ISO 32000 requires one: not in a top-level halftone or one for a process colorant (Cyan, Magenta, Yellow, Black), always in one for another colorant (Default excepted).',
    test: (m) =>
      eachOf(
        halftones(m),
        (h) => {
          if (h.colorant === 'Default') return true;
          const has = h.dict.has(name('TransferFunction'));
          return h.colorant === null || PROCESS_COLORANTS.has(h.colorant) ? !has : has;
        },
        (h) =>
          ex(h.found, h.dict.has(name('TransferFunction')) ? `halftone${h.colorant ? ` for ${h.colorant}` : ''} has a TransferFunction` : `halftone for colorant ${h.colorant} lacks a TransferFunction`),
      ),
  },
  {
    id: 'pdfa.extgstate.rendering-intent',
    clauses: { 1: '6.2.8', 2: '6.2.5', 3: '6.2.5' },
    description: 'The rendering intent (RI) of a graphics state parameter dictionary shall be RelativeColorimetric, AbsoluteColorimetric, Perceptual or Saturation.',
    test: (m) => intents(m, 'extgstate'),
  },
  {
    id: 'pdfa.image.rendering-intent',
    clauses: { 1: '6.2.4', 2: '6.2.8.1', 3: '6.2.8.1' },
    description: 'The rendering intent (Intent) of an image dictionary shall be RelativeColorimetric, AbsoluteColorimetric, Perceptual or Saturation.',
    test: (m) => intents(m, 'image'),
  },
  {
    id: 'pdfa.rendering-intent',
    clauses: { 1: '6.2.9', 2: '6.2.6', 3: '6.2.6' },
    description: 'A rendering intent named in content (the ri operator, an inline image Intent) shall be RelativeColorimetric, AbsoluteColorimetric, Perceptual or Saturation.',
    test: (m) => intents(m, 'content'),
  },
];
