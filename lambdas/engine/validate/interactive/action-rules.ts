/**
 * Actions and trigger events (PDF/A-1 6.6, A-2/3 6.5 and 6.4.1, A-4 6.6 and
 * 6.4.1) and presentations (A-2/3 6.10, A-4 6.11): an archived file shall not run programs, play media or change
 * itself when opened or used; only navigation and form submission remain.
 */
import { PDFDict } from '@cantoo/pdf-lib';
import type { ActionSite } from '../../core/actions';
import { getDict, getName, name, resolve, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { StandardProfile } from '../profiles';
import { condition, eachOf, type Example, type Rule } from '../rule';
import { annotationExample, annotations } from './annotations';

const ALLOWED_ACTIONS: Record<string, readonly string[]> = {
  1: ['GoTo', 'GoToR', 'Thread', 'URI', 'Named', 'SubmitForm'],
  2: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  3: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm'],
  4: ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm', 'JavaScript', 'RichMediaExecute', 'GoToDp'],
  '4e': ['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm', 'JavaScript', 'RichMediaExecute', 'GoToDp', 'SetOCGState', 'GoTo3DView'],
};
const NAMED_ACTIONS = ['NextPage', 'PrevPage', 'FirstPage', 'LastPage'];
/** PDF/A-4 6.6.3: the only trigger keys an AA dictionary (outside widgets and fields) may use. */
const PDFA4_AA_TRIGGERS = ['E', 'X', 'D', 'U', 'Fo', 'Bl'];
/** Depth of the AcroForm field tree walked; real forms nest a few levels. */
const MAX_FIELD_DEPTH = 32;

const actionExample = (a: ActionSite): Example => ({
  ...(a.page !== null ? { page: a.page } : {}),
  context: `${a.type} action (${a.location}${a.trigger ? ` ${a.trigger}` : ''})`,
});

function allowedActions(p: StandardProfile): readonly string[] {
  return ALLOWED_ACTIONS[p.part === 4 && p.level === 'e' ? '4e' : String(p.part)]!;
}

/** Field dictionaries of the AcroForm tree that are not also page annotations (those are judged as widgets). */
const pureFields = fact('form-fields', (m): PDFDict[] => {
  const ctx = m.context;
  const widgets = new Set(annotations(m).map((a) => a.dict));
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict, depth: number) => {
    if (seen.has(node) || depth > MAX_FIELD_DEPTH) return;
    seen.add(node);
    if (!widgets.has(node)) out.push(node);
    for (const kid of resolvedItems(ctx, node.get(name('Kids')))) if (kid instanceof PDFDict) visit(kid, depth + 1);
  };
  for (const f of resolvedItems(ctx, getDict(m.catalog, 'AcroForm')?.get(name('Fields')))) if (f instanceof PDFDict) visit(f, 0);
  return out;
});

const fieldExample = (m: Parameters<Rule['test']>[0], f: PDFDict, what: string): Example => {
  const objectNumber = m.objectNumbers.of(f);
  const t = f.lookup(name('T'));
  return { ...(objectNumber !== undefined ? { objectNumber } : {}), context: `form field${t ? ` ${describeText(t)}` : ''}: ${what}` };
};

function describeText(t: unknown): string {
  try {
    return `"${(t as { decodeText(): string }).decodeText()}"`;
  } catch {
    return '';
  }
}

