/**
 * PDF/UA-2 (ISO 14289-2) requirements on particular structure types that only
 * look at the shape of the structure tree: table-of-contents items (8.2.5.8),
 * notes (8.2.5.14), ruby and warichu (8.2.5.23–24), captions (8.2.5.27) and
 * MathML (8.2.5.29).
 *
 * Sequences of children are judged on the element children that have a standard
 * type (role maps applied); children without one and Artifact elements carry no
 * structure of their own, so they are left out of the sequence (an unmapped kid is
 * reported by the 8.2.4 rules already).
 */
import { PDFArray, PDFDict, PDFName } from '@cantoo/pdf-lib';
import { asDict, name, resolve } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type Rule } from '../rule';
import { attribute } from './element-rules';
import { describeElem, elemExample, isStandardIn, NS_MATHML, NS_PDF17, NS_PDF20, structTree, type StructElem } from './struct-tree';

const ofType = (m: ValidationModel, type: string) => structTree(m).elements.filter((e) => e.standardType === type);

/** Standard types of an element's element children, in order, without unmapped kids and Artifacts. */
export function kidTypes(e: StructElem): string[] {
  return e.children.map((c) => c.standardType).filter((t): t is string => t !== undefined && t !== 'Artifact');
}

const isMathML = (e: StructElem | undefined) => e?.standardNamespace === NS_MATHML;

/**
 * The parent that gives an element its meaning: NonStruct, Div and Part group
 * without adding semantics (ISO 32000-2 14.8.4.4), so they are looked through.
 */
function meaningfulParent(e: StructElem): StructElem | undefined {
  let p = e.parent;
  while (p && !isMathML(p) && (p.standardType === 'NonStruct' || p.standardType === 'Div' || p.standardType === 'Part')) p = p.parent;
  return p;
}

/**
 * Whether an element's role mapping, followed past its own type, reaches a
 * standard type of the PDF 2.0 namespace first (struct-tree stops at the element's
 * own type when that is already standard, so the chain is read here).
 */
function mapsIntoPdf20(e: StructElem): boolean {
  for (const key of e.mapping.chain.slice(1)) {
    const at = key.lastIndexOf('@');
    const [type, ns] = at > 0 ? [key.slice(0, at), key.slice(at + 1)] : [key, NS_PDF17];
    if (isStandardIn(ns, type)) return ns === NS_PDF20;
  }
  return false;
}

/** The dictionaries an element's Ref entry names (an array of structure elements; a lone dictionary is read too). */
function refTargets(m: ValidationModel, e: StructElem): PDFDict[] {
  const raw = resolve(m.context, e.dict.get(name('Ref')));
  const items = raw instanceof PDFArray ? raw.asArray() : raw !== undefined ? [raw] : [];
  return items.map((x) => asDict(resolve(m.context, x))).filter((d): d is PDFDict => d !== undefined);
}

/** For each element, the elements whose Ref names it (memoised: one pass over the tree). */
const referrers = fact('structure-ref-referrers', (m: ValidationModel): Map<PDFDict, StructElem[]> => {
  const out = new Map<PDFDict, StructElem[]>();
  for (const e of structTree(m).elements) {
    if (!e.dict.has(name('Ref'))) continue;
    for (const d of new Set(refTargets(m, e))) {
      const list = out.get(d) ?? [];
      list.push(e);
      out.set(d, list);
    }
  }
  return out;
});

const objectLabel = (m: ValidationModel, d: PDFDict) => {
  const el = structTree(m).byDict.get(d);
  const n = el?.objectNumber ?? m.objectNumbers.of(d);
  const what = el ? describeElem(el) : 'object';
  return n !== undefined ? `${what} ${n} 0 R` : what;
};

/** An element or one of its element descendants carries a Ref entry. */
function refInSubtree(e: StructElem): boolean {
  const stack = [e];
  while (stack.length) {
    const x = stack.pop()!;
    if (x.dict.has(name('Ref'))) return true;
    stack.push(...x.children);
  }
  return false;
}

const NOTE_TYPES = new Set(['Footnote', 'Endnote', 'None']);

/** Allowed child sequences of Ruby (ISO 14289-2 8.2.5.23). */
const RUBY_SEQUENCES = ['RB,RT', 'RB,RP,RT,RP'];
const WARICHU_SEQUENCE = 'WP,WT,WP';

const sequenceExample = (e: StructElem, kids: string[]) => elemExample(e, kids.length ? `children are ${kids.join(', ')}` : 'no structure element children');

