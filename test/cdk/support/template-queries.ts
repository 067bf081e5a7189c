/**
 * Small readers over a synthesized CloudFormation template, so the CDK tests
 * can ask questions in the project's terms (the function of an entry, the
 * path of an API resource, the IAM statements of a function) instead of
 * matching generated logical ids.
 */
import type { Template } from 'aws-cdk-lib/assertions';

/** CloudFormation JSON is untyped; Properties stays `any` so tests can walk it. */
export interface CfnResource {
  Type: string;
  Properties: any;
  DeletionPolicy?: string;
}

export interface IamStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

// Template.toJSON() copies the whole template on every call; read it once per template.
const resourcesCache = new WeakMap<Template, Record<string, CfnResource>>();
function allResources(template: Template): Record<string, CfnResource> {
  let all = resourcesCache.get(template);
  if (!all) {
    all = template.toJSON().Resources as Record<string, CfnResource>;
    resourcesCache.set(template, all);
  }
  return all;
}

export function resourcesOfType(template: Template, type: string): [string, CfnResource][] {
  return Object.entries(allResources(template)).filter(([, r]) => r.Type === type);
}

export function resource(template: Template, logicalId: string): CfnResource {
  const found = allResources(template)[logicalId];
  if (!found) throw new Error(`no resource ${logicalId}`);
  return found;
}

/** Every function of ours carries its repository-relative entry as Description. */
export function functionIdByEntry(template: Template, entry: string): string {
  const matches = resourcesOfType(template, 'AWS::Lambda::Function').filter(([, r]) => r.Properties.Description === entry);
  if (matches.length !== 1) throw new Error(`expected one function for ${entry}, found ${matches.length}`);
  return matches[0]![0];
}

/** `{ "Fn::GetAtt": [id, "Arn"] }` → id, for references to a function or role. */
export function getAttId(value: unknown): string | undefined {
  const getAtt = (value as { 'Fn::GetAtt'?: [string, string] } | null)?.['Fn::GetAtt'];
  return Array.isArray(getAtt) ? getAtt[0] : undefined;
}

export function refId(value: unknown): string | undefined {
  const ref = (value as { Ref?: string } | null)?.Ref;
  return typeof ref === 'string' ? ref : undefined;
}

/** The function logical id inside an `arn:…:lambda:path/…/functions/<arn>/invocations` URI. */
export function functionIdInIntegrationUri(uri: unknown): string | undefined {
  const parts = (uri as { 'Fn::Join'?: [string, unknown[]] })?.['Fn::Join']?.[1] ?? [];
  for (const part of parts) {
    const id = getAttId(part);
    if (id) return id;
  }
  return undefined;
}

/** API resource logical id → its full path (`/jobs/{id}`); the root is `/`. */
export function apiResourcePaths(template: Template): Map<string, string> {
  const resources = new Map(resourcesOfType(template, 'AWS::ApiGateway::Resource'));
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const r = resources.get(id);
    if (!r) throw new Error(`unknown API resource ${id}`);
    const parent = refId(r.Properties.ParentId);
    const path = `${parent ? pathOf(parent) : ''}/${r.Properties.PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const id of resources.keys()) pathOf(id);
  return paths;
}

/** The path a method is on: a resource's path, or `/` for the root resource. */
export function methodPath(template: Template, method: CfnResource): string {
  const id = refId(method.Properties.ResourceId);
  return id ? apiResourcePaths(template).get(id)! : '/';
}

export function roleIdOfFunction(template: Template, functionId: string): string {
  const id = getAttId(resource(template, functionId).Properties.Role);
  if (!id) throw new Error(`${functionId} has no role of this stack`);
  return id;
}

/** Every IAM statement attached to a role through the stack's AWS::IAM::Policy resources. */
export function statementsOfRole(template: Template, roleId: string): IamStatement[] {
  return resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as unknown[]).some((r) => refId(r) === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as IamStatement[]);
}

export const actionsOf = (s: IamStatement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);

export const allowedActions = (statements: IamStatement[]): Set<string> =>
  new Set(statements.filter((s) => s.Effect === 'Allow').flatMap(actionsOf));

/** Statements granting `action` (exactly, as CDK grants write it). */
export const statementsWith = (statements: IamStatement[], action: string): IamStatement[] =>
  statements.filter((s) => s.Effect === 'Allow' && actionsOf(s).includes(action));

/** True when `value` (a resource or list of them) mentions the logical id anywhere. */
export function mentions(value: unknown, logicalId: string): boolean {
  return JSON.stringify(value).includes(`"${logicalId}"`);
}

/** The files bucket (Storage), among the stack's buckets (access logs, console, files). */
export function filesBucket(template: Template): [string, CfnResource] {
  const found = resourcesOfType(template, 'AWS::S3::Bucket').find(([id]) => id.startsWith('StorageFiles'));
  if (!found) throw new Error('no files bucket');
  return found;
}
