/**
 * Preflight: checks a PDF or image file against a profile (with the order
 * context applied) and returns the verdict, the report and the thresholds used.
 * The step worker calls this; it reads only the local file at `path`.
 */
import type { CheckVerdict, OrderContext } from '../../domain/model';
import { openPdfFile } from '../core/load-pdf';
import { groupFindings, recommendedFixes, summarise, verdictOf, type MessageWriter, type Observation } from './findings';
import { gatherPdfFacts } from './pdf-facts';
import { checkPdf, PDF_MESSAGES } from './pdf-checks';
import { checkRaster, gatherRasterFacts, RASTER_MESSAGES } from './raster';
import type { PreflightReport } from './report';
import { resolveSettings, type PreflightSettings } from './settings';

export type { PreflightReport } from './report';
export type { Finding } from './findings';

export interface PreflightInput {
  path: string;
  fileType: 'pdf' | 'raster';
  profileId: string;
  context: OrderContext | null;
}

export interface PreflightResult {
  outcome: CheckVerdict;
  report: PreflightReport;
  runtimeParams: Record<string, unknown>;
}

export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  const settings = resolveSettings(input.profileId, input.context);
  const report = input.fileType === 'raster' ? await preflightRaster(input.path, settings) : await preflightPdf(input.path, settings);
  return { outcome: report.outcome, report, runtimeParams: settings.runtimeParams };
}

async function preflightPdf(path: string, settings: PreflightSettings): Promise<PreflightReport> {
  const pdf = await openPdfFile(path);
  const facts = gatherPdfFacts(pdf);
  const observations = checkPdf(facts, settings);
  const listedImages = facts.images.slice(0, MAX_LISTED_IMAGES).map(({ bitDepthOne: _, ...img }) => img);
  return assemble(settings, observations, PDF_MESSAGES, facts.document.pageCount, {
    document: facts.document,
    pages: facts.pages.map(({ boxes: _, ...p }) => p),
    fonts: facts.fonts.map(({ info: _, visible: __, ...f }) => f),
    images: listedImages,
    ...(facts.images.length > MAX_LISTED_IMAGES ? { imagesTruncated: true } : {}),
  });
}

/** Image placements listed in a report; findings still cover every placement. */
const MAX_LISTED_IMAGES = 500;

async function preflightRaster(path: string, settings: PreflightSettings): Promise<PreflightReport> {
  const document = await gatherRasterFacts(path, settings);
  const observations = checkRaster(document, settings);
  return assemble(settings, observations, RASTER_MESSAGES, document.pageCount, { document, pages: [], fonts: [], images: [] });
}

function assemble(
  settings: PreflightSettings,
  observations: Observation[],
  messages: Record<string, MessageWriter>,
  pageCount: number,
  sections: Pick<PreflightReport, 'document' | 'pages' | 'fonts' | 'images'> & { imagesTruncated?: boolean },
): PreflightReport {
  const findings = groupFindings(
    observations,
    (id) => settings.severity(id),
    (id) => messages[id] ?? (() => `Check ${id} found a problem.`),
    (id) => settings.fixFor(id),
    settings.checkOrder,
  );
  const outcome = verdictOf(findings);
  return {
    profile: { id: settings.profile.id, name: settings.profile.name },
    outcome,
    summary: summarise(findings, pageCount),
    ...sections,
    findings,
    recommendedFixes: recommendedFixes(findings),
  };
}
