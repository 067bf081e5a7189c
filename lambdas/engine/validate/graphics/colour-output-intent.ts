/**
 * Output intents (ISO 19005-1 6.2.2, -2/-3/-4 6.2.3): the PDF/A output
 * intent's DestOutputProfile shall be an output or monitor ICC profile of a
 * Gray, RGB or CMYK colour space (PDF/A-1: ICC version 2.x or earlier; later
 * parts: 4.x or earlier); all output intents with a profile shall share one
 * profile object; no external profile (DestOutputProfileRef) in a PDF/X
 * output intent (PDF/A-2/3) or in any output intent (PDF/A-4); PDF/A-1 also
 * wants each profile stream's N to match its colour space. A page's own
 * output intents (PDF 2.0 lets pages have them) are judged like the
 * document's in every part, as veraPDF does: its page model links them too.
 */
import { PDFDict, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { getName, getNumber, name, resolve, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Rule } from '../rule';
import { iccComponents, iccHeader } from './icc-profile';

interface Intent {
  dict: PDFDict;
  /** 0 for the document's OutputIntents, else the page. */
  page: number;
  subtype: string | null;
}

/** Output intents of the catalog and of pages. */
const intents = fact('colour.output-intents', (m: ValidationModel): Intent[] => {
  const out: Intent[] = [];
  const add = (arr: unknown, page: number) => {
    for (const oi of resolvedItems(m.context, arr as never)) if (oi instanceof PDFDict) out.push({ dict: oi, page, subtype: getName(oi, 'S') ?? null });
  };
  add(m.catalog.get(name('OutputIntents')), 0);
  try {
    m.doc.getPages().forEach((p, i) => {
      const arr = p.node.get(name('OutputIntents'));
      if (arr !== undefined) add(arr, i + 1);
    });
  } catch {
    // A page tree pdf-lib cannot walk: only the document's intents are judged.
  }
  return out;
});

const where = (i: Intent) => (i.page ? { page: i.page } : {});

export const OUTPUT_INTENT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.output-intent.profile',
    clauses: { 1: '6.2.2', 2: '6.2.3', 3: '6.2.3', 4: '6.2.3' },
    description: (p) =>
      `The PDF/A output intent (S GTS_PDFA1) shall have a DestOutputProfile, and the DestOutputProfile of every output intent shall be a valid output (prtr) or monitor (mntr) ICC profile of a Gray, RGB or CMYK colour space, of ICC version ${p.part === 1 ? '2.x or earlier' : '4.x or earlier'}.`,
    test: (m, p) =>
      eachOf(
        // Every output intent's profile is judged (a PDF/X intent's too), and the PDF/A one must have a profile.
        intents(m).filter((i) => i.subtype === 'GTS_PDFA1' || i.dict.has(name('DestOutputProfile'))),
        (i) => {
          const profile = resolve(m.context, i.dict.get(name('DestOutputProfile')));
          const h = profile instanceof PDFStream ? iccHeader(profile) : null;
          return h !== null && ['prtr', 'mntr'].includes(h.deviceClass) && ['RGB ', 'CMYK', 'GRAY'].includes(h.colourSpace) && h.major < (p.part === 1 ? 3 : 5);
        },
        (i) => {
          const raw = i.dict.get(name('DestOutputProfile'));
          const profile = resolve(m.context, raw);
          const h = profile instanceof PDFStream ? iccHeader(profile) : null;
          const objectNumber = m.objectNumbers.of(profile);
          return {
            ...where(i),
            ...(objectNumber !== undefined ? { objectNumber } : {}),
            context:
              raw === undefined
                ? 'output intent has no DestOutputProfile'
                : h
                  ? `profile class "${h.deviceClass}", colour space "${h.colourSpace.trim()}", version ${h.version}`
                  : 'DestOutputProfile is not a readable ICC profile',
          };
        },
      ),
  },
  {
    id: 'pdfa.output-intent.components',
    clauses: { 1: '6.2.3.2' },
    description: "The N entry of every output intent's DestOutputProfile stream shall be present and match the number of components of the profile's colour space (1, 3 or 4).",
    // ISO 32000 requires N in every ICC profile stream, and PDF/A-1's rule on ICC profiles' N (6.2.3.2)
    // is about profiles, not only ICCBased colour spaces: veraPDF's ICCOutputProfile is an ICCProfile,
    // so its 1B 6.2.3.2-2 test (N present and consistent) applies to output intents' profiles too.
    test: (m) =>
      eachOf(
        intents(m).flatMap((i) => {
          const profile = resolve(m.context, i.dict.get(name('DestOutputProfile')));
          const h = profile instanceof PDFStream ? iccHeader(profile) : null;
          return profile instanceof PDFStream && h ? [{ i, profile, colourSpace: h.colourSpace }] : [];
        }),
        ({ profile, colourSpace }) => {
          const n = getNumber(profile.dict, 'N');
          return n !== undefined && iccComponents(colourSpace) === n;
        },
        ({ i, profile, colourSpace }) => {
          const objectNumber = m.objectNumbers.of(profile);
          return { ...where(i), ...(objectNumber !== undefined ? { objectNumber } : {}), context: `N is ${getNumber(profile.dict, 'N') ?? 'missing'}; the profile's colour space is "${colourSpace.trim()}"` };
        },
      ),
  },
  {
    id: 'pdfa.output-intent.single-profile',
    clauses: { 1: '6.2.2', 2: '6.2.3', 3: '6.2.3', 4: '6.2.3' },
    description: 'When an OutputIntents array has several entries, all those with a DestOutputProfile shall refer to the same indirect profile object.',
    test: (m) => {
      const groups = new Map<number, Intent[]>();
      for (const i of intents(m)) groups.set(i.page, [...(groups.get(i.page) ?? []), i]);
      const failures = [];
      let checked = 0;
      for (const [page, list] of groups) {
        const withProfile = list.filter((i) => i.dict.has(name('DestOutputProfile')));
        if (list.length < 2 || withProfile.length === 0) continue;
        checked++;
        const targets = new Set(withProfile.map((i) => i.dict.get(name('DestOutputProfile'))));
        const refs = new Set(withProfile.map((i) => resolve(m.context, i.dict.get(name('DestOutputProfile')))));
        const indirect = [...targets].every((t) => t instanceof PDFRef);
        if (refs.size !== 1 || !indirect) failures.push({ ...(page ? { page } : {}), context: `${withProfile.length} output intents with ${refs.size} different DestOutputProfile objects${indirect ? '' : ' (or a direct one)'}` });
      }
      return { checked, failures };
    },
  },
  {
    id: 'pdfa.output-intent.no-profile-ref',
    clauses: { 2: '6.2.3', 3: '6.2.3', 4: '6.2.3' },
    description: (p) => (p.part === 4 ? 'No output intent shall have the DestOutputProfileRef key (an external profile).' : 'No PDF/X output intent (S GTS_PDFX) shall have the DestOutputProfileRef key (an external profile).'),
    test: (m, p) =>
      eachOf(
        intents(m).filter((i) => p.part === 4 || i.subtype === 'GTS_PDFX'),
        (i) => !i.dict.has(name('DestOutputProfileRef')),
        (i) => ({ ...where(i), context: `${i.subtype ?? 'output'} intent uses DestOutputProfileRef` }),
      ),
  },
];

