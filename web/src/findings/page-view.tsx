/**
 * One page image with the located findings drawn over it by the browser: a frame per box in the
 * finding's severity colour, labelled with its number and severity symbol (colour is never the
 * only signal), the TrimBox and BleedBox as lines, and the chosen finding's frames highlighted.
 * Frames are placed by geometry.ts from the report's boxes; the frames answer clicks, while the
 * keyboard chooses findings from the list beside the page (the frames repeat that list, so they
 * are hidden from assistive technology and the figure's caption names the findings instead).
 *
 * Shared by the console's job page and the customer's proof page:
 *   <PageView image={{ url, width, height }} page={reportPage} pageNumber={3} marks={marksOnPage(findings, 3)}
 *             zoom={1} fitWidth={560} selected={2} onSelect={(n) => …} label="Page 3 of card.pdf" />
 *   <PageLegend />
 */
import { displaySize, pageAspect, screenRect, type PageBoxes, type PixelRect, type Rect, type Size } from './geometry';
import type { PageMark } from './marks';
import { SEVERITIES, severitySymbol, severityWord, type Severity } from './severity';

export interface PageImage {
  url: string;
  /** Pixel size of the image, when known (previews outputs carry it); else the page geometry gives its shape. */
  width: number | null;
  height: number | null;
}

export interface PageViewProps {
  /** null: the image is not there (yet); a placeholder of the page's shape is shown. */
  image: PageImage | null;
  /** The page's geometry from the report; null when the report has none (no frames are drawn). */
  page: PageBoxes | null;
  pageNumber: number;
  marks: PageMark[];
  zoom: number;
  /** Width in CSS px at zoom 1. */
  fitWidth: number;
  /** The chosen finding's number. */
  selected?: number | null;
  onSelect?: (findingNumber: number) => void;
  /** Names the image for people who cannot see it. */
  label: string;
  /** Shown in the placeholder while there is no image. */
  placeholder?: string;
}

const px = (r: PixelRect) => ({ left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
/** Frames smaller than this get a halo so a hairline's box can still be seen and clicked. */
const TINY_PX = 8;

function sizeOf(image: PageImage | null, page: PageBoxes | null): Size {
  if (image?.width && image.height) return { width: image.width, height: image.height };
  return { width: page ? pageAspect(page) : 1 / Math.SQRT2, height: 1 };
}

function Line({ kind, rect }: { kind: 'trim' | 'bleed'; rect: PixelRect | null }) {
  return rect ? <div class={`page-line page-line-${kind}`} style={px(rect)} aria-hidden="true" /> : null;
}

export function PageView(props: PageViewProps) {
  const { image, page, marks, zoom, fitWidth, selected, onSelect } = props;
  const display = displaySize(sizeOf(image, page), fitWidth, zoom);
  const place = (box: Rect | null) => (page && box ? screenRect(page, display, box) : null);
  const framed = marks.flatMap((m) => m.boxes.map((box) => ({ mark: m, rect: place(box) })).filter((f): f is { mark: PageMark; rect: PixelRect } => f.rect !== null));
  // Frames in the same place (an image found too coarse and in RGB) set their labels side by side.
  const corner = (r: PixelRect) => `${Math.round(r.left)},${Math.round(r.top)}`;
  const labelSlot = framed.map((f, i) => framed.slice(0, i).filter((g) => corner(g.rect) === corner(f.rect)).length);
  // A finding none of whose boxes shows on the image keeps its badge in the top row.
  const badges = marks.filter((m) => !framed.some((f) => f.mark.number === m.number));
  const described = marks.length === 0 ? 'no findings' : `findings ${marks.map((m) => m.number).join(', ')}`;
  return (
    <figure class="page-view" data-page={props.pageNumber}>
      <div class="page-canvas" style={{ width: `${display.width}px`, height: `${display.height}px` }} data-zoom={zoom}>
        {image ? (
          <img class="page-image" src={image.url} alt={props.label} width={Math.round(display.width)} height={Math.round(display.height)} draggable={false} />
        ) : (
          <div class="page-placeholder" role="img" aria-label={props.label}>
            {props.placeholder ?? 'Page image not available'}
          </div>
        )}
        <Line kind="bleed" rect={place(page?.bleedBox ?? null)} />
        <Line kind="trim" rect={place(page?.trimBox ?? null)} />
        {framed.map(({ mark, rect }, i) => (
          <div
            class={`mark mark-${mark.severity}${mark.number === selected ? ' mark-selected' : ''}${rect.width < TINY_PX || rect.height < TINY_PX ? ' mark-tiny' : ''}`}
            style={px(rect)}
            data-finding={mark.number}
            aria-hidden="true"
            title={`${mark.number}: ${severityWord(mark.severity)}`}
            onClick={() => onSelect?.(mark.number)}
          >
            <span class="mark-label" style={labelSlot[i] ? { left: `calc(${labelSlot[i] * 2.9}rem - 2px)` } : undefined}>
              {severitySymbol(mark.severity)} {mark.number}
            </span>
          </div>
        ))}
        {badges.length > 0 && (
          <div class="mark-badges" aria-hidden="true">
            {badges.map((m) => (
              <span class={`mark-label mark-${m.severity}${m.number === selected ? ' mark-selected' : ''}`} data-finding={m.number} onClick={() => onSelect?.(m.number)}>
                {severitySymbol(m.severity)} {m.number}
              </span>
            ))}
          </div>
        )}
      </div>
      <figcaption class="visually-hidden">
        {props.label}: {described}.
      </figcaption>
    </figure>
  );
}

/** What the colours, symbols and lines on a page mean. */
export function PageLegend() {
  return (
    <ul class="page-legend" aria-label="Legend">
      {SEVERITIES.map((s: Severity) => (
        <li>
          <span class={`legend-swatch mark-${s}`} aria-hidden="true">
            {severitySymbol(s)}
          </span>{' '}
          {severityWord(s)}
        </li>
      ))}
      <li>
        <span class="legend-line page-line-trim" aria-hidden="true" /> TrimBox (the finished size)
      </li>
      <li>
        <span class="legend-line page-line-bleed" aria-hidden="true" /> BleedBox (how far the bleed reaches)
      </li>
      <li>
        <span class="legend-swatch mark-selected-sample" aria-hidden="true" /> The chosen finding
      </li>
    </ul>
  );
}
