import { fileURLToPath } from 'node:url';
import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { lambdaModuleFile, FUNCTION_TIMEOUT_SECONDS } from '../functions/routes.ts';
import { ESBUILD_OPTIONS } from './bundling.ts';
import { grantTableAccess, type TableAccess } from './table-access.ts';

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Matches LAMBDA_NODE_TARGET (node24) in lib/bundling.ts: the bundle is compiled for the runtime it runs on. */
export const FUNCTION_RUNTIME = Runtime.NODEJS_24_X;

/**
 * 1,769 MB is one full vCPU; 1,024 MB gives about 0.6. listInventory serializes (and compresses,
 * when asked) every entry as its pages arrive, and cold starts parse a bundled SDK, both
 * CPU-bound, so less memory would cost latency more than it saves money.
 */
export const FUNCTION_MEMORY_MB = 1024;

const OUTPUT_FORMATS = { esm: OutputFormat.ESM, cjs: OutputFormat.CJS } as const;
const LOG_LEVELS = { warning: LogLevel.WARNING } as const;

/**
 * lib/bundling.ts's esbuild options in NodejsFunction's terms, so that what is deployed is
 * what the benchmark measures. An option added there must be mapped here, never dropped.
 */
export function nodejsBundlingOptions(): BundlingOptions {
  const { bundle, platform, target, format, minify, sourcemap, sourcesContent, external, mainFields, banner, logLevel, ...unmapped } =
    ESBUILD_OPTIONS;
  // NodejsFunction always runs esbuild with --bundle --platform=node.
  if (!bundle || platform !== 'node') throw new Error('NodejsFunction can only bundle for the node platform.');
  const unmappedNames = Object.keys(unmapped);
  if (unmappedNames.length > 0) throw new Error(`lib/bundling.ts options not mapped to NodejsFunction: ${unmappedNames.join(', ')}.`);
  return {
    target,
    format: OUTPUT_FORMATS[format],
    minify,
    sourceMap: sourcemap,
    sourcesContent,
    // Empty: the AWS SDK is bundled too, rather than NodejsFunction's default of taking it from the runtime.
    externalModules: [...external],
    mainFields: [...mainFields],
    banner,
    logLevel: LOG_LEVELS[logLevel],
  };
}

export interface ServiceFunctionProps {
  /** The Lambda function's name in this repository: its module is functions/routes.ts's lambdaModuleFile(lambda). */
  lambda: string;
  /**
   * How long it may run (functions/routes.ts explains both values).
   * @default FUNCTION_TIMEOUT_SECONDS.buffered
   */
  readonly timeoutSeconds?: number;
  description: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/**
 * A Lambda function with the house defaults (Node.js 24 on ARM64, the project's esbuild,
 * active tracing, its JSON log lines in its own log group with a retention) and a role that starts
 * empty: it may write its logs and traces, and use a table only through grantTableAccess.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.logRetention, removalPolicy: props.logRemovalPolicy });
    // An own role instead of the default one with AWSLambdaBasicExecutionRole, which may write to every log group.
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: `Runs ${props.lambda}` });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: `${PROJECT_ROOT}${lambdaModuleFile(props.lambda)}`,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      description: props.description,
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: FUNCTION_MEMORY_MB,
      timeout: Duration.seconds(props.timeoutSeconds ?? FUNCTION_TIMEOUT_SECONDS.buffered),
      role: this.role,
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      // TEXT, so that Lambda has no log level to filter by: with JSON, a line without a level
      // counts as INFO and an application log level of WARN drops it, metric (EMF) lines and the
      // alarms they feed included. Our lines are JSON all the same, written straight to stdout
      // and stderr; LOG_LEVEL quiets the logs, never the metrics (functions/logger.ts).
      loggingFormat: LoggingFormat.TEXT,
      bundling: nodejsBundlingOptions(),
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    });

    // cfn-lint W3005 (a DependsOn already enforced by a GetAtt): CDK makes a function depend on
    // its role construct, so that the role's policy exists before the function; that lists the
    // role itself in DependsOn beside its GetAtt. Redundant, harmless, and CDK's to generate.
    (this.function.node.defaultChild as CfnFunction).addMetadata('cfn-lint', { config: { ignore_checks: ['W3005'] } });

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only xray:PutTraceSegments and xray:PutTelemetryRecords (added by active tracing) use Resource *: X-Ray has no resource-level permissions. Table access is granted per table ARN (test/infra checks this).',
    });
  }

  grantTableAccess(table: ITable, access: TableAccess, indexName?: string): void {
    grantTableAccess(this.role, table, access, indexName);
  }
}
