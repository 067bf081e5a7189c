/**
 * File names: a source's name when the client gave none (from its URL), and the
 * download names of the files the pipeline stores. They derive from the source's
 * name so a shop's customer recognises them (`card.pdf` → `card-fixed.pdf`,
 * `card-page-2.jpg`); storage keys are fixed per output (blob-keys.ts) and do not
 * depend on these, so a re-run overwrites rather than duplicates.
 */
const EXTENSION_BY_MIME: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/tiff': 'tif',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'application/postscript': 'eps',
  'application/json': 'json',
};

export function extensionForMime(mimeType: string | null | undefined): string | null {
  return mimeType ? (EXTENSION_BY_MIME[mimeType.toLowerCase()] ?? null) : null;
}

/** `card.final.pdf` → { stem: 'card.final', ext: 'pdf' }; no extension → ext null. */
export function splitFileName(name: string): { stem: string; ext: string | null } {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  // A leading dot is a hidden-file name, not an extension; over-long "extensions"
  // are part of the name ("report.final version").
  if (dot <= 0 || dot === base.length - 1 || base.length - dot > 6 || /\s/.test(base.slice(dot))) {
    return { stem: base || 'file', ext: null };
  }
  return { stem: base.slice(0, dot), ext: base.slice(dot + 1) };
}

/** Half of a UTF-16 surrogate pair without the other half: not text in any encoding; it cannot be written as UTF-8. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Adds the detected type's extension to a name without one, so a download opens in the right program. */
export function withExtension(name: string, mimeType: string | null): string {
  if (splitFileName(name).ext !== null) return name;
  const ext = extensionForMime(mimeType);
  return ext ? `${name}.${ext}` : name;
}

/** `card.pdf` + `fixed` → `card-fixed.pdf`; the extension given wins over the source's. */
export function derivedFileName(sourceName: string, suffix: string, ext?: string | null): string {
  const parts = splitFileName(sourceName);
  const extension = ext ?? parts.ext;
  return extension ? `${parts.stem}-${suffix}.${extension}` : `${parts.stem}-${suffix}`;
}

/** The last non-empty path segment of a URL, decoded; null when there is none. */
export function fileNameFromUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const segment = path.split('/').filter((p) => p !== '').pop();
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
