/**
 * How big a step's inline `result` may be. A DynamoDB item holds at most
 * 400 KB, and a step item also carries its params and output artifacts, so the
 * job store refuses a result whose JSON exceeds MAX_INLINE_RESULT_BYTES rather
 * than failing on the item limit half-way through a pipeline. The step runner
 * checks `fitsInline(result)` first and puts a larger result in the blob store,
 * recording only `resultKey`.
 */
export const MAX_INLINE_RESULT_BYTES = 100 * 1024;

/**
 * The ceiling for a whole step item (params, outputs, result and attribute
 * names), leaving headroom under DynamoDB's 400 KB for its own size accounting.
 */
export const MAX_STEP_ITEM_BYTES = 350 * 1024;

/** UTF-8 bytes of the value's JSON, the measure both limits use. */
export function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

export function fitsInline(result: unknown): boolean {
  return jsonBytes(result) <= MAX_INLINE_RESULT_BYTES;
}

export class InlineResultTooLargeError extends Error {
  constructor(
    readonly stepId: string,
    readonly bytes: number,
    readonly limit: number,
    what = 'result',
  ) {
    super(
      `step ${stepId}: ${what} is ${bytes} bytes of JSON, over the ${limit}-byte inline limit; ` +
        'store it in the blob store and set resultKey instead',
    );
    this.name = 'InlineResultTooLargeError';
  }
}

/** Throws InlineResultTooLargeError when the result, or the step item as a whole, is too large to store inline. */
export function assertStepFits(stepId: string, result: unknown, wholeItem?: unknown): void {
  const resultBytes = jsonBytes(result);
  if (resultBytes > MAX_INLINE_RESULT_BYTES) throw new InlineResultTooLargeError(stepId, resultBytes, MAX_INLINE_RESULT_BYTES);
  if (wholeItem !== undefined) {
    const itemBytes = jsonBytes(wholeItem);
    if (itemBytes > MAX_STEP_ITEM_BYTES) throw new InlineResultTooLargeError(stepId, itemBytes, MAX_STEP_ITEM_BYTES, 'the step record (outputs and result)');
  }
}
