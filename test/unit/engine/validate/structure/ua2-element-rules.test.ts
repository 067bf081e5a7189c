/**
 * PDF/UA-2 requirements on particular structure types (ISO 14289-2 8.2.5.8,
 * 8.2.5.14, 8.2.5.23, 8.2.5.24, 8.2.5.27, 8.2.5.29): for each rule, a tree that
 * breaks exactly that requirement reports the rule with its clause, and the
 * corrected tree does not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFString, type PDFRef } from '@cantoo/pdf-lib';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('structure-gaps');

type Ns = 'pdf2' | 'pdf17' | 'mathml';
const NS_URI: Record<Ns, string> = { pdf2: 'http://iso.org/pdf2/ssn', pdf17: 'http://iso.org/pdf/ssn', mathml: 'http://www.w3.org/1998/Math/MathML' };

/** A structure element: type, namespace, a label other elements' Ref can name, Ref targets, attributes, children. */
interface El {
  s: string;
  ns?: Ns;
  label?: string;
  ref?: string[];
  attrs?: Record<string, unknown>;
  kids?: El[];
}
const el = (s: string, kids: El[] = [], more: Omit<El, 's' | 'kids'> = {}): El => ({ s, kids, ...more });
/** Element of the PDF 2.0 namespace. */
const e2 = (s: string, kids: El[] = [], more: Omit<El, 's' | 'kids'> = {}): El => el(s, kids, { ns: 'pdf2', ...more });
const math = (s: string, kids: El[] = []): El => el(s, kids, { ns: 'mathml' });

let base: Uint8Array;
beforeAll(async () => {
  base = await buildPdf(pdfuaSpec(2));
});

/**
 * The PDF/UA-2 fixture with its structure tree replaced by Document (PDF 2.0) holding
 * `kids`. Namespaces pdf2, pdf17 and mathml are declared; `roleMapNS17` maps PDF 1.7
 * types to PDF 2.0 types through the PDF 1.7 namespace's RoleMapNS.
 */
async function tree(kids: El[], roleMapNS17: Record<string, string> = {}) {
  return mutatePdf(base, (doc) => {
    const ctx = doc.context;
    const nsRefs = {} as Record<Ns, PDFRef>;
    for (const ns of Object.keys(NS_URI) as Ns[]) nsRefs[ns] = ctx.nextRef();
    for (const ns of Object.keys(NS_URI) as Ns[]) {
      const d = ctx.obj({ Type: 'Namespace', NS: PDFString.of(NS_URI[ns]) } as never) as unknown as PDFDict;
      if (ns === 'pdf17' && Object.keys(roleMapNS17).length) {
        d.set(PDFName.of('RoleMapNS'), ctx.obj(Object.fromEntries(Object.entries(roleMapNS17).map(([k, v]) => [k, ctx.obj([PDFName.of(v), nsRefs.pdf2])])) as never));
      }
      ctx.assign(nsRefs[ns], d);
    }
    const root = doc.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
    const rootRef = doc.catalog.get(PDFName.of('StructTreeRoot')) as PDFRef;
    // Two passes: every element gets its reference first, so Ref entries can name any element.
    const labelled = new Map<string, PDFRef>();
    const refs = new Map<El, PDFRef>();
    const allocate = (e: El) => {
      const r = ctx.nextRef();
      refs.set(e, r);
      if (e.label) labelled.set(e.label, r);
      e.kids?.forEach(allocate);
    };
    const make = (e: El, parent: PDFRef) => {
      const ref = refs.get(e)!;
      const dict = ctx.obj({ Type: 'StructElem', S: e.s, P: parent } as never) as unknown as PDFDict;
      if (e.ns) dict.set(PDFName.of('NS'), nsRefs[e.ns]);
      if (e.ref) dict.set(PDFName.of('Ref'), ctx.obj(e.ref.map((l) => labelled.get(l)!)));
      if (e.attrs) dict.set(PDFName.of('A'), ctx.obj(e.attrs as never));
      if (e.kids?.length) dict.set(PDFName.of('K'), ctx.obj(e.kids.map((k) => refs.get(k)!)));
      ctx.assign(ref, dict);
      e.kids?.forEach((k) => make(k, ref));
    };
    const document = e2('Document', kids);
    allocate(document);
    make(document, rootRef);
    root.set(PDFName.of('K'), refs.get(document)!);
    root.set(PDFName.of('Namespaces'), ctx.obj(Object.values(nsRefs)));
  });
}

async function failures(bytes: Uint8Array) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: ['ua2'] });
  return r.profiles[0]!.failures;
}
async function ruleIds(bytes: Uint8Array) {
  return (await failures(bytes)).map((f) => f.ruleId);
}
/** Asserts `rule` is reported with `clause` for `bad` and not reported for `good`. */
async function expectRule(rule: string, clause: string, bad: El[] | Uint8Array, good: El[] | Uint8Array) {
  const badBytes = bad instanceof Uint8Array ? bad : await tree(bad);
  const goodBytes = good instanceof Uint8Array ? good : await tree(good);
  const f = (await failures(badBytes)).find((x) => x.ruleId === rule);
  expect(f, `${rule} on the violating tree`).toMatchObject({ clause });
  expect(await ruleIds(goodBytes)).not.toContain(rule);
}

