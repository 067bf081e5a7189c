import { describe, expect, it } from 'vitest';
import { PDFDict, PDFName, PDFString, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { INTERACTIVE_RULES } from '../../../../../lambdas/engine/validate/interactive/rules';
import { buildPdf, mutatePdf, pdfaSpec, pdfuaSpec, type PdfSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

const files = tempFiles('interactive');

async function failuresOf(bytes: Uint8Array, profile: ValidateProfileCode) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}

/** Rule ids that failed, for a fixture built from a spec and an edit. */
async function failing(spec: PdfSpec, profile: ValidateProfileCode, edit?: (d: PDFDocument) => void): Promise<string[]> {
  let bytes = await buildPdf(spec);
  if (edit) bytes = await mutatePdf(bytes, edit);
  return (await failuresOf(bytes, profile)).map((f) => f.ruleId);
}

const page0 = (d: PDFDocument) => d.getPage(0).node;

/** An appearance stream (an empty form XObject). */
function appearance(d: PDFDocument): PDFRef {
  return d.context.register(d.context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10] }));
}

/** Adds an annotation to page 1; a printable Square with a normal appearance unless entries say otherwise. */
function addAnnot(d: PDFDocument, entries: Record<string, unknown> = {}): { ref: PDFRef; dict: PDFDict } {
  // An entry given as undefined is left out (to build an annotation without F or AP).
  const all: Record<string, unknown> = { Type: 'Annot', Subtype: 'Square', Rect: [50, 50, 150, 150], F: 4, AP: d.context.obj({ N: appearance(d) }), ...entries };
  const dict = d.context.obj(Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as never) as unknown as PDFDict;
  const ref = d.context.register(dict);
  const annots = page0(d).lookup(PDFName.of('Annots'));
  if (annots && 'push' in (annots as object)) (annots as unknown as { push(r: PDFRef): void }).push(ref);
  else page0(d).set(PDFName.of('Annots'), d.context.obj([ref]));
  return { ref, dict };
}