export const UA2_ELEMENT_RULES: readonly Rule[] = [
  {
    id: 'pdfua.toc.item-ref',
    clauses: { ua2: '8.2.5.8' },
    description: 'Each TOCI (table-of-contents item) shall identify its target with a Ref entry, on the TOCI itself or on one of the structure elements inside it.',
    test: (m) => eachOf(ofType(m, 'TOCI'), refInSubtree, (e) => elemExample(e, 'no Ref on the item or its descendants')),
  },
  {
    id: 'pdfua.note.not-used',
    clauses: { ua2: '8.2.5.14' },
    description: 'The PDF 1.7 Note structure type shall not be used unless it is role mapped to a structure type of the PDF 2.0 namespace (such as FENote).',
    test: (m) => eachOf(ofType(m, 'Note').filter((e) => e.standardNamespace === NS_PDF17), mapsIntoPdf20, (e) => elemExample(e, 'Note not role mapped into the PDF 2.0 namespace')),
  },
  {
    id: 'pdfua.fenote.referrers-listed',
    clauses: { ua2: '8.2.5.14' },
    description: 'A FENote (footnote or endnote) shall list in its Ref entry every structure element whose Ref refers to it.',
    test: (m) => {
      const failures: Example[] = [];
      const notes = ofType(m, 'FENote');
      for (const note of notes) {
        const listed = new Set(refTargets(m, note));
        const missing = (referrers(m).get(note.dict) ?? []).filter((r) => !listed.has(r.dict));
        if (missing.length) failures.push(elemExample(note, `Ref does not list ${missing.map((r) => objectLabel(m, r.dict)).join(', ')}, which refer to it`));
      }
      return { checked: notes.length, failures };
    },
  },
  {
    id: 'pdfua.fenote.refs-reciprocal',
    clauses: { ua2: '8.2.5.14' },
    description: 'Every structure element a FENote lists in its Ref entry shall itself refer to the FENote with its own Ref entry.',
    test: (m) => {
      const failures: Example[] = [];
      const notes = ofType(m, 'FENote');
      for (const note of notes) {
        const citing = new Set((referrers(m).get(note.dict) ?? []).map((r) => r.dict));
        const ghosts = [...new Set(refTargets(m, note))].filter((d) => !citing.has(d));
        if (ghosts.length) failures.push(elemExample(note, `Ref lists ${ghosts.map((d) => objectLabel(m, d)).join(', ')}, which do not refer back to it`));
      }
      return { checked: notes.length, failures };
    },
  },
  {
    id: 'pdfua.fenote.note-type',
    clauses: { ua2: '8.2.5.14' },
    description: 'The NoteType attribute of a FENote structure element, when present, shall be Footnote, Endnote or None.',
    test: (m) => {
      const typed = ofType(m, 'FENote').map((e) => ({ e, v: attribute(e, 'FENote', 'NoteType') })).filter((x) => x.v !== undefined);
      return eachOf(
        typed,
        ({ v }) => v instanceof PDFName && NOTE_TYPES.has(v.decodeText()),
        ({ e, v }) => elemExample(e, `NoteType is ${v instanceof PDFName ? `/${v.decodeText()}` : String(v)}`),
      );
    },
  },
  {
    id: 'pdfua.ruby.children',
    clauses: { ua2: '8.2.5.23' },
    description: 'A Ruby structure element shall contain exactly one RB and one RT, either as RB, RT or as the sequence RB, RP, RT, RP.',
    test: (m) => eachOf(ofType(m, 'Ruby'), (e) => RUBY_SEQUENCES.includes(kidTypes(e).join(',')), (e) => sequenceExample(e, kidTypes(e))),
  },
  {
    id: 'pdfua.warichu.children',
    clauses: { ua2: '8.2.5.24' },
    description: 'A Warichu structure element shall contain the three-element sequence WP, WT, WP.',
    test: (m) => eachOf(ofType(m, 'Warichu'), (e) => kidTypes(e).join(',') === WARICHU_SEQUENCE, (e) => sequenceExample(e, kidTypes(e))),
  },
  {
    id: 'pdfua.caption.position',
    clauses: { ua2: '8.2.5.27' },
    description: 'A Caption shall be the first or the last child of the structure element it captions.',
    test: (m) => {
      const parents = structTree(m).elements.filter((e) => e.children.some((c) => c.standardType === 'Caption'));
      const middle = (e: StructElem) => {
        const kids = kidTypes(e);
        return kids.flatMap((t, i) => (t === 'Caption' && i !== 0 && i !== kids.length - 1 ? [i + 1] : [])).map((i) => `${i} of ${kids.length}`);
      };
      return eachOf(parents, (e) => middle(e).length === 0, (e) => elemExample(e, `Caption is child ${middle(e).join(', ')}`));
    },
  },
  {
    id: 'pdfua.math.in-formula',
    clauses: { ua2: '8.2.5.29' },
    description: 'MathML structure elements shall occur only inside a Formula: math as a child of Formula, its parts inside math.',
    test: (m) =>
      eachOf(
        structTree(m).elements.filter(isMathML),
        (e) => {
          const p = meaningfulParent(e);
          return p !== undefined && (isMathML(p) || p.standardType === 'Formula');
        },
        (e) => {
          const p = meaningfulParent(e);
          return elemExample(e, `inside ${p ? describeElem(p) : 'the structure tree root'}, not Formula`);
        },
      ),
  },
];
