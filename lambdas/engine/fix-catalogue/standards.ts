/** Fixes of metadata and of PDF/A and PDF/X conformance, applied last (catalogue entries; implementations in autofix/standards/). */
import { BOX_FIXES } from './boxes';
import { CONTENT_FIXES } from './content';
import { DOCUMENT_FIXES } from './document';
import { IMAGE_FIXES } from './images';
import { INTERACTIVE_FIXES } from './interactive';
import { BLEED_FIXES, PAGE_FIXES } from './pages';
import { fix, type FixParamValues } from './types';

/** Every fix of the other areas: the standards fixes run after them (metadata and conformance describe the result). */
const CHANGES_TO_DESCRIBE = [...PAGE_FIXES, ...BOX_FIXES, ...BLEED_FIXES, ...DOCUMENT_FIXES, ...INTERACTIVE_FIXES, ...CONTENT_FIXES, ...IMAGE_FIXES].map((f) => f.id);

/** The levels of each PDF/A part (ISO 19005-1 to -4). PDF/A-4 without a letter is written as ''. */
export const PDFA_LEVELS: Readonly<Record<number, readonly string[]>> = { 1: ['a', 'b'], 2: ['a', 'b', 'u'], 3: ['a', 'b', 'u'], 4: ['', 'e', 'f'] };
export const pdfaLevelName = (part: number, level: string) => `PDF/A-${part}${level.toUpperCase()}`;

/** Why pdfa.prepare cannot prepare this part and level, or null. */
export function pdfaLevelProblem(part: number, conformance: string): string | null {
  const level = conformance.toLowerCase();
  const levels = PDFA_LEVELS[part];
  if (levels?.includes(level)) return null;
  const known = Object.entries(PDFA_LEVELS).map(([p, ls]) => ls.map((l) => pdfaLevelName(Number(p), l)).join(', ')).join('; ');
  const hint = levels ? ` PDF/A-${part} has the levels ${levels.map((l) => (l === '' ? '"" (none)' : l)).join(', ')}.` : '';
  return `${pdfaLevelName(part, level)} is not a level this fix prepares (it prepares ${known}).${hint}`;
}

export const STANDARDS_FIXES = [
  fix({
    id: 'metadata.sync',
    name: 'Synchronise Info and XMP metadata',
    description:
      'Makes the document information dictionary and the XMP metadata agree (title, author, subject, keywords, creating application, producer, creation and modification dates), creating the XMP packet when there is none; when anything changes, the modification dates become now and the producer says the file was modified with Proofline.',
    resolves: [],
    // Metadata and standards describe the file as the other fixes left it.
    runsAfter: CHANGES_TO_DESCRIBE,
    appearance: 'none',
  }),
  fix({
    id: 'pdfa.prepare',
    name: 'Prepare for PDF/A',
    description:
      'Adds what a PDF/A file declares beyond its content: the PDF/A identification in XMP, an output intent (the file\'s own profile, or a built-in sRGB, Adobe RGB (1998) or Apple RGB profile for the RGB space the intent declares), a file identifier, a header version the part allows, synchronised metadata (for PDF/A-4 in XMP only), a repaired extension schema description; removes JavaScript and other actions PDF/A forbids and XMP properties it does not allow; makes annotations print and stay visible, and gives those without an appearance one drawn from their own properties (or an empty one where nothing is defined to draw). Fonts, colour, transparency, images, tagging and Unicode mappings are not changed: validation reports whatever of them still fails. A digitally signed file is skipped, since rewriting it would invalidate the signature.',
    resolves: ['document.javascript'],
    params: [
      { name: 'part', type: 'number', default: 2, min: 1, max: 4, description: 'The PDF/A part to prepare for (1, 2, 3 or 4).' },
      {
        name: 'conformance',
        type: 'string',
        default: 'b',
        values: ['a', 'b', 'u', 'e', 'f', ''],
        description:
          'The conformance level: for parts 1–3 b (visual appearance; the default), a (accessible) or u (Unicode; parts 2 and 3 only); for part 4 "" (plain PDF/A-4; the default there), e (engineering) or f (embedded files). A level the part does not have is refused. Levels a and u get the same identification and structure as b; their content requirements are left to validation.',
      },
    ],
    // After metadata.sync, so what it writes is the synchronised metadata made conformant.
    runsAfter: [...CHANGES_TO_DESCRIBE, 'metadata.sync'],
    appearance: 'intended',
    output: 'whole-file',
    relations: {
      // The default level is b, which PDF/A-4 does not have: there it is plain PDF/A-4.
      defaults: (params: FixParamValues, given) => (given.conformance === undefined && params.part === 4 ? { ...params, conformance: '' } : params),
      problem: (params: FixParamValues) => pdfaLevelProblem(Number(params.part), String(params.conformance)),
    },
  }),
  fix({
    id: 'pdfx.prepare',
    name: 'Prepare for PDF/X-4',
    description:
      'Adds a PDF/X output intent naming the printing condition (kept when the file has one), a TrimBox on every page, Trapped, a file identifier and synchronised metadata; writes the PDF/X-4 claim only when the output intent embeds its printer profile.',
    resolves: ['document.output-intent', 'boxes.trimbox-missing'],
    params: [
      { name: 'version', type: 'string', default: 'PDF/X-4', values: ['PDF/X-4'], description: 'The PDF/X version to prepare for.' },
      { name: 'condition', type: 'string', default: 'FOGRA39', description: 'The registered printing condition (ICC characterization name) a new PDF/X output intent names, e.g. FOGRA39, FOGRA51, GRACoL2013_CRPC6.' },
    ],
    // After metadata.sync, so what it writes is the synchronised metadata made conformant.
    runsAfter: [...CHANGES_TO_DESCRIBE, 'metadata.sync'],
    appearance: 'none',
    output: 'whole-file',
  }),
];