describe('PDF/A annotations', () => {
  it('accepts a printable annotation with a single normal appearance stream', async () => {
    const ids = await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d));
    expect(ids.filter((id) => id.startsWith('pdfa.annotations'))).toEqual([]);
  });

  it('rejects annotation types a part does not allow, and allows 3D only in PDF/A-4e', async () => {
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { Subtype: 'Movie' }))).toContain('pdfa.annotations.types');
    expect(await failing(pdfaSpec(1, 'B'), '1b', (d) => addAnnot(d, { Subtype: 'Polygon' }))).toContain('pdfa.annotations.types');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { Subtype: 'Polygon' }))).not.toContain('pdfa.annotations.types');
    expect(await failing(pdfaSpec(4), '4', (d) => addAnnot(d, { Subtype: '3D' }))).toContain('pdfa.annotations.types');
    expect(await failing(pdfaSpec(4, 'E'), '4e', (d) => addAnnot(d, { Subtype: '3D' }))).not.toContain('pdfa.annotations.types');
    expect(await failing(pdfaSpec(4), '4', (d) => addAnnot(d, { Subtype: 'FileAttachment' }))).toContain('pdfa.annotations.types');
  });

  it('requires the F key (except on popups) with Print set and the hiding flags clear', async () => {
    const noF = await failuresOf(await mutatePdf(await buildPdf(pdfaSpec(2, 'B')), (d) => addAnnot(d, { F: undefined })), '2b');
    const f = noF.find((x) => x.ruleId === 'pdfa.annotations.flags-present');
    expect(f).toMatchObject({ clause: '6.3.2', examples: [{ page: 1, objectNumber: expect.any(Number), context: 'Square annotation: no F key' }] });
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { Subtype: 'Popup', F: undefined, AP: undefined }))).not.toContain('pdfa.annotations.flags-present');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { F: 4 | 2 }))).toContain('pdfa.annotations.flags');
    expect(await failing(pdfaSpec(4), '4', (d) => addAnnot(d, { F: 0 }))).toContain('pdfa.annotations.flags');
    // ToggleNoView is a PDF 1.5 flag PDF/A-1 does not mention.
    expect(await failing(pdfaSpec(1, 'B'), '1b', (d) => addAnnot(d, { F: 4 | 256 }))).not.toContain('pdfa.annotations.flags');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { F: 4 | 256 }))).toContain('pdfa.annotations.flags');
  });

  it('forbids annotation opacity in PDF/A-1', async () => {
    expect(await failing(pdfaSpec(1, 'B'), '1b', (d) => addAnnot(d, { CA: 0.5 }))).toContain('pdfa.annotations.opacity');
    expect(await failing(pdfaSpec(1, 'B'), '1b', (d) => addAnnot(d, { CA: 1 }))).not.toContain('pdfa.annotations.opacity');
  });

  it('requires an appearance, except for links, popups and zero-size annotations', async () => {
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { AP: undefined }))).toContain('pdfa.annotations.appearance-present');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { Subtype: 'Link', AP: undefined }))).not.toContain('pdfa.annotations.appearance-present');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { AP: undefined, Rect: [10, 10, 10, 10] }))).not.toContain('pdfa.annotations.appearance-present');
  });

  it('allows only a normal appearance: a stream, or for buttons a subdictionary of state streams', async () => {
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { AP: d.context.obj({ N: appearance(d), D: appearance(d) }) }))).toContain('pdfa.annotations.appearance-normal-only');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => addAnnot(d, { AP: d.context.obj({ N: d.context.obj({ On: appearance(d) }) }) }))).toContain('pdfa.annotations.appearance-stream');
    const button = (d: PDFDocument, n: unknown) => addAnnot(d, { Subtype: 'Widget', FT: 'Btn', T: PDFString.of('b'), AP: d.context.obj({ N: n } as never) });
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => button(d, appearance(d)))).toContain('pdfa.annotations.appearance-button');
    const ok = await failing(pdfaSpec(2, 'B'), '2b', (d) => button(d, d.context.obj({ On: appearance(d), Off: appearance(d) })));
    expect(ok.filter((id) => id.startsWith('pdfa.annotations'))).toEqual([]);
  });
});

describe('PDF/A forms and actions', () => {
  const acroForm = (d: PDFDocument, entries: Record<string, unknown>) => d.catalog.set(PDFName.of('AcroForm'), d.context.obj({ Fields: [], ...entries } as never));

  it('forbids NeedAppearances true and XFA', async () => {
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => acroForm(d, { NeedAppearances: true }))).toContain('pdfa.forms.need-appearances');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => acroForm(d, { NeedAppearances: false }))).not.toContain('pdfa.forms.need-appearances');
    expect(await failing(pdfaSpec(4), '4', (d) => acroForm(d, { XFA: d.context.obj([]) }))).toContain('pdfa.forms.xfa');
  });

  it('forbids additional actions on a form field in PDF/A-2', async () => {
    const ids = await failing(pdfaSpec(2, 'B'), '2b', (d) => {
      const field = d.context.register(d.context.obj({ FT: 'Tx', T: PDFString.of('name'), AA: d.context.obj({ K: d.context.obj({ S: 'JavaScript', JS: PDFString.of('x') }) }) }));
      acroForm(d, { Fields: [field] });
    });
    expect(ids).toContain('pdfa.actions.field-additional');
  });

  it('requires an appearance for every widget in PDF/A-1', async () => {
    expect(await failing(pdfaSpec(1, 'B'), '1b', (d) => addAnnot(d, { Subtype: 'Widget', FT: 'Tx', AP: undefined }))).toContain('pdfa.forms.widget-appearance');
  });

  it('forbids alternate presentations and presentation steps in PDF/A-4', async () => {
    expect(await failing(pdfaSpec(4), '4', (d) => d.catalog.set(PDFName.of('Names'), d.context.obj({ AlternatePresentations: d.context.obj({ Names: [] }) })))).toContain('pdfa.alternate-presentations');
    expect(await failing(pdfaSpec(4), '4', (d) => page0(d).set(PDFName.of('PresSteps'), d.context.obj({})))).toContain('pdfa.page-transitions');
  });
});

