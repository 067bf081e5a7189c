/**
 * Letting a function stop the job pipeline's executions: DELETE /jobs/{id} (./api.ts) and the
 * retention sweep (./retention-sweep.ts) both delete a job whose execution may still run.
 * StateMachine.grantExecution allows it on `arn:…:execution:<machine name>:*`, a wildcard the
 * security review flags; it is acknowledged here, with the grant, so no caller can have one
 * without the other.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { acknowledgeNag, wildcardResourceFinding } from './nag-acknowledgements';

/** What StateMachine.grantExecution allows: `arn:…:execution:<machine name>:*`. */
function executionArnPattern(machine: IStateMachine): string {
  const stack = Stack.of(machine);
  const name = stack.splitArn(machine.stateMachineArn, ArnFormat.COLON_RESOURCE_NAME).resourceName;
  return `${stack.formatArn({ resource: 'execution', service: 'states', resourceName: name, arnFormat: ArnFormat.COLON_RESOURCE_NAME })}:*`;
}

/** Lets `fn` call states:StopExecution on `machine`'s executions, and acknowledges the wildcard that takes. */
export function grantStopJobExecutions(machine: IStateMachine, fn: IFunction): void {
  machine.grantExecution(fn, 'states:StopExecution');
  acknowledgeNag(
    fn.role ?? fn,
    wildcardResourceFinding(machine, executionArnPattern(machine)),
    "StopExecution on the job pipeline's executions (a job deleted or expired while it runs): their names are job ids, made at run time.",
  );
}
