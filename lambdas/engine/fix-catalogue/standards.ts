/** Fixes of metadata and of PDF/A and PDF/X conformance, applied last (catalogue entries; implementations in autofix/standards/). */
import { fix } from './types';

export const STANDARDS_FIXES = [
  fix({
    id: 'metadata.sync',
    name: 'Synchronise Info and XMP metadata',
    description:
      'Makes the document information dictionary and the XMP metadata agree (title, author, subject, keywords, creating application, producer, creation and modification dates), creating the XMP packet when there is none; when anything changes, the modification dates become now and the producer says the file was modified with Proofline.',
    resolves: [],
    appearance: 'none',
  }),
  fix({
    id: 'pdfa.prepare',
    name: 'Prepare for PDF/A',
    description:
      'Adds what a PDF/A file declares beyond its content: the PDF/A identification in XMP, an output intent (the file\'s own profile or sRGB), a file identifier, a suitable header version, synchronised metadata; removes JavaScript and other actions PDF/A forbids; makes annotations print and stay visible. Fonts, colour, transparency and images are not changed: validation reports whatever of them still fails.',
    resolves: ['document.javascript'],
    params: [
      { name: 'part', type: 'number', default: 2, min: 1, max: 3, description: 'The PDF/A part to prepare for (1, 2 or 3).' },
      { name: 'conformance', type: 'string', default: 'b', values: ['b'], description: 'The conformance level (b: visual appearance).' },
    ],
    appearance: 'intended',
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
    appearance: 'none',
  }),
];
