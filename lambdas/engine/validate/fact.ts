/**
 * A lazily computed, memoised fact about a document:
 *   const fontPrograms = fact('font-programs', (m) => …);
 *   fontPrograms(model) // computed on the first call, the same value after
 * Areas define their facts with this next to their rules; the model itself
 * imports nothing from validate/, so defining a fact never closes an import
 * cycle through the model.
 */
import type { ValidationModel } from './model';

export function fact<T>(label: string, compute: (m: ValidationModel) => T): (m: ValidationModel) => T {
  const key = Symbol(label);
  return (m) => m.memo(key, () => compute(m));
}
