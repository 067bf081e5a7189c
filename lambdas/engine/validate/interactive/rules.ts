/**
 * Interactive features: annotations, actions and JavaScript, forms, embedded files, optional content.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import type { ActionSite } from '../../core/actions';
import { getName } from '../../core/pdf-objects';
import type { StandardProfile } from '../profiles';
import { condition, eachOf, type Example, type Rule } from '../rule';

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

const actionExample = (a: ActionSite): Example => ({
  ...(a.page !== null ? { page: a.page } : {}),
  context: `${a.type} action (${a.location}${a.trigger ? ` ${a.trigger}` : ''})`,
});

export const INTERACTIVE_RULES: readonly Rule[] = [
  {
    id: 'pdfa.optional-content',
    clauses: { 1: '6.1.13' },
    description: 'The document catalog shall not contain the OCProperties key (no optional content).',
    test: (f) => condition(!f.facts.optionalContent, { context: 'catalog has OCProperties' }),
  },
  {
    id: 'pdfa.embedded-files.forbidden',
    clauses: { 1: '6.1.11' },
    description: 'No file shall be embedded: file specifications shall not contain the EF key and the name dictionary shall not contain EmbeddedFiles.',
    test: (f) => {
      const failures: Example[] = f.embeddedFiles.map((e) => ({ ...(e.page ? { page: e.page } : {}), context: `embedded file "${e.name}"` }));
      if (f.hasEmbeddedFilesTree && failures.length === 0) failures.push({ context: 'name dictionary has EmbeddedFiles' });
      return { checked: Math.max(1, f.embeddedFiles.length), failures };
    },
  },
  {
    id: 'pdfa.embedded-files.pdfa-only',
    clauses: { 2: '6.8' },
    description: 'An embedded file shall be a PDF/A-1 or PDF/A-2 file. (Proofline checks the PDF/A claim of the embedded file, not its full compliance.)',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.isPdf && /^[12]/.test(e.pdfaClaim ?? ''), (e) => ({ context: `embedded file "${e.name}" ${e.isPdf ? (e.pdfaClaim ? `claims PDF/A-${e.pdfaClaim}` : 'claims no PDF/A conformance') : 'is not a PDF'}` })),
  },
  {
    id: 'pdfa.embedded-files.names',
    clauses: { 2: '6.8', 3: '6.8', 4: '6.9' },
    description: 'The file specification dictionary of an embedded file shall contain the F and UF keys.',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.hasF && e.hasUF, (e) => ({ context: `embedded file "${e.name}" lacks ${[!e.hasF && 'F', !e.hasUF && 'UF'].filter(Boolean).join(' and ')}` })),
  },
  {
    id: 'pdfa.embedded-files.mime-type',
    clauses: { 3: '6.8', 4: '6.9' },
    description: 'The MIME type of an embedded file shall be given by the Subtype key of its stream (application/octet-stream when unknown).',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.mimeType !== null && /^[-\w+.]+\/[-\w+.]+$/.test(e.mimeType), (e) => ({ context: `embedded file "${e.name}" has no valid MIME type` })),
  },
  {
    id: 'pdfa.embedded-files.relationship',
    clauses: { 3: '6.8', 4: '6.9' },
    description: 'The file specification dictionary of an embedded file shall contain an AFRelationship key.',
    test: (f) => eachOf(f.embeddedFiles, (e) => e.afRelationship !== null, (e) => ({ context: `embedded file "${e.name}" has no AFRelationship` })),
  },
  {
    id: 'pdfa.embedded-files.required',
    clauses: { 4: '6.9' },
    levels: ['f'],
    description: 'A PDF/A-4f file shall contain an EmbeddedFiles key in the name dictionary of the document catalog.',
    test: (f) => condition(f.hasEmbeddedFilesTree, { context: 'no EmbeddedFiles in the name dictionary' }),
  },
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
    test: (f, p) =>
      eachOf(
        f.actions.sites.filter((a) => a.annotationSubtype === 'Widget' && !a.chained && (a.location === 'annotation-action' || ((p.part === 2 || p.part === 3) && a.location === 'annotation-additional-action'))),
        () => false,
        actionExample,
      ),
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
];

function allowedActions(p: StandardProfile): readonly string[] {
  return ALLOWED_ACTIONS[p.part === 4 && p.level === 'e' ? '4e' : String(p.part)]!;
}
