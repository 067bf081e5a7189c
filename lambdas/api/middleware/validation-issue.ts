/**
 * Turns a zod validation failure into the contract's one-field error: `param`
 * is the dotted/indexed path of the field at fault (`sources[0].url`) and the
 * message names it (`sources[0]: exactly one of url, file, fileRef`), so a
 * client's developer sees at once what to change. Only the first problem is
 * reported; fixing it reveals the next.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

export interface FieldProblem {
  /** Undefined when the body as a whole is wrong (not an object). */
  param: string | undefined;
  message: string;
}

export type ParamFormat = (path: Path) => string | undefined;

export function formatParam(path: Path): string | undefined {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? undefined : out;
}

/**
 * The same with every key that is not a plain name quoted in brackets:
 * `checks["colour.tac"].thresholds.max_percent`. For bodies keyed by ids with dots
 * (an account profile's check ids), where the dotted form could not be read back.
 */
export function formatQuotedParam(path: Path): string | undefined {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(segment))) out += out === '' ? String(segment) : `.${String(segment)}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out === '' ? undefined : out;
}

/**
 * A union's own issue says only "no branch matched". When one branch got
 * further than the others (the input had the right shape but a bad field), its
 * deepest issue is the helpful one: `webhook: { url: 3 }` → `webhook.url`.
 */
function unionBranchIssue(issue: Extract<Issue, { code: 'invalid_union' }>): Issue | null {
  let best: Issue | null = null;
  for (const branch of issue.errors ?? []) {
    const first = branch[0];
    if (!first || first.path.length === 0) continue;
    if (!best || first.path.length > best.path.length) best = first;
  }
  return best;
}

/**
 * An absent field. Parsed with `reportInput` (api/schemas/parse-request.ts) the
 * issue carries the input; otherwise zod's wording of a type mismatch against
 * undefined tells (in every branch of a union).
 */
function isMissing(issue: Issue): boolean {
  if ('input' in issue && issue.input === undefined) return true;
  if (issue.code === 'invalid_type') return /received undefined$/.test(issue.message);
  if (issue.code === 'invalid_union') {
    const branches = issue.errors ?? [];
    return branches.length > 0 && branches.every((b) => b.length > 0 && b.every((i) => i.path.length === 0 && isMissing(i)));
  }
  return false;
}

function describe(issue: Issue, basePath: Path, formatParam: ParamFormat): FieldProblem {
  const path = [...basePath, ...issue.path];
  switch (issue.code) {
    case 'unrecognized_keys': {
      const fieldPath = [...path, issue.keys[0] ?? ''];
      const message = issue.keys.length === 1 ? 'unknown field' : `unknown fields: ${issue.keys.join(', ')}`;
      return { param: formatParam(fieldPath), message };
    }
    case 'invalid_union': {
      // Discriminated unions report an unknown discriminator this way (zod 4).
      const extra = issue as { note?: string; options?: unknown[] };
      if (extra.note === 'No matching discriminator') {
        const options = extra.options ?? [];
        return { param: formatParam(path), message: `must be one of ${options.map(String).join(', ')}` };
      }
      if (isMissing(issue)) return { param: formatParam(path), message: 'is required' };
      const inner = unionBranchIssue(issue);
      if (inner) return describe(inner, path, formatParam);
      return { param: formatParam(path), message: issue.message };
    }
    case 'invalid_key': {
      // A record key (a header name) is at fault: report the key's own problem.
      const inner = issue.issues[0];
      return { param: formatParam(path), message: inner ? inner.message : issue.message };
    }
    case 'invalid_type':
      if (isMissing(issue)) return { param: formatParam(path), message: 'is required' };
      return { param: formatParam(path), message: issue.message.replace(/^Invalid input: /, '') };
    case 'invalid_value': {
      if (isMissing(issue)) return { param: formatParam(path), message: 'is required' };
      const values = issue.values.map((v) => JSON.stringify(v)).join(', ');
      return { param: formatParam(path), message: issue.values.length === 1 ? `must be ${values}` : `must be one of ${values}` };
    }
    default:
      return { param: formatParam(path), message: issue.message };
  }
}

export function describeZodError(error: z.core.$ZodError, format: ParamFormat = formatParam): FieldProblem & { text: string } {
  const first = error.issues[0];
  const problem: FieldProblem = first ? describe(first, [], format) : { param: undefined, message: 'is not valid' };
  const subject = problem.param ?? 'request body';
  return { ...problem, text: `${subject}: ${problem.message}` };
}
