/**
 * Preflight: checks a PDF or image file against a profile (with the order
 * context applied) and returns the verdict, the report and the thresholds used.
 * The step worker calls this; it reads only the local file at `path`.
 */
import { basename } from 'node:path';
import type { CheckVerdict, OrderContext } from '../../domain/model';
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { PageInventory } from '../core/interpret/types';
import { pageInterpreter } from '../core/interpret/interpret-document';
import { openPdfFile, type OpenedPdf } from '../core/load-pdf';
import { engineDeadline } from '../guard/engine-deadline';
import { reportEngineProgress } from '../guard/engine-progress';
import { groupFindings, recommendedFixes, summarise, verdictOf, type MessageWriter, type Observation } from './findings';
import { gatherPdfFacts } from './pdf-facts';
import { checkPdf, PDF_MESSAGES } from './pdf-checks';
import { emptyInventory } from './inventory-page';
import { checkRaster, gatherRasterFacts, RASTER_MESSAGES, rasterImageSection } from './raster';
import type { CheckId } from './check-catalogue';
import { evaluate } from './evaluation';
import { referenceFacts } from './reference-facts';
import type { ImageSection, PageSection, PreflightReport } from './report';
import { resolveSettings, type PreflightSettings } from './settings';
import type { PreflightProfileInfo } from './profiles';

export type { PreflightReport } from './report';
export type { Finding } from './findings';

export interface PreflightInput {
  path: string;
  /** The file's name as its customer knows it (the report's `source.name`); default the path's last part. */
  name?: string;
  fileType: 'pdf' | 'raster';
  /** A built-in profile's id, or a resolved profile (an account's own, as recorded at submission). */
  profileId: string | PreflightProfileInfo;
  context: OrderContext | null;
  /** Image placements listed in the report (default 500); findings always cover every placement. */
  maxListedImages?: number;
}

export interface PreflightResult {
  outcome: CheckVerdict;
  report: PreflightReport;
  runtimeParams: Record<string, unknown>;
}

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const settings = resolveSettings(input.profileId, input.context);
  const name = input.name ?? basename(input.path);
  const report =
    input.fileType === 'raster'
      ? await preflightRaster(input.path, name, settings)
      : await preflightPdf(input.path, name, settings, input.maxListedImages ?? MAX_LISTED_IMAGES);
  return { outcome: report.outcome, report, runtimeParams: settings.runtimeParams };
}

async function preflightPdf(path: string, name: string, settings: PreflightSettings, maxListed: number): Promise<PreflightReport> {
  const pdf = await openPdfFile(path);
  try {
    return reportOf(pdf, name, settings, maxListed);
  } finally {
    pdf.source.close();
  }
}

function reportOf(pdf: OpenedPdf, name: string, settings: PreflightSettings, maxListed: number): PreflightReport {
  const facts = gatherPdfFacts(pdf, interpretPages(pdf.doc, settings));
  const observations = checkPdf(facts, settings);
  return assemble(settings, observations, PDF_MESSAGES, name, {
    document: facts.document,
    pages: facts.pages.map(({ boxes: _b, trim: _t, inventory: _i, ...p }) => p),
    fonts: facts.fonts.map(({ visible: _v, dict: _d, ...f }) => f),
    images: facts.images.slice(0, maxListed).map(({ within: _, ...img }) => img),
    ...(facts.images.length > maxListed ? { imagesTruncated: true } : {}),
    imageCount: facts.images.length,
    spotColors: facts.spotColors,
  });
}

/** Image placements listed in a report; findings still cover every placement. */
const MAX_LISTED_IMAGES = 500;

/**
 * Time the content analysis may take before it stops and says so, when not
 * running under the guard (whose soft deadline, 80 % into the file's budget,
 * wins so a slow file still gets a partial report rather than a timeout).
 */
const INTERPRET_BUDGET_MS = 40_000;

/**
 * The content inventory of every page. An interpreter failure must not cost the
 * customer the rest of the report: every page is then marked as not analysed,
 * which the report states as a finding.
 */
function interpretPages(doc: PDFDocument, settings: PreflightSettings): PageInventory[] {
  try {
    const interpret = pageInterpreter(doc, {
      deadline: engineDeadline() ?? Date.now() + INTERPRET_BUDGET_MS,
      // Decoding image data to estimate ink coverage costs more than the rest of
      // the analysis on image-heavy files; only profiles that limit TAC need it.
      ...(settings.severity('colour.tac') === 'off' ? { imageSamplingBytes: 0 } : {}),
    });
    // Reading the pages' content is most of a long preflight: its pages are the step's progress.
    const total = doc.getPageCount();
    reportEngineProgress(0, total);
    return Array.from({ length: total }, (_, i) => {
      const inventory = interpret(i);
      reportEngineProgress(i + 1, total);
      return inventory;
    });
  } catch (e) {
    const detail = `content analysis failed: ${e instanceof Error ? e.message : String(e)}`;
    return doc.getPages().map((_, i) => ({ ...emptyInventory(i + 1), empty: false, limits: [{ page: i + 1, limit: 'undecodable-content' as const, detail }] }));
  }
}

async function preflightRaster(path: string, name: string, settings: PreflightSettings): Promise<PreflightReport> {
  const document = await gatherRasterFacts(path, settings);
  const observations = checkRaster(document, settings);
  const images = [rasterImageSection(document)];
  return assemble(settings, observations, RASTER_MESSAGES, name, { document, pages: [], fonts: [], images, imageCount: 1, spotColors: [] });
}

/** What a report lists of the file, before the reference's view of it is added. */
type Sections = Pick<PreflightReport, 'document' | 'fonts' | 'imageCount' | 'spotColors'> & { pages: PageSection[]; images: ImageSection[]; imagesTruncated?: boolean };

/**
 * The report: the findings grouped from the observations, and the sections,
 * each with the reference's view of it added (docs/api.md §11 rule 5). `messages`
 * has an entry for exactly the checks this kind of file gets.
 */
function assemble(
  settings: PreflightSettings,
  observations: Observation<CheckId>[],
  messages: Partial<Record<CheckId, MessageWriter>>,
  name: string,
  sections: Sections,
): PreflightReport {
  const findings = groupFindings(
    observations,
    (id) => settings.severity(id),
    (id) => messages[id] ?? (() => `Check ${id} found a problem.`),
    (id) => settings.fixFor(id),
    settings.checkSequence,
  );
  const outcome = verdictOf(findings);
  const fixes = recommendedFixes(findings);
  const { pages, images, ...reference } = referenceFacts(name, sections);
  return {
    profile: { id: settings.profile.id, name: settings.profile.name },
    outcome,
    summary: summarise(findings, sections.document.pageCount),
    ...sections,
    pages,
    images,
    findings,
    recommendedFixes: fixes,
    ...reference,
    evaluation: evaluate({ findings, settings, checks: Object.keys(messages) as CheckId[], sections, recommendedFixes: fixes }),
  };
}
