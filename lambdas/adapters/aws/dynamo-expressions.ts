/**
 * Builds DynamoDB expressions with placeholders for every attribute name and
 * value, so record fields that are reserved words (status, name, source, …)
 * never need special cases.
 */
export class ExpressionBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private nameCount = 0;
  private valueCount = 0;
  private readonly nameIndex = new Map<string, string>();

  /** `#nX` for an attribute name; a dotted path becomes `#nX.#nY`. */
  name(path: string): string {
    return path
      .split('.')
      .map((part) => {
        let placeholder = this.nameIndex.get(part);
        if (placeholder === undefined) {
          placeholder = `#n${this.nameCount++}`;
          this.nameIndex.set(part, placeholder);
          this.names[placeholder] = part;
        }
        return placeholder;
      })
      .join('.');
  }

  value(value: unknown): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** `#status IN (:a, :b)`; callers must not pass an empty list (DynamoDB rejects `IN ()`). */
  in(path: string, values: readonly unknown[]): string {
    return `${this.name(path)} IN (${values.map((v) => this.value(v)).join(', ')})`;
  }

  /** `SET #a = :a, #b = :b` for every defined field. */
  set(fields: Record<string, unknown>): string {
    const parts = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${this.name(k)} = ${this.value(v)}`);
    return parts.length > 0 ? `SET ${parts.join(', ')}` : '';
  }

  /** The Names/Values parameters, omitting empty maps (DynamoDB rejects them). */
  params(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, unknown> } {
    return {
      ...(this.nameCount > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(this.valueCount > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/** A conditional write: true when it was made, false when its condition did not hold; any other failure is thrown. */
export async function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}
