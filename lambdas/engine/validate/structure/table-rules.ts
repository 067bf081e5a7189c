/**
 * Tables (PDF/UA-1 7.5, PDF/UA-2 8.2.5.26): every data cell can be tied to its
 * header cells (through Headers and IDs, or through the Scope of a TH in its row or
 * column), and (UA-2) the table is regular: cells laid out with their row and column
 * spans neither overlap nor run past their row group, and every row is equally wide.
 */
import { PDFArray, PDFName, PDFNumber } from '@cantoo/pdf-lib';
import { textOf } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { type Example, type Rule } from '../rule';
import { attribute } from './element-rules';
import { elemExample, structTree, type StructElem } from './struct-tree';

interface Cell {
  elem: StructElem;
  header: boolean;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

interface TableLayout {
  table: StructElem;
  cells: Cell[];
  /** Width of each row after placement (positions covered, spans included). */
  rowWidths: number[];
  /** Cells placed over a position another cell already covers. */
  overlaps: Cell[];
  /** Cells whose row span runs past the last row of their row group (or table). */
  overflowing: Cell[];
}

/** Guards the grid against absurd spans in malformed files. */
const MAX_SPAN = 1000;

function span(e: StructElem, key: 'RowSpan' | 'ColSpan'): number {
  const v = attribute(e, 'Table', key);
  const n = v instanceof PDFNumber ? Math.floor(v.asNumber()) : 1;
  return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_SPAN) : 1;
}

/** The row groups of a table: TRs directly in it form one group each run; THead/TBody/TFoot one group each. */
function rowGroups(table: StructElem): StructElem[][] {
  const groups: StructElem[][] = [];
  let loose: StructElem[] | undefined;
  for (const c of table.children) {
    if (c.standardType === 'TR') {
      if (!loose) groups.push((loose = []));
      loose.push(c);
    } else if (c.standardType === 'THead' || c.standardType === 'TBody' || c.standardType === 'TFoot') {
      loose = undefined;
      groups.push(c.children.filter((r) => r.standardType === 'TR'));
    }
  }
  return groups;
}

function layout(table: StructElem): TableLayout {
  const cells: Cell[] = [];
  const overlaps: Cell[] = [];
  const overflowing: Cell[] = [];
  const occupied = new Map<number, Set<number>>();
  const rowWidths: number[] = [];
  let row = 0;
  for (const group of rowGroups(table)) {
    const groupEnd = row + group.length;
    for (const tr of group) {
      let col = 0;
      for (const e of tr.children) {
        if (e.standardType !== 'TH' && e.standardType !== 'TD') continue;
        const taken = occupied.get(row) ?? new Set<number>();
        while (taken.has(col)) col++;
        const cell: Cell = { elem: e, header: e.standardType === 'TH', row, col, rowSpan: span(e, 'RowSpan'), colSpan: span(e, 'ColSpan') };
        cells.push(cell);
        if (row + cell.rowSpan > groupEnd) overflowing.push(cell);
        let overlap = false;
        for (let r = row; r < Math.min(row + cell.rowSpan, groupEnd); r++) {
          const set = occupied.get(r) ?? new Set<number>();
          occupied.set(r, set);
          for (let c = col; c < col + cell.colSpan; c++) {
            if (set.has(c)) overlap = true;
            set.add(c);
          }
        }
        if (overlap) overlaps.push(cell);
        col += cell.colSpan;
      }
      rowWidths.push(occupied.get(row)?.size ?? 0);
      row++;
    }
  }
  return { table, cells, rowWidths, overlaps, overflowing };
}

const tableLayouts = fact('structure-table-layouts', (m: ValidationModel): TableLayout[] =>
  structTree(m).elements.filter((e) => e.standardType === 'Table').map(layout),
);

function scopeOf(e: StructElem): string | undefined {
  const v = attribute(e, 'Table', 'Scope');
  return v instanceof PDFName ? v.decodeText() : undefined;
}

function headersOf(e: StructElem): string[] | undefined {
  const v = attribute(e, 'Table', 'Headers');
  if (!(v instanceof PDFArray)) return undefined;
  return v.asArray().map((x) => textOf(x) ?? '');
}

interface HeaderProblem {
  cell: Cell;
  unknown: string[];
}

