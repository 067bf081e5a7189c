/**
 * A lazily computed, memoised fact about a document:
 *   const fontPrograms = fact('font-programs', (m) => …);
 *   fontPrograms(model) // computed on the first call, the same value after
 * Kept apart from model.ts so area modules can define facts without importing
 * the model's own fact definitions (no import cycles).
 */
import type { ValidationModel } from './model';

export function fact<T>(label: string, compute: (m: ValidationModel) => T): (m: ValidationModel) => T {
  const key = Symbol(label);
  return (m) => m.memo(key, () => compute(m));
}
