/**
 * The drawing laid over a page image to make a proof: a coloured frame around
 * each located box of a finding with the finding's number on a badge (a
 * finding found in several places on the page has several), and the TrimBox and
 * BleedBox as dashed lines. Built as SVG for sharp to composite; sizes follow
 * the image so a proof reads the same at any resolution.
 */
import { numberPath, numberSize } from './proof-digits';
import type { PixelRect } from './proof-geometry';

export type ProofSeverity = 'error' | 'warn' | 'info';

export const SEVERITY_COLOURS: Record<ProofSeverity, string> = { error: '#e00000', warn: '#ff8c00', info: '#1e64ff' };
export const TRIM_COLOUR = '#00a050';
export const BLEED_COLOUR = '#d000d0';

export interface ProofMark {
  /** As numbered in the report: the finding's index in report.findings, from 1. */
  number: number;
  severity: ProofSeverity;
  /** Where on the image; null puts the badge alone in the top left row (the finding concerns the page but its spot is not known here). */
  box: PixelRect | null;
}

export interface ProofDrawing {
  width: number;
  height: number;
  marks: ProofMark[];
  trim: PixelRect | null;
  bleed: PixelRect | null;
}

interface Badge {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The SVG document for `drawing`, the size of the image. */
export function proofOverlaySvg(drawing: ProofDrawing): string {
  const { width: W, height: H } = drawing;
  const short = Math.min(W, H);
  const stroke = Math.max(2, Math.round(short / 300));
  const digitHeight = Math.max(10, Math.round(short / 45));
  const parts: string[] = [];

  // Page boxes first, under the findings.
  if (drawing.bleed) parts.push(dashedFrame(drawing.bleed, BLEED_COLOUR, stroke, `${stroke * 2} ${stroke * 2}`, W, H));
  if (drawing.trim) parts.push(dashedFrame(drawing.trim, TRIM_COLOUR, stroke, `${stroke * 5} ${stroke * 3}`, W, H));

  // Later findings below earlier ones: the report's first (most severe) stays on top.
  const located = drawing.marks.filter((m): m is ProofMark & { box: PixelRect } => m.box !== null);
  for (const m of [...located].reverse()) parts.push(findingFrame(m.box, SEVERITY_COLOURS[m.severity], stroke, W, H));

  const placed: Badge[] = [];
  const margin = stroke * 2;
  for (const m of drawing.marks) {
    const size = badgeSize(m.number, digitHeight, stroke);
    const want = m.box ? badgeSpot(m.box, size, stroke, W, H) : { left: margin, top: margin };
    const spot = avoidOverlap({ ...want, ...size }, placed, stroke, W);
    placed.push(spot);
    parts.push(badge(spot, m.number, SEVERITY_COLOURS[m.severity], digitHeight, stroke));
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${parts.join('')}</svg>`;
}

/**
 * A frame whose inner edge lies on the box, so the flagged content itself is
 * not covered; kept inside the image when the box reaches its edges (a
 * finding about the whole page). Tiny boxes get a frame one can see.
 */
function findingFrame(box: PixelRect, colour: string, stroke: number, W: number, H: number): string {
  const min = stroke * 4;
  const grow = (start: number, length: number): [number, number] => (length >= min ? [start, length] : [start - (min - length) / 2, min]);
  const [x, w] = grow(box.left, box.width);
  const [y, h] = grow(box.top, box.height);
  const r = insideImage({ left: x - stroke / 2, top: y - stroke / 2, width: w + stroke, height: h + stroke }, stroke, W, H);
  // A white halo keeps the frame visible on dark artwork.
  return (
    `<rect x="${f(r.left)}" y="${f(r.top)}" width="${f(r.width)}" height="${f(r.height)}" fill="none" stroke="#ffffff" stroke-opacity="0.8" stroke-width="${stroke + 2}"/>` +
    `<rect x="${f(r.left)}" y="${f(r.top)}" width="${f(r.width)}" height="${f(r.height)}" fill="none" stroke="${colour}" stroke-width="${stroke}"/>`
  );
}

function dashedFrame(box: PixelRect, colour: string, stroke: number, dash: string, W: number, H: number): string {
  const width = Math.max(1, stroke / 2);
  const r = insideImage(box, width, W, H);
  return `<rect x="${f(r.left)}" y="${f(r.top)}" width="${f(r.width)}" height="${f(r.height)}" fill="none" stroke="${colour}" stroke-width="${f(width)}" stroke-dasharray="${dash}"/>`;
}

/** The rectangle with its stroke (centred on the outline) kept within the image. */
function insideImage(r: PixelRect, stroke: number, W: number, H: number): PixelRect {
  const half = stroke / 2;
  const left = Math.min(Math.max(r.left, half), W - half);
  const top = Math.min(Math.max(r.top, half), H - half);
  const right = Math.max(Math.min(r.left + r.width, W - half), left);
  const bottom = Math.max(Math.min(r.top + r.height, H - half), top);
  return { left, top, width: right - left, height: bottom - top };
}

function badgeSize(n: number, digitHeight: number, stroke: number): { width: number; height: number } {
  const text = numberSize(String(n), digitHeight);
  const pad = digitHeight * 0.45 + stroke;
  return { width: text.width + pad * 2, height: text.height + pad * 2 };
}

/** Just above the frame's top left corner, or inside it when there is no room above. */
function badgeSpot(box: PixelRect, size: { width: number; height: number }, stroke: number, W: number, H: number): { left: number; top: number } {
  const above = box.top - stroke - size.height;
  const top = above >= 0 ? above : Math.min(Math.max(box.top + stroke, 0), H - size.height);
  const left = Math.min(Math.max(box.left - stroke, 0), Math.max(0, W - size.width));
  return { left, top };
}

/** Moves a badge right (then onto a new row) until it covers no badge already placed. */
function avoidOverlap(b: Badge, placed: Badge[], gap: number, W: number): Badge {
  const hits = (c: Badge) => placed.some((p) => c.left < p.left + p.width + gap && p.left < c.left + c.width + gap && c.top < p.top + p.height + gap && p.top < c.top + c.height + gap);
  const c = { ...b };
  for (let i = 0; i < 200 && hits(c); i++) {
    c.left += c.width + gap;
    if (c.left + c.width > W) {
      c.left = b.left > 0 && b.left + b.width <= W ? 0 : b.left;
      c.top += c.height + gap;
    }
  }
  return c;
}

function badge(b: Badge, n: number, colour: string, digitHeight: number, stroke: number): string {
  const text = numberSize(String(n), digitHeight);
  const x = b.left + (b.width - text.width) / 2;
  const y = b.top + (b.height - text.height) / 2;
  const glyphStroke = Math.max(1.5, digitHeight / 7);
  return (
    `<rect x="${f(b.left)}" y="${f(b.top)}" width="${f(b.width)}" height="${f(b.height)}" rx="${f(stroke * 1.5)}" fill="${colour}" stroke="#ffffff" stroke-width="1"/>` +
    `<path d="${numberPath(String(n), x, y, digitHeight)}" fill="none" stroke="#ffffff" stroke-width="${f(glyphStroke)}" stroke-linecap="round"/>`
  );
}

const f = (n: number): string => String(Math.round(n * 100) / 100);
