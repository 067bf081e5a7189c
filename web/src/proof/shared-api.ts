/**
 * The proof page speaks to the two public share routes only (docs/api.md §3, Share links),
 * with the link's token in the Share-Token header: never an API key, and never
 * in a URL the server sees (the token lives in this page's fragment).
 */

export class ShareFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PercentRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type Severity = 'error' | 'warn' | 'info';

export interface SharedFinding {
  number: number;
  severity: Severity;
  message: string;
  pages: number[];
  fixable: boolean;
}

export interface SharedPage {
  page: number;
  previewUrl: string | null;
  proofUrl: string | null;
  width: number | null;
  height: number | null;
  boxes: (PercentRect & { finding: number; severity: Severity })[];
  trimBox: PercentRect | null;
  bleedBox: PercentRect | null;
}

export interface SharedFile {
  name: string;
  status: string;
  outcome: string | null;
  reason: string | null;
  preflight: { outcome: 'pass' | 'warn' | 'fail'; errors: number; warnings: number; infos: number } | null;
  findings: SharedFinding[];
  pages: SharedPage[];
  fixed: { fileName: string; sizeBytes: number; downloadUrl: string } | null;
}

export interface Approval {
  decision: 'approved' | 'changes_requested';
  note: string | null;
  at: string;
}

export interface SharedJob {
  job: { id: string; createdAt: string; status: string; outcome: string | null; finished: boolean };
  share: { expiresAt: string; allowDecision: boolean };
  approval: Approval | null;
  files: SharedFile[];
}

async function send<T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'share-token': token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ShareFailure(0, 'network', 'The service could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: reported below
  }
  if (!res.ok) {
    const e = (json ?? {}) as { code?: string; message?: string };
    throw new ShareFailure(res.status, e.code ?? 'unknown', e.message ?? `The service answered ${res.status}.`);
  }
  return json as T;
}

export const loadSharedJob = (token: string): Promise<SharedJob> => send('GET', '/share', token);

export const decide = (token: string, decision: Approval['decision'], note: string): Promise<SharedJob> =>
  send('POST', '/share/decision', token, { decision, note: note.trim() === '' ? null : note.trim() });
