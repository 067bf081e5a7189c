/**
 * The composition root: the one place that chooses adapters. In Lambda, the
 * first call builds the AWS adapters from the environment (SDK clients created
 * once per module, reused across invocations). The local runtime and tests call
 * `setServices` with their own set before invoking handlers. The domain never
 * imports this module's adapters; handlers ask for `services()`.
 */
import type { Services } from '../domain/ports';
import { loadConfig } from './config';
import { createAwsServices } from '../adapters/aws';

let current: Services | undefined;

export function services(): Services {
  current ??= createAwsServices(loadConfig());
  return current;
}

/** Replaces the services for this process (local runtime, tests); undefined resets. */
export function setServices(next: Services | undefined): void {
  current = next;
}
