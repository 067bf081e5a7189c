/**
 * The constructs of one kind in a stack, found in the construct tree rather than
 * listed by hand, so the alarms and the dashboard cover a function, state
 * machine or queue added later without being told about it.
 */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

export function membersOf<T extends IConstruct>(scope: IConstruct, kind: abstract new (...args: never[]) => T): T[] {
  return Stack.of(scope).node.findAll().filter((c): c is T => c instanceof kind);
}

/** A construct's path inside its stack (`Api/HealthFunction`, without a last `/Resource`), a name an operator can find. */
export const pathInStack = (construct: IConstruct): string =>
  construct.node.path.slice(Stack.of(construct).node.path.length + 1).replace(/\/Resource$/, '');
