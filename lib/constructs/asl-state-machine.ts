/**
 * A state machine from an ASL document of step-definitions/ (the webhook
 * retries' JSON file, the job pipeline's definition built from the step-type
 * catalogue), deployed as the very text the local runtime runs under
 * aws-local-stepfunctions, so CDK must not rebuild the definition in code.
 * Function ARNs enter through definitionSubstitutions (`${IngestFunctionArn}`),
 * which CloudFormation fills in at deploy time, leaving the document untouched.
 */
import { readFileSync } from 'node:fs';
import { RemovalPolicy } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { acknowledgeNag, wildcardResourceFinding } from './nag-acknowledgements';
import { ASL_PLACEHOLDER, WORKERS, type WorkerId } from '../../step-definitions/workers';
import { repoPath } from '../paths';

/** Every `${Name}` placeholder of an ASL document, in order of first use. */
export function aslPlaceholders(aslText: string): string[] {
  return [...new Set([...aslText.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!))];
}

/** The workers an ASL document invokes, found by their placeholders. */
export function workersInAsl(aslText: string): WorkerId[] {
  const used = new Set(aslPlaceholders(aslText));
  const ids = (Object.keys(WORKERS) as WorkerId[]).filter((id) => used.has(ASL_PLACEHOLDER(WORKERS[id])));
  const known = new Set(ids.map((id) => ASL_PLACEHOLDER(WORKERS[id])));
  const unknown = [...used].filter((p) => !known.has(p));
  if (unknown.length > 0) throw new Error(`ASL placeholders with no worker in step-definitions/workers.ts: ${unknown.join(', ')}`);
  return ids;
}

export const readAsl = (repoRelativePath: string): string => readFileSync(repoPath(repoRelativePath), 'utf8');

export interface AslStateMachineProps {
  /** The ASL document's text, with `${<Key>FunctionArn}` placeholders. */
  definition: string;
  /** The function for each worker the document invokes. */
  functions: Partial<Record<WorkerId, IFunction>>;
  /** A fixed name, when others must know the ARN before the machine exists. */
  stateMachineName?: string;
  /** Default one month. */
  logRetention?: RetentionDays;
}

export class AslStateMachine extends Construct {
  readonly stateMachine: StateMachine;
  /** The document as deployed, before substitution. */
  readonly definition: string;

  constructor(scope: Construct, id: string, props: AslStateMachineProps) {
    super(scope, id);
    this.definition = props.definition;
    const substitutions: Record<string, string> = {};
    const invoked: IFunction[] = [];
    for (const workerId of workersInAsl(this.definition)) {
      const fn = props.functions[workerId];
      if (!fn) throw new Error(`The ${id} state machine invokes ${workerId} but no function was given for it`);
      substitutions[ASL_PLACEHOLDER(WORKERS[workerId])] = fn.functionArn;
      invoked.push(fn);
    }

    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new StateMachine(this, 'Resource', {
      stateMachineName: props.stateMachineName,
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(this.definition),
      definitionSubstitutions: substitutions,
      tracingEnabled: true,
      // Every state transition is logged (cdk-nag AwsSolutions-SF1), without the states' input and
      // output: those carry customers' file names, source URLs and order details.
      logs: { destination: logGroup, level: LogLevel.ALL, includeExecutionData: false },
    });
    // The document names functions by ARN, so CDK cannot infer these grants.
    for (const fn of invoked) {
      fn.grantInvoke(this.stateMachine);
      acknowledgeNag(
        this.stateMachine,
        wildcardResourceFinding(this, `${fn.functionArn}:*`),
        'Function.grantInvoke also allows the versions and aliases of this one function (<arn>:*); nothing else.',
      );
    }
    acknowledgeNag(
      this.stateMachine,
      'AwsSolutions-IAM5[Resource::*]',
      'X-Ray tracing (xray:PutTraceSegments, …) and log delivery (logs:CreateLogDelivery, …) support no resource-level permissions; CDK grants them as AWS documents.',
    );
  }
}
