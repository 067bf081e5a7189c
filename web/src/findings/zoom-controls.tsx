/**
 * Zoom for page images: buttons (with their keys in their names), the level as text, and
 * `zoomKeys`, the keyboard handler a page region uses: + or = zooms in, - zooms out, 0 fits the
 * page to the width again.
 */
import { stepZoom } from './geometry';

export function ZoomControls({ zoom, onZoom, label }: { zoom: number; onZoom: (z: number) => void; label: string }) {
  return (
    <div class="zoom-controls" role="group" aria-label={label}>
      <button type="button" onClick={() => onZoom(stepZoom(zoom, -1))} aria-label="Zoom out (key −)" aria-keyshortcuts="-">
        −
      </button>
      <span class="zoom-level" aria-live="polite">
        {Math.round(zoom * 100)} %
      </span>
      <button type="button" onClick={() => onZoom(stepZoom(zoom, 1))} aria-label="Zoom in (key +)" aria-keyshortcuts="+">
        +
      </button>
      <button type="button" onClick={() => onZoom(1)} aria-keyshortcuts="0">
        Fit width (key 0)
      </button>
    </div>
  );
}

/** Handles the zoom keys; true when the key was one of them. */
export function zoomKeys(e: KeyboardEvent, zoom: number, onZoom: (z: number) => void): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const next = e.key === '+' || e.key === '=' ? stepZoom(zoom, 1) : e.key === '-' ? stepZoom(zoom, -1) : e.key === '0' ? 1 : null;
  if (next === null) return false;
  e.preventDefault();
  onZoom(next);
  return true;
}
