import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { buildPdf, mutatePdf, pdfaSpec, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('structure');

/** A structure element: type, optional extra entries, children. */
interface El {
  s: string;
  entries?: Record<string, unknown>;
  attrs?: Record<string, unknown>;
  kids?: El[];
}
const el = (s: string, kids: El[] = [], entries?: Record<string, unknown>, attrs?: Record<string, unknown>): El => ({ s, kids, ...(entries ? { entries } : {}), ...(attrs ? { attrs } : {}) });

/** Replaces the fixture's structure tree root children with `kids` and applies `root` entries (RoleMap, Namespaces). */
async function tagged(profile: ValidateProfileCode, kids: El[], root: (doc: PDFDocument) => Record<string, unknown> = () => ({})) {
  const spec = profile === 'ua1' ? pdfuaSpec(1) : profile === 'ua2' ? pdfuaSpec(2) : pdfaSpec(2, 'A');
  return mutatePdf(await buildPdf(spec), (doc) => {
    const ctx = doc.context;
    const rootDict = doc.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
    const rootRef = doc.catalog.get(PDFName.of('StructTreeRoot')) as PDFRef;
    const make = (e: El, parent: PDFRef): PDFRef => {
      const ref = ctx.nextRef();
      const dict = ctx.obj({ Type: 'StructElem', S: e.s, P: parent } as never) as unknown as PDFDict;
      for (const [k, v] of Object.entries(e.entries ?? {})) dict.set(PDFName.of(k), ctx.obj(v as never));
      if (e.attrs) dict.set(PDFName.of('A'), ctx.obj({ O: 'Table', ...e.attrs } as never));
      ctx.assign(ref, dict);
      if (e.kids?.length) dict.set(PDFName.of('K'), ctx.obj(e.kids.map((k) => make(k, ref))));
      return ref;
    };
    rootDict.set(PDFName.of('K'), ctx.obj(kids.map((k) => make(k, rootRef))));
    for (const [k, v] of Object.entries(root(doc))) rootDict.set(PDFName.of(k), v as never);
  });
}

async function failures(profile: ValidateProfileCode, bytes: Uint8Array) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}
async function ruleIds(profile: ValidateProfileCode, bytes: Uint8Array) {
  return (await failures(profile, bytes)).map((f) => f.ruleId);
}

const roleMap = (entries: Record<string, string>) => (doc: PDFDocument) => ({ RoleMap: doc.context.obj(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, PDFName.of(v)])) as never) });
const text = (s: string) => PDFString.of(s);

describe('structure types and role mapping', () => {
  it('accepts a non-standard type mapped to a standard one and rejects one mapped nowhere (UA-1 7.1, PDF/A-2a 6.7.3.4)', async () => {
    expect(await ruleIds('ua1', await tagged('ua1', [el('Document', [el('Body')])], roleMap({ Body: 'P' })))).not.toContain('structure.types.mapped');
    const bad = await failures('ua1', await tagged('ua1', [el('Document', [el('Body')])], roleMap({ Body: 'Text' })));
    expect(bad.find((f) => f.ruleId === 'structure.types.mapped')).toMatchObject({ clause: '7.1' });
    expect(await ruleIds('2a', await tagged('2a', [el('Document', [el('Body')])]))).toContain('structure.types.mapped');
  });

  it('rejects circular role maps and remapped standard types', async () => {
    const circular = await ruleIds('ua1', await tagged('ua1', [el('Document', [el('A1')])], roleMap({ A1: 'B1', B1: 'A1' })));
    expect(circular).toContain('structure.types.circular');
    const remapped = await ruleIds('2a', await tagged('2a', [el('Document', [el('P')])], roleMap({ P: 'Para' })));
    expect(remapped).toContain('structure.types.standard-remapped');
  });

  it('resolves PDF 2.0 namespaces and rejects mapping inside one namespace (UA-2 8.2.4)', async () => {
    const withNs = (selfMap: boolean) => async () => {
      const bytes = await buildPdf(pdfuaSpec(2));
      return mutatePdf(bytes, (doc) => {
        const ctx = doc.context;
        const pdf2 = ctx.register(ctx.obj({ Type: 'Namespace', NS: text('http://iso.org/pdf2/ssn') } as never));
        const own = ctx.nextRef();
        ctx.assign(own, ctx.obj({ Type: 'Namespace', NS: text('http://example.com/ns'), RoleMapNS: ctx.obj({ Para: ctx.obj([PDFName.of(selfMap ? 'Block' : 'P'), selfMap ? own : pdf2]), Block: ctx.obj([PDFName.of('P'), pdf2]) }) } as never));
        const root = doc.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
        const rootRef = doc.catalog.get(PDFName.of('StructTreeRoot')) as PDFRef;
        const docRef = ctx.nextRef();
        const para = ctx.register(ctx.obj({ Type: 'StructElem', S: 'Para', NS: own, P: docRef } as never));
        ctx.assign(docRef, ctx.obj({ Type: 'StructElem', S: 'Document', NS: pdf2, P: rootRef, K: ctx.obj([para]) } as never));
        root.set(PDFName.of('K'), docRef);
        root.set(PDFName.of('Namespaces'), ctx.obj([pdf2, own]));
      });
    };
    const good = await ruleIds('ua2', await withNs(false)());
    expect(good).not.toContain('structure.types.namespace');
    expect(good).not.toContain('pdfua.structure.document-namespace');
    expect(good).not.toContain('pdfua.structure.same-namespace-mapping');
    expect(await ruleIds('ua2', await withNs(true)())).toContain('pdfua.structure.same-namespace-mapping');
  });

  it('requires the root Document of a PDF/UA-2 file to be in the PDF 2.0 namespace', async () => {
    expect(await ruleIds('ua2', await tagged('ua2', [el('Document')]))).toContain('pdfua.structure.document-namespace');
  });
});