/** Data cells that cannot be tied to a header cell; tables without TH cells are not judged. */
const headerProblems = fact('structure-table-headers', (m: ValidationModel): { checked: number; problems: HeaderProblem[] } => {
  const ids = new Set<string>();
  for (const e of structTree(m).elements) if (e.id) ids.add(e.id);
  let checked = 0;
  const problems: HeaderProblem[] = [];
  for (const t of tableLayouts(m)) {
    const headers = t.cells.filter((c) => c.header);
    if (!headers.length) continue;
    for (const cell of t.cells) {
      // An empty cell (the blank corner above row headers) holds no data to tie to a header.
      if (cell.header || !hasContent(cell.elem)) continue;
      checked++;
      const named = headersOf(cell.elem);
      if (named && named.length) {
        const unknown = named.filter((id) => !ids.has(id));
        if (unknown.length) problems.push({ cell, unknown });
        continue;
      }
      const rows = (c: Cell) => [c.row, c.row + c.rowSpan] as const;
      const cols = (c: Cell) => [c.col, c.col + c.colSpan] as const;
      const meets = (a: readonly [number, number], b: readonly [number, number]) => a[0] < b[1] && b[0] < a[1];
      const connected = headers.some((h) => {
        const scope = scopeOf(h.elem);
        if ((scope === 'Row' || scope === 'Both') && meets(rows(h), rows(cell))) return true;
        if ((scope === 'Column' || scope === 'Both') && meets(cols(h), cols(cell))) return true;
        return false;
      });
      if (!connected) problems.push({ cell, unknown: [] });
    }
  }
  return { checked, problems };
});

/** The element or a descendant holds marked content or an object. */
function hasContent(e: StructElem): boolean {
  const stack = [e];
  while (stack.length) {
    const x = stack.pop()!;
    for (const k of x.kids) {
      if (k.kind === 'mcid' || k.kind === 'objr') return true;
      if (k.kind === 'element') stack.push(k.element);
    }
  }
  return false;
}

const cellExample = (c: Cell, what: string): Example => elemExample(c.elem, `row ${c.row + 1}, column ${c.col + 1}: ${what}`);

export const TABLE_RULES: readonly Rule[] = [
  {
    id: 'pdfua.table.headers',
    clauses: { ua1: '7.5', ua2: '8.2.5.26' },
    description: 'Each data cell (TD) of a table with header cells shall be tied to its headers: by a Headers attribute naming header IDs, or by a TH in its row or column whose Scope is Row, Column or Both.',
    test: (m) => {
      const { checked, problems } = headerProblems(m);
      return { checked, failures: problems.filter((p) => !p.unknown.length).map((p) => cellExample(p.cell, 'no header cell applies (no Headers, and no TH with a Scope in its row or column)')) };
    },
  },
  {
    id: 'pdfua.table.headers-known',
    clauses: { ua1: '7.5', ua2: '8.2.5.26' },
    description: 'The IDs a data cell\'s Headers attribute names shall be IDs of structure elements of the document.',
    test: (m) => {
      const { checked, problems } = headerProblems(m);
      return { checked, failures: problems.filter((p) => p.unknown.length).map((p) => cellExample(p.cell, `Headers names unknown IDs ${p.unknown.map((u) => `"${u}"`).join(', ')}`)) };
    },
  },
  {
    id: 'pdfua.table.cells-overlap',
    clauses: { ua1: '7.2', ua2: '8.2.5.26' },
    description: 'Tables shall be regular: no table cell shall overlap another once row and column spans are applied.',
    test: (m) => {
      const ts = tableLayouts(m);
      return { checked: ts.reduce((n, t) => n + t.cells.length, 0), failures: ts.flatMap((t) => t.overlaps.map((c) => cellExample(c, 'overlaps another cell'))) };
    },
  },
  {
    id: 'pdfua.table.row-spans',
    clauses: { ua1: '7.2', ua2: '8.2.5.26' },
    description: 'Tables shall be regular: a cell\'s row span shall not run past the last row of its table or of its row group (THead, TBody, TFoot).',
    test: (m) => {
      const ts = tableLayouts(m);
      return { checked: ts.length, failures: ts.flatMap((t) => t.overflowing.map((c) => cellExample(c, `RowSpan ${c.rowSpan} runs past the last row`))) };
    },
  },
  {
    id: 'pdfua.table.row-widths',
    clauses: { ua1: '7.2', ua2: '8.2.5.26' },
    description: 'Tables shall be regular: every row shall have the same number of columns, counting column spans and cells spanning down from rows above.',
    test: (m) => {
      const ts = tableLayouts(m).filter((t) => t.rowWidths.length > 0);
      const failures: Example[] = [];
      for (const t of ts) {
        const widths = t.rowWidths;
        const expected = Math.max(...widths);
        const bad = widths.map((w, i) => [w, i] as const).filter(([w]) => w !== expected);
        if (bad.length) failures.push(elemExample(t.table, `row widths ${widths.join(', ')}; row ${bad[0]![1] + 1} has ${bad[0]![0]} columns, not ${expected}`));
      }
      return { checked: ts.length, failures };
    },
  },
];
