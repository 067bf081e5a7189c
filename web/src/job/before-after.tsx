/**
 * A file before and after its fixes, side by side, page by page: the original's page with its
 * findings framed beside the fixed file's page with the findings that remain, then what autofix
 * applied and skipped, and the remaining findings as a list (choosing one highlights it on the
 * "after" pages).
 */
import { useState } from 'preact/hooks';
import { FindingsList } from '../findings/findings-list';
import { marksOnPage } from '../findings/marks';
import { PageLegend, PageView } from '../findings/page-view';
import type { PreflightReport } from '../findings/report';
import { ZoomControls, zoomKeys } from '../findings/zoom-controls';
import type { FixCatalogue } from './fix-catalogue';
import type { JobResults } from './job-detail';
import { pageNumbers } from './page-inspector';
import type { PageImages } from './page-images';

/** Two pages fit side by side in the console's width at zoom 1. */
const HALF_WIDTH = 420;

export interface Side {
  report: PreflightReport | null;
  images: PageImages | null;
  note: string;
}

function counts(r: PreflightReport | null): string {
  if (!r) return 'no report';
  const { errors, warnings, infos } = r.summary;
  return `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}, ${infos} information`;
}

export function BeforeAfter(props: { idPrefix: string; fileLabel: string; before: Side; after: Side; autofix: NonNullable<JobResults['autofix']>[number] | null; fixes: FixCatalogue }) {
  const { before, after, autofix, fixes, fileLabel } = props;
  const [zoom, setZoom] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const pages = pageNumbers(after.report ?? before.report, after.images ?? before.images);
  const side = (s: Side, page: number, which: 'Before' | 'After') => (
    <div class="side">
      <p class="side-label">
        {which}, page {page}
      </p>
      <PageView
        image={s.images?.get(page) ?? null}
        page={s.report?.pages.find((p) => p.page === page) ?? null}
        pageNumber={page}
        marks={s.report ? marksOnPage(s.report.findings, page) : []}
        zoom={zoom}
        fitWidth={HALF_WIDTH}
        selected={which === 'After' ? selected : null}
        onSelect={which === 'After' ? setSelected : undefined}
        label={`${which} fixing: page ${page} of ${fileLabel}`}
        placeholder={s.note}
      />
    </div>
  );
  return (
    <div class="before-after-view" id={`${props.idPrefix}-before-after`}>
      <p>
        <strong>Before:</strong> {counts(before.report)}. <strong>After:</strong> {counts(after.report)}.
      </p>
      {autofix && (
        <ul class="applied">
          {autofix.applied.map((a) => (
            <li>
              <span aria-hidden="true">✎</span> Applied <strong>{fixes.get(a.fixId)?.name ?? a.fixId}</strong>
              {a.pages.length > 0 ? ` on ${a.pages.length === 1 ? `page ${a.pages[0]}` : `${a.pages.length} pages`}` : ''}
              {a.count > 1 ? ` (${a.count} changes)` : ''}
            </li>
          ))}
          {autofix.skipped.map((s) => (
            <li>
              <span aria-hidden="true">–</span> Not applied: <strong>{fixes.get(s.fixId)?.name ?? s.fixId}</strong>: {s.reason}
            </li>
          ))}
        </ul>
      )}
      <ZoomControls zoom={zoom} onZoom={setZoom} label="Zoom of the before and after pages" />
      <div class="before-after-pages" tabIndex={0} role="region" aria-label={`Before and after fixing ${fileLabel}, page by page; keys + and − zoom`} onKeyDown={(e) => zoomKeys(e, zoom, setZoom)}>
        {pages.map((n) => (
          <div class="before-after" data-page={n}>
            {side(before, n, 'Before')}
            {side(after, n, 'After')}
          </div>
        ))}
      </div>
      <PageLegend />
      <h4>Findings that remain</h4>
      <FindingsList findings={after.report?.findings ?? []} selected={selected} onSelect={setSelected} headingLevel={4} emptyText="None: the fixed file has no findings left." />
    </div>
  );
}
