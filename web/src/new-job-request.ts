/**
 * The New job form as data: the operations it offers, what staff typed, and the POST /jobs body
 * it becomes, or the sentences that say what to correct, field by field. Free of DOM types, so
 * the unit tests run it under Node (and hold its bodies to the API's own schema).
 *
 * Every operation is sent to POST /jobs with the steps its convenience endpoint would build
 * (docs/api.md §3): only POST /jobs takes the order's fields (orderId, customerId, customerEmail,
 * policy), and it takes the order context (§6) for every operation alike.
 */

export type OperationId = 'preflight' | 'fix' | 'validate' | 'previews' | 'optimize' | 'pipeline';

export interface Step {
  type: string;
  params?: Record<string, unknown>;
}

export interface Operation {
  id: OperationId;
  label: string;
  /** What it does, in the words shop staff read beside the choice. */
  description: string;
  /** Whether it runs a preflight, so a profile is chosen (and the order context narrows it). */
  usesProfile: boolean;
  steps: (form: NewJobForm) => Step[];
}

const preflight = (form: NewJobForm): Step => ({ type: 'preflight', params: { profileId: form.profileId } });
const validateProfile = (codes: string[]) => (codes.length === 1 ? codes[0] : codes);

export const OPERATIONS: readonly Operation[] = [
  { id: 'preflight', label: 'Preflight', description: 'Check the files against a profile.', usesProfile: true, steps: (f) => [preflight(f)] },
  {
    id: 'fix',
    label: 'Fix',
    description: 'Preflight, apply the fixes the findings recommend, and preflight the fixed file again.',
    usesProfile: true,
    steps: (f) => [preflight(f), { type: 'autofix' }, { type: 'repreflight' }],
  },
  {
    id: 'validate',
    label: 'Validate',
    description: 'Check conformance to PDF/A or PDF/UA.',
    usesProfile: false,
    steps: (f) => [{ type: 'validate', params: { profile: validateProfile(f.validateCodes) } }],
  },
  { id: 'previews', label: 'Previews', description: 'Render an image of every page.', usesProfile: false, steps: () => [{ type: 'previews' }] },
  { id: 'optimize', label: 'Optimize', description: 'Make the files smaller without a visible change.', usesProfile: false, steps: () => [{ type: 'optimize' }] },
  {
    id: 'pipeline',
    label: 'Full pipeline',
    description: 'Preflight, fix, preflight again and render page previews of the result.',
    usesProfile: true,
    steps: (f) => [preflight(f), { type: 'autofix' }, { type: 'repreflight' }, { type: 'previews' }],
  },
];

export const ON_FAIL = ['reject', 'accept_with_warnings', 'manual_review'] as const;

/** What staff typed: text fields as typed (a number field is parsed when the request is built). */
export interface NewJobForm {
  operation: OperationId;
  profileId: string;
  validateCodes: string[];
  orderId: string;
  customerId: string;
  customerEmail: string;
  onFail: (typeof ON_FAIL)[number];
  widthMm: string;
  heightMm: string;
  pagesMin: string;
  pagesMax: string;
  filesMin: string;
  filesMax: string;
  bleedMm: string;
  safetyMm: string;
}

export const EMPTY_FORM: NewJobForm = {
  operation: 'preflight',
  profileId: 'default',
  validateCodes: [],
  orderId: '',
  customerId: '',
  customerEmail: '',
  onFail: 'reject',
  widthMm: '',
  heightMm: '',
  pagesMin: '',
  pagesMax: '',
  filesMin: '',
  filesMax: '',
  bleedMm: '',
  safetyMm: '',
};

/** One file on the page as the request needs it: uploaded (with its fileRef), or not (yet). */
export interface FileEntry {
  name: string;
  state: 'checking' | 'uploading' | 'uploaded' | 'failed';
  fileRef: string | null;
}

export type FieldName = keyof NewJobForm | 'files';
export type FieldErrors = Partial<Record<FieldName, string>>;

/** docs/api.md §3: 1 to 50 sources per job. */
export const MAX_FILES = 50;
const MAX_ID = 128;
const MAX_NAME = 255;

