/**
 * Optional content (PDF/A-1 6.1.13, A-2/3 6.9, A-4 6.10, UA-1 7.10, UA-2 8.7).
 * PDF/A-1 forbids it; later parts allow it when every configuration is named
 * (a reader picks the view by name), each name is unique, the Order array of a
 * configuration lists every group, and no configuration switches groups
 * automatically (AS) — the visible content must not depend on the viewer.
 */
import { PDFArray, PDFDict, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getDict, getText, name, resolve, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import { condition, eachOf, type Example, type Rule } from '../rule';

interface OcConfig {
  dict: PDFDict;
  /** 'D' for the default configuration, else the index in Configs. */
  where: string;
  /** Name as a text string; null when absent or not a string. */
  name: string | null;
  objectNumber: number | undefined;
}

interface OptionalContent {
  properties: PDFDict | undefined;
  configs: OcConfig[];
  /** Configs holds at least one configuration dictionary. */
  hasConfigs: boolean;
  groups: PDFDict[];
}

/** Nesting depth of Order arrays followed; real documents nest a few levels. */
const MAX_ORDER_DEPTH = 32;

const optionalContent = fact('optional-content', (m): OptionalContent => {
  const ctx = m.context;
  const properties = getDict(m.catalog, 'OCProperties');
  const configs: OcConfig[] = [];
  const describe = (d: PDFDict, where: string): OcConfig => ({ dict: d, where, name: getText(d, 'Name') ?? null, objectNumber: m.objectNumbers.of(d) });
  const d = getDict(properties, 'D');
  if (d) configs.push(describe(d, 'D'));
  let hasConfigs = false;
  resolvedItems(ctx, properties?.get(name('Configs'))).forEach((c, i) => {
    if (c instanceof PDFDict) {
      hasConfigs = true;
      configs.push(describe(c, `Configs[${i}]`));
    }
  });
  const groups = resolvedItems(ctx, properties?.get(name('OCGs'))).filter((g): g is PDFDict => g instanceof PDFDict);
  return { properties, configs, hasConfigs, groups };
});

const configExample = (c: OcConfig, what: string): Example => ({
  ...(c.objectNumber !== undefined ? { objectNumber: c.objectNumber } : {}),
  context: `optional content configuration ${c.where}${c.name ? ` "${c.name}"` : ''}: ${what}`,
});

/** Every group an Order array reaches, through nested arrays (labels are strings, skipped). */
function groupsInOrder(ctx: PDFContext, order: PDFObject | undefined): Set<PDFDict> {
  const out = new Set<PDFDict>();
  const seen = new Set<PDFArray>();
  const visit = (v: PDFObject | undefined, depth: number) => {
    const r = resolve(ctx, v);
    if (r instanceof PDFDict) out.add(r);
    else if (r instanceof PDFArray && !seen.has(r) && depth < MAX_ORDER_DEPTH) {
      seen.add(r);
      for (let i = 0; i < r.size(); i++) visit(r.get(i), depth + 1);
    }
  };
  visit(order, 0);
  return out;
}

export const OPTIONAL_CONTENT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.optional-content',
    clauses: { 1: '6.1.13' },
    description: 'The document catalog shall not contain the OCProperties key (no optional content).',
    test: (f) => condition(!f.facts.optionalContent, { context: 'catalog has OCProperties' }),
  },
  {
    id: 'optional-content.config-name',
    clauses: { 2: '6.9', 3: '6.9', 4: '6.10', ua1: '7.10', ua2: '8.7' },
    description: (p) =>
      p.code === 'ua2'
        ? 'When OCProperties has alternate configurations (Configs), every optional content configuration, the default included, shall have a non-empty Name.'
        : 'Every optional content configuration (the default D and each entry of Configs) shall contain a non-empty Name.',
    test: (m, p) => {
      const oc = optionalContent(m);
      // ISO 14289-2 asks for names only when the reader has configurations to choose from.
      if (p.code === 'ua2' && !oc.hasConfigs) return { checked: 0, failures: [] };
      return eachOf(oc.configs, (c) => c.name !== null && (p.part === 4 && p.family === 'pdfa' ? true : c.name.length > 0), (c) => configExample(c, c.name === null ? 'no Name' : 'empty Name'));
    },
  },
  {
    id: 'pdfa.optional-content.unique-names',
    clauses: { 2: '6.9', 3: '6.9', 4: '6.10' },
    description: 'The Name of each optional content configuration shall be unique within the file.',
    test: (m) => {
      const configs = optionalContent(m).configs.filter((c) => c.name !== null);
      const counts = new Map<string, number>();
      for (const c of configs) counts.set(c.name!, (counts.get(c.name!) ?? 0) + 1);
      return eachOf(configs, (c) => counts.get(c.name!) === 1, (c) => configExample(c, 'Name used by another configuration'));
    },
  },
  {
    id: 'pdfa.optional-content.order',
    clauses: { 2: '6.9', 3: '6.9', 4: '6.10' },
    description: 'When an optional content configuration has an Order array, it shall list every optional content group of the file.',
    test: (m) => {
      const oc = optionalContent(m);
      const withOrder = oc.configs.filter((c) => c.dict.has(name('Order')));
      return eachOf(
        withOrder,
        (c) => {
          const listed = groupsInOrder(m.context, c.dict.get(name('Order')));
          return oc.groups.every((g) => listed.has(g));
        },
        (c) => {
          const listed = groupsInOrder(m.context, c.dict.get(name('Order')));
          const missing = oc.groups.filter((g) => !listed.has(g)).length;
          return configExample(c, `Order leaves out ${missing} of ${oc.groups.length} groups`);
        },
      );
    },
  },
  {
    id: 'optional-content.no-auto-state',
    clauses: { 2: '6.9', 3: '6.9', ua1: '7.10', ua2: '8.7' },
    description: 'No optional content configuration shall contain the AS key (automatic state changes by usage).',
    test: (m) => eachOf(optionalContent(m).configs, (c) => !c.dict.has(name('AS')), (c) => configExample(c, 'has AS')),
  },
];