describe('table of contents (UA-2 8.2.5.8)', () => {
  it('requires each TOCI to name its target with Ref, on itself or a descendant', async () => {
    const toc = (item: El) => [el('TOC', [item])];
    await expectRule('pdfua.toc.item-ref', '8.2.5.8', toc(el('TOCI', [e2('P')])), toc(el('TOCI', [e2('P', [e2('Link', [], { ref: ['target'] })])])));
    await expectRule('pdfua.toc.item-ref', '8.2.5.8', toc(el('TOCI')), [...toc(el('TOCI', [], { ref: ['target'] })), e2('H1', [], { label: 'target' })]);
  });
});

describe('notes (UA-2 8.2.5.14)', () => {
  it('rejects the PDF 1.7 Note type unless it is role mapped into the PDF 2.0 namespace', async () => {
    const bad = await tree([el('Note'), el('Note', [], { ns: 'pdf17' })]);
    const good = await tree([el('Note', [], { ns: 'pdf17' })], { Note: 'FENote' });
    await expectRule('pdfua.note.not-used', '8.2.5.14', bad, good);
    expect((await failures(bad)).find((f) => f.ruleId === 'pdfua.note.not-used')?.occurrences).toBe(2);
  });

  it('requires a FENote to list, in Ref, every element that refers to it', async () => {
    const citation = e2('Span', [], { label: 'cite', ref: ['note'] });
    await expectRule(
      'pdfua.fenote.referrers-listed',
      '8.2.5.14',
      [e2('P', [citation]), e2('FENote', [], { label: 'note' })],
      [e2('P', [citation]), e2('FENote', [], { label: 'note', ref: ['cite'] })],
    );
  });

  it('requires every element a FENote lists in Ref to refer back to it', async () => {
    await expectRule(
      'pdfua.fenote.refs-reciprocal',
      '8.2.5.14',
      [e2('P', [e2('Span', [], { label: 'cite' })]), e2('FENote', [], { label: 'note', ref: ['cite'] })],
      [e2('P', [e2('Span', [], { label: 'cite', ref: ['note'] })]), e2('FENote', [], { label: 'note', ref: ['cite'] })],
    );
  });

  it('accepts only Footnote, Endnote and None as NoteType', async () => {
    const note = (type: string) => [e2('FENote', [], { attrs: { O: PDFName.of('FENote'), NoteType: PDFName.of(type) } })];
    await expectRule('pdfua.fenote.note-type', '8.2.5.14', note('Sidenote'), note('Footnote'));
    expect(await ruleIds(await tree(note('Endnote')))).not.toContain('pdfua.fenote.note-type');
    expect(await ruleIds(await tree([e2('FENote')]))).not.toContain('pdfua.fenote.note-type');
  });
});

describe('ruby and warichu (UA-2 8.2.5.23, 8.2.5.24)', () => {
  it('requires Ruby to hold RB, RT or RB, RP, RT, RP', async () => {
    const ruby = (...kids: string[]) => [e2('P', [e2('Ruby', kids.map((k) => e2(k)))])];
    await expectRule('pdfua.ruby.children', '8.2.5.23', ruby('RB', 'RB', 'RT'), ruby('RB', 'RT'));
    await expectRule('pdfua.ruby.children', '8.2.5.23', ruby('RT', 'RB'), ruby('RB', 'RP', 'RT', 'RP'));
  });

  it('requires Warichu to hold WP, WT, WP', async () => {
    const warichu = (...kids: string[]) => [e2('P', [e2('Warichu', kids.map((k) => e2(k)))])];
    await expectRule('pdfua.warichu.children', '8.2.5.24', warichu('WT'), warichu('WP', 'WT', 'WP'));
  });
});

describe('captions (UA-2 8.2.5.27)', () => {
  it('requires a Caption to be the first or last child', async () => {
    await expectRule(
      'pdfua.caption.position',
      '8.2.5.27',
      [e2('Div', [e2('Figure'), e2('Caption'), e2('P')])],
      [e2('Div', [e2('Caption'), e2('Figure'), e2('P')]), e2('Div', [e2('Figure'), e2('P'), e2('Caption')])],
    );
  });
});

describe('MathML (UA-2 8.2.5.29)', () => {
  it('accepts math only inside a Formula', async () => {
    await expectRule(
      'pdfua.math.in-formula',
      '8.2.5.29',
      [e2('P', [math('math', [math('mi')])])],
      [e2('Formula', [math('math', [math('mi'), math('mo')])]), e2('Formula', [e2('Div', [math('math')])])],
    );
  });
});
