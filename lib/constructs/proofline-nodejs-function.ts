/**
 * A NodejsFunction with Proofline's Lambda defaults, the one place they live.
 * Every route handler, the authoriser and every pipeline/webhook worker is one,
 * so runtime, architecture, tracing, logging and bundling never drift between
 * functions.
 *
 * - nodejs24.x, the newest Node.js runtime aws-cdk-lib offers (cdk-nag AwsSolutions-L1), on
 *   ARM64 (Graviton), X-Ray active tracing, JSON logs kept a month. The bundle targets Node 20,
 *   the oldest Node the code supports (package.json engines), so it runs there too.
 * - Powertools' settings for the one logger and tracer (lambdas/observability/): the service
 *   name on every line and trace, and the level lines are written from (LOG_LEVEL).
 * - A role of its own that may write only to the function's own log group, instead of
 *   AWSLambdaBasicExecutionRole (any log group of the account; cdk-nag AwsSolutions-IAM4).
 * - ESM output (index.mjs): file-type and other dependencies are ESM-only. The
 *   banner recreates `require`, `__filename` and `__dirname`, which CommonJS
 *   dependencies inside an ESM bundle still call (esbuild renames any bundled
 *   module's own declarations of these names, so the banner cannot clash).
 * - The AWS SDK is bundled, not taken from the runtime, so the deployed code
 *   runs the SDK versions of the lock file, as every test did.
 * - Native modules stay external and ship as linux-arm64 builds; pdfjs data
 *   files are copied in (see ../bundling/runtime-files.ts).
 */
import { Duration, RemovalPolicy, Size, Stack } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { defaultEntryResolver, LOCK_FILE, REPO_ROOT, type EntryResolver } from '../paths';
import type { WorkerSpec } from '../../step-definitions/workers';
import {
  assertVendoredModules,
  PDFJS_ASSETS_DIR_IN_LAMBDA,
  runtimeFilesCommands,
  type RuntimeFiles,
} from '../bundling/runtime-files';
import { acknowledgeXrayWildcard } from './nag-acknowledgements';
import { SERVICE_NAME } from '../../lambdas/observability/service-name';
import { METRICS_SERVICE_ENV } from '../../lambdas/platform/observability/metric-table';

export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X;
export const LAMBDA_ARCHITECTURE = Architecture.ARM_64;

/** The lowest level of the lines a function writes (Powertools' POWERTOOLS_LOG_LEVEL). */
export const LOG_LEVEL = 'INFO';

/** Makes CommonJS globals exist in the ESM bundle. */
export const ESM_REQUIRE_BANNER = [
  "import { createRequire as __plCreateRequire } from 'node:module';",
  "import { fileURLToPath as __plFileURLToPath } from 'node:url';",
  "import { dirname as __plDirname } from 'node:path';",
  'const require = __plCreateRequire(import.meta.url);',
  'const __filename = __plFileURLToPath(import.meta.url);',
  'const __dirname = __plDirname(__filename);',
].join(' ');

export interface ProoflineNodejsFunctionProps {
  /** Handler module relative to the repository root (`lambdas/api/health.ts`); it exports `handler`. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
  /** /tmp size; Lambda's default is 512 MB. */
  ephemeralStorageMb?: number;
  environment?: Record<string, string>;
  /** Native modules and data files to ship next to the bundle (WorkerSpec.nativeModules/assets). */
  runtimeFiles?: Partial<RuntimeFiles>;
  description?: string;
  /** Default one month. */
  logRetention?: RetentionDays;
  /** Tests only: where to find entries that do not exist yet. */
  resolveEntry?: EntryResolver;
}

/** The props a pipeline or webhook worker takes from its WorkerSpec (step-definitions/workers.ts). */
export function workerFunctionProps(spec: WorkerSpec): Pick<ProoflineNodejsFunctionProps, 'entry' | 'memoryMb' | 'timeoutSeconds' | 'ephemeralStorageMb' | 'runtimeFiles'> {
  return {
    entry: spec.entry,
    memoryMb: spec.memoryMb,
    timeoutSeconds: spec.timeoutSeconds,
    ephemeralStorageMb: spec.ephemeralStorageMb,
    runtimeFiles: { nativeModules: spec.nativeModules, assets: spec.assets },
  };
}

export class ProoflineNodejsFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ProoflineNodejsFunctionProps) {
    const runtimeFiles: RuntimeFiles = {
      nativeModules: props.runtimeFiles?.nativeModules ?? [],
      assets: props.runtimeFiles?.assets ?? [],
    };
    if (runtimeFiles.nativeModules.length > 0 && Stack.of(scope).bundlingRequired) {
      assertVendoredModules(runtimeFiles.nativeModules);
    }
    // A log group we own, rather than the one Lambda creates on first run, so
    // retention is set from the start and the group leaves with the stack.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = new Role(scope, `${id}ServiceRole`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Proofline: ${props.entry}`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      entry: (props.resolveEntry ?? defaultEntryResolver)(props.entry),
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: LOCK_FILE,
      description: props.description ?? props.entry,
      runtime: LAMBDA_RUNTIME,
      architecture: LAMBDA_ARCHITECTURE,
      tracing: Tracing.ACTIVE,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds),
      ephemeralStorageSize: Size.mebibytes(props.ephemeralStorageMb ?? 512),
      logGroup,
      role,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_LOG_LEVEL: LOG_LEVEL,
        // The `service` dimension of every metric it publishes: stacks side by side keep theirs apart.
        [METRICS_SERVICE_ENV]: Stack.of(scope).stackName,
        ...(runtimeFiles.assets.includes('pdfjs') ? { PDFJS_ASSETS_DIR: PDFJS_ASSETS_DIR_IN_LAMBDA } : {}),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node20',
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        // Only the native modules stay outside the bundle; they are copied in below.
        externalModules: [...runtimeFiles.nativeModules],
        logLevel: LogLevel.ERROR,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir, outputDir) => runtimeFilesCommands(inputDir, outputDir, runtimeFiles),
        },
      },
    });
    acknowledgeXrayWildcard(role);
  }
}
