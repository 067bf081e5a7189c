/**
 * How handlers parse their input: with the zod schema of the route, keeping
 * each zod issue's input so the error can say "is required" for an absent field
 * whatever its type (an enum reports a missing value like a wrong one). The
 * input never reaches the response; the http-errors middleware reads only
 * the path and the kind of problem.
 */
import type { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { describeZodError, type ParamFormat } from '../middleware/validation-issue';

/** `format`: how the error's `param` is written, when not the usual dotted path (validation-issue.ts). */
export function parseRequest<T extends z.ZodType>(schema: T, value: unknown, format?: ParamFormat): z.output<T> {
  if (!format) return schema.parse(value, { reportInput: true });
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const problem = describeZodError(parsed.error, format);
  throw new ApiError('validation_error', problem.text, problem.param);
}