export const ACTION_RULES: readonly Rule[] = [
  {
    id: 'pdfa.actions.types',
    clauses: { 1: '6.6.1', 2: '6.5.1', 3: '6.5.1', 4: '6.6.1' },
    description: (p) => `Only these action types are permitted: ${allowedActions(p).join(', ')}.`,
    test: (f, p) => eachOf(f.actions.sites, (a) => allowedActions(p).includes(a.type), actionExample),
  },
  {
    id: 'pdfa.actions.named',
    clauses: { 1: '6.6.1', 2: '6.5.1', 3: '6.5.1', 4: '6.6.1' },
    description: 'Named actions other than NextPage, PrevPage, FirstPage and LastPage shall not be permitted.',
    test: (f) =>
      eachOf(
        f.actions.sites.filter((a) => a.type === 'Named'),
        (a) => NAMED_ACTIONS.includes(getName(a.action, 'N') ?? ''),
        (a) => ({ ...actionExample(a), context: `named action ${getName(a.action, 'N') ?? '(none)'}` }),
      ),
  },
  {
    id: 'pdfa.actions.widget',
    clauses: { 1: '6.6.1', 2: '6.4.1', 3: '6.4.1', 4: '6.4.1' },
    description: (p) => (p.part === 2 || p.part === 3 ? 'A Widget annotation shall not contain the A or AA keys.' : 'A Widget annotation (form field) shall not perform an action (A key).'),
    test: (m, p) => {
      const withAA = p.part === 2 || p.part === 3;
      const widgets = annotations(m).filter((a) => a.subtype === 'Widget');
      return eachOf(
        widgets,
        (a) => !a.dict.has(name('A')) && !(withAA && a.dict.has(name('AA'))),
        (a) => annotationExample(a, a.dict.has(name('A')) ? 'has an action (A)' : 'has additional actions (AA)'),
      );
    },
  },
  {
    id: 'pdfa.actions.field-additional',
    clauses: { 2: '6.4.1', 3: '6.4.1' },
    description: 'A form field dictionary shall not contain the A or AA keys.',
    test: (m) => eachOf(pureFields(m), (f) => !f.has(name('AA')) && !f.has(name('A')), (f) => fieldExample(m, f, f.has(name('AA')) ? 'has additional actions (AA)' : 'has an action (A)')),
  },
  {
    id: 'pdfa.actions.additional',
    clauses: { 1: '6.6.2', 2: '6.5.2', 3: '6.5.2', 4: '6.6.3' },
    description: (p) =>
      p.part === 1
        ? 'The document catalog, Widget annotations and form fields shall not include an AA (additional-actions) entry.'
        : p.part === 4
          ? 'An AA entry of the catalog, a page or a non-Widget annotation shall only use the triggers E, X, D, U, Fo and Bl.'
          : 'The document catalog and page dictionaries shall not include an AA (additional-actions) entry.',
    test: (f, p) => {
      const holders = f.actions.additionalActions;
      const forbidden = holders.filter((h) => {
        if (p.part === 1) return h.location === 'catalog' || h.location === 'field' || h.annotationSubtype === 'Widget';
        if (p.part === 4) return h.location !== 'field' && h.annotationSubtype !== 'Widget' && h.triggers.some((t) => !PDFA4_AA_TRIGGERS.includes(t));
        return h.location === 'catalog' || h.location === 'page';
      });
      return { checked: Math.max(1, holders.length), failures: forbidden.map((h) => ({ ...(h.page ? { page: h.page } : {}), context: `${h.location} has additional actions (${h.triggers.join(', ')})` })) };
    },
  },
  {
    id: 'pdfa.alternate-presentations',
    clauses: { 2: '6.10', 3: '6.10', 4: '6.11' },
    description: 'The name dictionary of the document catalog shall not contain an AlternatePresentations entry (no slide shows).',
    test: (m) => condition(!getDict(m.catalog, 'Names')?.has(name('AlternatePresentations')), { context: 'name dictionary has AlternatePresentations' }),
  },
  {
    id: 'pdfa.page-transitions',
    clauses: { 2: '6.10', 3: '6.10', 4: '6.11' },
    description: 'No page dictionary shall contain a PresSteps entry (no presentation steps).',
    test: (m) => {
      let pages: { page: number; dict: PDFDict }[] = [];
      try {
        pages = m.doc.getPages().map((p, i) => ({ page: i + 1, dict: p.node }));
      } catch {
        // A broken page tree: no page to judge (file structure reports it).
      }
      return eachOf(pages, (p) => resolve(m.context, p.dict.get(name('PresSteps'))) === undefined, (p) => ({ page: p.page, context: 'page has PresSteps' }));
    },
  },
];