describe('optional content', () => {
  const oc = (d: PDFDocument, config: Record<string, unknown>, configs: Record<string, unknown>[] = []) => {
    const group = d.context.register(d.context.obj({ Type: 'OCG', Name: PDFString.of('Layer') }));
    d.catalog.set(PDFName.of('OCProperties'), d.context.obj({ OCGs: [group], D: d.context.obj(config as never), Configs: configs.map((c) => d.context.obj(c as never)) } as never));
    return group;
  };

  it('requires named, uniquely named configurations without AS', async () => {
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => oc(d, {}))).toContain('optional-content.config-name');
    expect(await failing(pdfaSpec(2, 'B'), '2b', (d) => oc(d, { Name: PDFString.of('View') }, [{ Name: PDFString.of('View') }]))).toContain('pdfa.optional-content.unique-names');
    expect(await failing(pdfuaSpec(1), 'ua1', (d) => oc(d, { Name: PDFString.of('View'), AS: [] }))).toContain('optional-content.no-auto-state');
    const ok = await failing(pdfaSpec(2, 'B'), '2b', (d) => oc(d, { Name: PDFString.of('View') }));
    expect(ok.filter((id) => id.includes('optional-content'))).toEqual([]);
  });

  it('requires an Order array to list every group', async () => {
    expect(await failing(pdfaSpec(4), '4', (d) => oc(d, { Name: PDFString.of('View'), Order: [] }))).toContain('pdfa.optional-content.order');
    const ok = await failing(pdfaSpec(4), '4', (d) => {
      const holder = d.context.obj({ Name: PDFString.of('View') }) as PDFDict;
      const group = oc(d, {});
      holder.set(PDFName.of('Order'), d.context.obj([group]));
      (d.catalog.lookup(PDFName.of('OCProperties')) as PDFDict).set(PDFName.of('D'), holder);
    });
    expect(ok).not.toContain('pdfa.optional-content.order');
  });
});

describe('embedded files', () => {
  const attachment = { name: 'notes.txt', bytes: Buffer.from('hello'), mimeType: 'text/plain', afRelationship: true };

  it('requires a PDF/A-3 embedded file to be associated through an AF array', async () => {
    expect(await failing(pdfaSpec(3, 'B', { embeddedFile: attachment }), '3b', (d) => d.catalog.delete(PDFName.of('AF')))).toContain('pdfa.embedded-files.associated');
  });

  it('requires a description of each embedded file in PDF/UA-2', async () => {
    expect(await failing(pdfuaSpec(2, { embeddedFile: attachment }), 'ua2')).toContain('pdfua.embedded-files.description');
  });
});