describe('particular structure types (PDF/UA-1)', () => {
  it('requires Alt or ActualText on Figure and Formula', async () => {
    const none = await failures('ua1', await tagged('ua1', [el('Document', [el('Figure'), el('Formula', [], { Alt: text('') })])]));
    expect(none.find((f) => f.ruleId === 'pdfua.figure.alt')).toMatchObject({ clause: '7.3' });
    expect(none.find((f) => f.ruleId === 'pdfua.formula.alt')).toMatchObject({ clause: '7.7' });
    const ok = await ruleIds('ua1', await tagged('ua1', [el('Document', [el('Figure', [], { Alt: text('A logo') }), el('Formula', [], { ActualText: text('E = mc2') })])]));
    expect(ok).not.toContain('pdfua.figure.alt');
    expect(ok).not.toContain('pdfua.formula.alt');
  });

  it('requires unique IDs on notes', async () => {
    expect(await ruleIds('ua1', await tagged('ua1', [el('Document', [el('Note')])]))).toContain('pdfua.note.id');
    const dup = await ruleIds('ua1', await tagged('ua1', [el('Document', [el('Note', [], { ID: text('n1') }), el('Note', [], { ID: text('n1') })])]));
    expect(dup).toContain('pdfua.note.unique-id');
  });

  it('rejects skipped heading levels and mixed H / Hn', async () => {
    expect(await ruleIds('ua1', await tagged('ua1', [el('Document', [el('H1'), el('H2'), el('H3'), el('H2')])]))).not.toContain('pdfua.headings.nesting');
    expect(await ruleIds('ua1', await tagged('ua1', [el('Document', [el('H1'), el('H3')])]))).toContain('pdfua.headings.nesting');
    expect(await ruleIds('ua1', await tagged('ua1', [el('Document', [el('H2')])]))).toContain('pdfua.headings.nesting');
    const mixed = await ruleIds('ua1', await tagged('ua1', [el('Document', [el('Sect', [el('H')]), el('Sect', [el('H1')])])]));
    expect(mixed).toContain('pdfua.headings.h-or-hn');
    expect(await ruleIds('ua1', await tagged('ua1', [el('Document', [el('H'), el('H')])]))).toContain('pdfua.headings.one-h-per-node');
  });
});

describe('tables', () => {
  const cell = (s: 'TH' | 'TD', attrs?: Record<string, unknown>, entries?: Record<string, unknown>) => el(s, [], { K: 0, ...entries }, attrs);
  const scope = (s: string) => ({ Scope: PDFName.of(s) });

  it('ties data cells to headers by Scope or Headers (UA-1 7.5)', async () => {
    const scoped = [el('Document', [el('Table', [el('TR', [cell('TH', scope('Column')), cell('TH', scope('Column'))]), el('TR', [cell('TD'), cell('TD')])])])];
    expect(await ruleIds('ua1', await tagged('ua1', scoped))).not.toContain('pdfua.table.headers');
    const unscoped = [el('Document', [el('Table', [el('TR', [cell('TH'), cell('TH')]), el('TR', [cell('TD'), cell('TD')])])])];
    const f = await failures('ua1', await tagged('ua1', unscoped));
    expect(f.find((x) => x.ruleId === 'pdfua.table.headers')).toMatchObject({ clause: '7.5', occurrences: 2 });
    const byId = (id: string) => [el('Document', [el('Table', [el('TR', [cell('TH', undefined, { ID: text('h') })]), el('TR', [cell('TD', { Headers: [text(id)] })])])])];
    expect(await ruleIds('ua1', await tagged('ua1', byId('h')))).not.toContain('pdfua.table.headers-known');
    expect(await ruleIds('ua1', await tagged('ua1', byId('nope')))).toContain('pdfua.table.headers-known');
  });

  it('requires regular tables in PDF/UA-2 (8.2.5.26)', async () => {
    const regular = [el('Document', [el('Table', [el('TR', [cell('TH', { ...scope('Column'), ColSpan: 2 })]), el('TR', [cell('TD'), cell('TD')])])])];
    const ok = await ruleIds('ua2', await tagged('ua2', regular));
    expect(ok).not.toContain('pdfua.table.row-widths');
    const ragged = [el('Document', [el('Table', [el('TR', [cell('TH', scope('Column'))]), el('TR', [cell('TD'), cell('TD')])])])];
    expect(await ruleIds('ua2', await tagged('ua2', ragged))).toContain('pdfua.table.row-widths');
    const tooLong = [el('Document', [el('Table', [el('TR', [cell('TH', { ...scope('Row'), RowSpan: 3 }), cell('TD')]), el('TR', [cell('TD')])])])];
    expect(await ruleIds('ua2', await tagged('ua2', tooLong))).toContain('pdfua.table.row-spans');
  });
});
