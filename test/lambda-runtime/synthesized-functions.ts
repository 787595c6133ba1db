import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV } from '../../functions/config.ts';
import { tableEnvironment, type ServiceTableNames } from '../../local/local-store.ts';
import { runtimeClientDir } from '../../scripts/lambda-runtime-install.ts';
import { RuntimeApi, type InvocationAnswer } from './runtime-api.ts';

/**
 * The functions of the synthesized template (`cdk synth` → cdk.out), each run as Lambda runs it:
 * its bundled asset, its handler and environment as the template declares them, under AWS's
 * runtime client (aws-lambda-ric) talking to a Runtime API of our own (runtime-api.ts).
 */

const CLOUD_ASSEMBLY = fileURLToPath(new URL('../../cdk.out/', import.meta.url));
/** The stage whose template is run; both stages bundle the same code. */
const STACK = 'PetStoreInventory-Staging';

export interface SynthesizedFunction {
  /** The construct's id in the stack: `Authorizer`, `Health`, or the operation's (`ListInventory`). */
  name: string;
  assetDir: string;
  handler: string;
  /** The template's environment, with each table reference still a reference. */
  environment: Record<string, unknown>;
  memoryMb: number;
}

interface TemplateResource {
  Type: string;
  Properties: Record<string, unknown>;
  Metadata?: Record<string, string>;
}

export function synthesizedFunctions(): SynthesizedFunction[] {
  const templateFile = path.join(CLOUD_ASSEMBLY, `${STACK}.template.json`);
  if (!existsSync(templateFile)) throw new Error(`${templateFile} not found: run cdk synth first (npm run synth).`);
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as { Resources: Record<string, TemplateResource> };
  return Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .map((resource) => {
      const [, name] = (resource.Metadata?.['aws:cdk:path'] ?? '').split('/');
      const asset = resource.Metadata?.['aws:asset:path'];
      if (!name || !asset) throw new Error('a function of the template has no construct path or asset');
      return {
        name,
        assetDir: path.join(CLOUD_ASSEMBLY, asset),
        handler: resource.Properties.Handler as string,
        environment: (resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables,
        memoryMb: resource.Properties.MemorySize as number,
      };
    });
}

/** The template's environment for a run on DynamoDB Local: each table reference is the test's table of that role. */
function resolvedEnvironment(environment: Record<string, unknown>, tables: ServiceTableNames): Record<string, string> {
  const tableOf = tableEnvironment(tables);
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => {
      if (typeof value === 'string') return [name, value];
      const table = tableOf[name];
      if (!table) throw new Error(`the template sets ${name} to ${JSON.stringify(value)}, which this run cannot resolve`);
      return [name, table];
    }),
  );
}

export interface FunctionRunOptions {
  tables: ServiceTableNames;
  storeEndpoint: string;
  /** Variables to change (a value) or leave out (undefined) after the template's. */
  environment?: Record<string, string | undefined>;
}

/** One execution environment: a runtime-client process serving a function, and its Runtime API. */
export class FunctionProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  private constructor(
    readonly fn: SynthesizedFunction,
    readonly runtimeApi: RuntimeApi,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static async start(fn: SynthesizedFunction, options: FunctionRunOptions): Promise<FunctionProcess> {
    const runtimeApi = await RuntimeApi.start();
    const environment: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      TZ: 'UTC',
      LANG: 'en_US.UTF-8',
      // What Lambda sets in every execution environment (docs: "Defined runtime environment variables").
      AWS_LAMBDA_RUNTIME_API: runtimeApi.address,
      _HANDLER: fn.handler,
      LAMBDA_TASK_ROOT: fn.assetDir,
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
      AWS_LAMBDA_LOG_STREAM_NAME: 'lambda-runtime-test',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      // DynamoDB Local takes any credentials.
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      ...resolvedEnvironment(fn.environment, options.tables),
      [ENV.dynamodbEndpoint]: options.storeEndpoint,
      ...options.environment,
    };
    const child = spawn(process.execPath, [path.join(runtimeClientDir, 'index.mjs')], {
      cwd: fn.assetDir,
      env: Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new FunctionProcess(fn, runtimeApi, child);
  }

  /** The function's answer to one event; fails if the process ends first, as Lambda reports Runtime.ExitError. */
  invoke(event: unknown): Promise<InvocationAnswer & { requestId: string }> {
    const ended = this.exited.then((code) => {
      throw new Error(`the ${this.fn.name} process exited (code ${code}) without answering; its output:\n${this.output}`);
    });
    return Promise.race([this.runtimeApi.invoke(event), ended]);
  }

  /** Everything the process wrote to stdout and stderr: its logs and metric lines. */
  logs(): string {
    return this.output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop(): Promise<void> {
    if (this.running) {
      this.child.kill('SIGTERM');
      await this.exited;
    }
    await this.runtimeApi.close();
  }
}
