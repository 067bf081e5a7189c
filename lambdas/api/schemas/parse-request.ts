/**
 * How handlers parse their input: with the zod schema of the route, keeping
 * each zod issue's input so the error can say "is required" for an absent field
 * whatever its type (an enum reports a missing value like a wrong one). The
 * input never reaches the response; the http-errors middleware reads only
 * the path and the kind of problem.
 */
import type { z } from 'zod';

export function parseRequest<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  return schema.parse(value, { reportInput: true });
}