/** The uploads a job can be made of: every file uploaded, or the sentence that says why not. */
export function fileRefsOf(files: readonly FileEntry[]): { ok: true; sources: { fileRef: string; name: string }[] } | { ok: false; problem: string } {
  if (files.length === 0) return { ok: false, problem: 'Add at least one file.' };
  if (files.length > MAX_FILES) return { ok: false, problem: `A job takes at most ${MAX_FILES} files; remove ${files.length - MAX_FILES}.` };
  const waiting = files.filter((f) => f.state === 'checking' || f.state === 'uploading').length;
  if (waiting > 0) return { ok: false, problem: `Wait until every file is uploaded (${waiting} still uploading).` };
  const failed = files.filter((f) => f.state === 'failed' || f.fileRef === null).length;
  if (failed > 0) return { ok: false, problem: `Remove or retry the ${failed === 1 ? 'file' : `${failed} files`} that could not be uploaded.` };
  return { ok: true, sources: files.map((f) => ({ fileRef: f.fileRef!, name: sourceName(f.name) })) };
}

/**
 * The name a source may carry (1 to 255 characters, no control characters): a file name as the
 * operating system gave it, which is customer input and is only ever shown as text.
 */
export function sourceName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...(clean || 'file')].slice(0, MAX_NAME).join('');
}

type Parsed = number | undefined | { error: string };

function number(text: string, rule: { integer?: boolean; positive?: boolean }): Parsed {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) return { error: 'Enter a number.' };
  if (rule.integer && !Number.isInteger(n)) return { error: 'Enter a whole number.' };
  if (rule.positive ? n <= 0 : n < 0) return { error: rule.positive ? 'Enter a number above 0.' : 'Enter 0 or more.' };
  return n;
}

/** The POST /jobs body for these files and this form, or what to correct (by field). */
export function buildJobRequest(form: NewJobForm, files: readonly FileEntry[]): { ok: true; body: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const operation = OPERATIONS.find((o) => o.id === form.operation);
  if (!operation) errors.operation = 'Choose an operation.';
  const refs = fileRefsOf(files);
  if (!refs.ok) errors.files = refs.problem;
  if (operation?.usesProfile && !form.profileId) errors.profileId = 'Choose a profile.';
  if (form.operation === 'validate' && form.validateCodes.length === 0) errors.validateCodes = 'Choose at least one standard to validate against.';

  for (const field of ['orderId', 'customerId'] as const) {
    if (form[field].trim().length > MAX_ID) errors[field] = `At most ${MAX_ID} characters.`;
  }
  const email = form.customerEmail.trim();
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.customerEmail = 'Enter an e-mail address such as buyer@example.com.';

  const read = (field: keyof NewJobForm, rule: { integer?: boolean; positive?: boolean }): number | undefined => {
    const v = number(form[field] as string, rule);
    if (typeof v === 'object') {
      errors[field] = v.error;
      return undefined;
    }
    return v;
  };
  const width = read('widthMm', { positive: true });
  const height = read('heightMm', { positive: true });
  if ((width === undefined) !== (height === undefined) && !errors.widthMm && !errors.heightMm) {
    errors[width === undefined ? 'widthMm' : 'heightMm'] = 'Give both the width and the height of the artwork, or neither.';
  }
  const range = (minField: keyof NewJobForm, maxField: keyof NewJobForm) => {
    const min = read(minField, { integer: true });
    const max = read(maxField, { integer: true });
    if (min !== undefined && max !== undefined && min > max) errors[maxField] = 'The maximum must not be below the minimum.';
    return min === undefined && max === undefined ? undefined : { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
  };
  const pageCount = range('pagesMin', 'pagesMax');
  const fileCount = range('filesMin', 'filesMax');
  const bleed = read('bleedMm', {});
  const safety = read('safetyMm', {});

  if (Object.keys(errors).length > 0 || !refs.ok || !operation) return { ok: false, errors };

  const context = {
    ...(width !== undefined && height !== undefined ? { artworkSize: { width_mm: width, height_mm: height } } : {}),
    ...(pageCount ? { pageCount } : {}),
    ...(fileCount ? { fileCount } : {}),
    ...(bleed !== undefined ? { bleed: { required_mm: bleed } } : {}),
    ...(safety !== undefined ? { safety: { min_mm: safety } } : {}),
  };
  const steps = operation.steps(form);
  return {
    ok: true,
    body: {
      sources: refs.sources.map((s) => ({ ...s, steps })),
      ...(form.orderId.trim() ? { orderId: form.orderId.trim() } : {}),
      ...(form.customerId.trim() ? { customerId: form.customerId.trim() } : {}),
      ...(email ? { customerEmail: email } : {}),
      policy: { onFail: form.onFail },
      ...(Object.keys(context).length > 0 ? { context } : {}),
    },
  };
}