describe('PDF/UA annotations', () => {
  /** Tags the annotation with a structure element of the given type under the Document element. */
  function tag(d: PDFDocument, annot: { ref: PDFRef; dict: PDFDict }, type: string, extra: Record<string, unknown> = {}) {
    const root = d.catalog.lookup(PDFName.of('StructTreeRoot')) as PDFDict;
    const docElem = root.lookup(PDFName.of('K')) as PDFDict;
    const objr = d.context.obj({ Type: 'OBJR', Obj: annot.ref, Pg: d.getPage(0).ref });
    const el = d.context.register(d.context.obj({ Type: 'StructElem', S: type, P: root.get(PDFName.of('K')), Pg: d.getPage(0).ref, K: [objr], ...extra } as never));
    docElem.set(PDFName.of('K'), d.context.obj([el]));
    root.set(PDFName.of('ParentTree'), d.context.obj({ Nums: [0, el] }));
    annot.dict.set(PDFName.of('StructParent'), d.context.obj(0));
  }

  it('accepts a tagged, described link on a page with structure tab order', async () => {
    const ids = await failing(pdfuaSpec(1), 'ua1', (d) => {
      page0(d).set(PDFName.of('Tabs'), PDFName.of('S'));
      tag(d, addAnnot(d, { Subtype: 'Link', Contents: PDFString.of('Proofline home page') }), 'Link');
    });
    expect(ids.filter((id) => /annotations|links|forms/.test(id))).toEqual([]);
  });

  it('requires links in Link elements with a description, and Tabs S', async () => {
    const ids = await failing(pdfuaSpec(1), 'ua1', (d) => tag(d, addAnnot(d, { Subtype: 'Link' }), 'Span'));
    expect(ids).toEqual(expect.arrayContaining(['pdfua.links.tagged', 'pdfua.links.description', 'pdfua.annotations.tab-order']));
  });

  it('requires other annotations in Annot elements with a text alternative, unless hidden', async () => {
    expect(await failing(pdfuaSpec(1), 'ua1', (d) => addAnnot(d))).toEqual(expect.arrayContaining(['pdfua.annotations.tagged', 'pdfua.annotations.alternative']));
    expect(await failing(pdfuaSpec(1), 'ua1', (d) => tag(d, addAnnot(d), 'Annot', { Alt: PDFString.of('A square') }))).not.toContain('pdfua.annotations.tagged');
    expect(await failing(pdfuaSpec(1), 'ua1', (d) => addAnnot(d, { F: 2 }))).not.toContain('pdfua.annotations.tagged');
  });

  it('requires widgets in Form elements and a field description', async () => {
    const ids = await failing(pdfuaSpec(1), 'ua1', (d) => addAnnot(d, { Subtype: 'Widget', FT: 'Tx', T: PDFString.of('name') }));
    expect(ids).toEqual(expect.arrayContaining(['pdfua.forms.tagged', 'pdfua.forms.description']));
    const ok = await failing(pdfuaSpec(1), 'ua1', (d) => tag(d, addAnnot(d, { Subtype: 'Widget', FT: 'Tx', T: PDFString.of('name'), TU: PDFString.of('Your name') }), 'Form'));
    expect(ok).not.toContain('pdfua.forms.tagged');
    expect(ok).not.toContain('pdfua.forms.description');
  });

  it('keeps printer marks out of the structure tree', async () => {
    expect(await failing(pdfuaSpec(1), 'ua1', (d) => tag(d, addAnnot(d, { Subtype: 'PrinterMark' }), 'Annot'))).toContain('pdfua.annotations.printer-mark');
  });

  it('requires invisible annotations to be artifacts in PDF/UA-2', async () => {
    expect(await failing(pdfuaSpec(2), 'ua2', (d) => tag(d, addAnnot(d, { F: 1 | 4 }), 'Annot'))).toContain('pdfua.annotations.hidden-artifact');
  });
});

describe('clean files', () => {
  const ours = new Set(INTERACTIVE_RULES.map((r) => r.id));
  const attachment = { name: 'notes.txt', bytes: Buffer.from('hello'), mimeType: 'text/plain', afRelationship: true };
  const clean: [ValidateProfileCode, PdfSpec][] = [
    ['1b', pdfaSpec(1, 'B')],
    ['2b', pdfaSpec(2, 'B')],
    ['3b', pdfaSpec(3, 'B', { embeddedFile: attachment })],
    ['4', pdfaSpec(4)],
    ['4f', pdfaSpec(4, 'F', { embeddedFile: attachment })],
    ['ua1', pdfuaSpec(1)],
    ['ua2', pdfuaSpec(2)],
  ];
  for (const [profile, spec] of clean) {
    it(`a plain ${profile} fixture fails no interactive-features rule`, async () => {
      expect((await failing(spec, profile)).filter((id) => ours.has(id))).toEqual([]);
    });
  }
});
