/**
 * One file's pages with its findings: thumbnails of every page (each with how many findings it
 * has), the chosen page large with the findings framed on it, zoom, the legend, and beside it the
 * findings grouped by severity. Choosing a finding (in the list, or by clicking its frame) goes to
 * its page, highlights its frames and says what fixing it would do.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { FindingsList } from '../findings/findings-list';
import { marksOnPage, pageToShow, pagesOf, boxesOn } from '../findings/marks';
import { PageLegend, PageView } from '../findings/page-view';
import type { PreflightReport, ReportFinding } from '../findings/report';
import { severitySymbol, severityWord } from '../findings/severity';
import { ZoomControls, zoomKeys } from '../findings/zoom-controls';
import type { FixCatalogue } from './fix-catalogue';
import type { PageImages } from './page-images';

/** The page's width at zoom 1, in CSS px: a readable page beside the findings list. */
export const FIT_WIDTH = 520;
const THUMB_WIDTH = 72;

export function pageNumbers(report: PreflightReport | null, images: PageImages | null): number[] {
  const count = Math.max(report?.pages.length ?? 0, report?.document.pageCount ?? 0, ...(images ? [...images.keys()] : [0]));
  return Array.from({ length: count }, (_, i) => i + 1);
}

/** What fixing the finding would do, from the fix catalogue. */
export function FixNote({ finding, fixes }: { finding: ReportFinding; fixes: FixCatalogue }) {
  const ids = finding.fix.fixIds ?? (finding.fix.fixId ? [finding.fix.fixId] : []);
  if (!finding.fix.available || ids.length === 0) return <p class="fix-note">No automatic fix resolves this: the file has to be corrected where it was made.</p>;
  return (
    <div class="fix-note">
      <p>"Fix it" would apply:</p>
      <ul>
        {ids.map((id) => {
          const fix = fixes.get(id);
          return (
            <li>
              <strong>{fix?.name ?? id}</strong>
              {fix && `: ${fix.description}`}
              {fix?.appearance === 'intended' && <span class="muted"> (this changes how the page looks)</span>}
              {fix?.appearance === 'none' && <span class="muted"> (the page prints as before)</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export interface PageInspectorProps {
  idPrefix: string;
  fileLabel: string;
  report: PreflightReport | null;
  images: PageImages | null;
  /** Said where a page image is missing (still rendering, or why not). */
  imagesNote: string;
  fixes: FixCatalogue;
}

export function PageInspector({ idPrefix, fileLabel, report, images, imagesNote, fixes }: PageInspectorProps) {
  const findings = report?.findings ?? [];
  const pages = pageNumbers(report, images);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const viewer = useRef<HTMLDivElement>(null);
  const chosen = selected !== null ? findings[selected - 1] ?? null : null;

  const choose = (n: number) => {
    setSelected(n);
    const f = findings[n - 1];
    const to = f ? pageToShow(f) : null;
    if (to !== null) setPage(to);
  };
  // Bring the chosen finding's frame into view (the page may be zoomed in).
  useEffect(() => {
    viewer.current?.querySelector('.mark-selected')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [selected, page, zoom]);

  const geometry = report?.pages.find((p) => p.page === page) ?? null;
  const image = images?.get(page) ?? null;
  const located = chosen ? boxesOn(chosen, page).length > 0 : false;
  return (
    <div class="inspector">
      <nav class="thumbs" aria-label={`Pages of ${fileLabel}`}>
        <ol>
          {pages.map((n) => {
            const count = marksOnPage(findings, n).length;
            const thumb = images?.get(n);
            return (
              <li>
                <button type="button" class="thumb" aria-current={n === page ? 'page' : undefined} onClick={() => setPage(n)} data-page={n}>
                  {thumb ? <img src={thumb.url} alt="" width={THUMB_WIDTH} loading="lazy" /> : <span class="thumb-blank" aria-hidden="true" />}
                  <span>
                    Page {n}
                    {count > 0 && <span class="thumb-count"> · {count === 1 ? '1 finding' : `${count} findings`}</span>}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <div class="viewer">
        <ZoomControls zoom={zoom} onZoom={setZoom} label={`Zoom of page ${page}`} />
        <div
          class="page-scroll"
          ref={viewer}
          tabIndex={0}
          role="region"
          aria-label={`Page ${page} of ${fileLabel}; keys + and − zoom`}
          onKeyDown={(e) => zoomKeys(e, zoom, setZoom)}
          id={`${idPrefix}-viewer`}
        >
          <PageView
            image={image}
            page={geometry}
            pageNumber={page}
            marks={marksOnPage(findings, page)}
            zoom={zoom}
            fitWidth={FIT_WIDTH}
            selected={selected}
            onSelect={choose}
            label={`Page ${page} of ${fileLabel}`}
            placeholder={imagesNote}
          />
        </div>
        <PageLegend />
      </div>
      <div class="findings-panel">
        <div class="finding-detail" aria-live="polite">
          {chosen ? (
            <>
              <p>
                <strong>
                  <span aria-hidden="true">{severitySymbol(chosen.severity)}</span> Finding {selected}, {severityWord(chosen.severity).toLowerCase()}
                </strong>{' '}
                ({pagesOf(chosen).length > 0 ? `shown on page ${page}${located ? '' : ', where the report gives no position'}` : 'the whole document'})
              </p>
              <p>{chosen.message}</p>
              <FixNote finding={chosen} fixes={fixes} />
            </>
          ) : (
            <p class="muted">Choose a finding to see it on its page and what fixing it would do.</p>
          )}
        </div>
        <FindingsList findings={findings} selected={selected} onSelect={choose} />
      </div>
    </div>
  );
}
