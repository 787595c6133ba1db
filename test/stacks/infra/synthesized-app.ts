import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { BUNDLING_STACKS, type CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { DeploymentStage } from '../../../lib/deployments.ts';
import { addPetStoreStages } from '../../../lib/petstore-app.ts';
import type { PetStoreInventoryStack } from '../../../lib/petstore-inventory-stack.ts';
import { temporaryDirectory } from '../../support/temporary-directories.ts';

/** The context `cdk synth` gives the app (cdk.json's feature flags), so tests synthesize what the CLI does. */
export const CDK_JSON_CONTEXT: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('../../../cdk.json', import.meta.url), 'utf8'),
).context;

export const STAGES: readonly DeploymentStage[] = ['staging', 'prod'];

export interface SynthesizedApp {
  app: App;
  stacks: Record<DeploymentStage, PetStoreInventoryStack>;
  templates: Record<DeploymentStage, Template>;
  assembly: CloudAssembly;
}

/** The context that skips bundling: the functions' code is the source folder, which CloudFormation never reads here. */
export const NO_BUNDLING = { [BUNDLING_STACKS]: [] };

/**
 * Synthesizes both stages: call it once per file, in beforeAll. The templates are the same with
 * or without bundling but for the code's asset hashes, and esbuild on every function of both
 * stages is most of a synthesis, so none is bundled here: the bundles are read from `npm run
 * synth`'s output, the one bundling synthesis of npm test (synth.test.ts).
 */
export function synthesizeApp(context: Record<string, unknown> = {}): SynthesizedApp {
  const app = new App({
    context: { ...CDK_JSON_CONTEXT, ...NO_BUNDLING, ...context },
    outdir: temporaryDirectory('petstore-cdk-'),
  });
  const stacks = addPetStoreStages(app);
  const assembly = app.synth();
  return {
    app,
    stacks,
    assembly,
    templates: { staging: Template.fromStack(stacks.staging), prod: Template.fromStack(stacks.prod) },
  };
}

export type Resources = Record<
  string,
  { Type: string; Properties?: Record<string, any>; DependsOn?: string[]; DeletionPolicy?: string; UpdateReplacePolicy?: string }
>;

export function resourcesOfType(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** The one resource of a type whose properties match; fails unless there is exactly one. */
export function onlyResource(template: Template, type: string, properties?: Record<string, unknown>): [string, Resources[string]] {
  const found = Object.entries(template.findResources(type, properties ? { Properties: properties } : undefined) as Resources);
  if (found.length !== 1) throw new Error(`Expected one ${type} matching ${JSON.stringify(properties)}, found ${found.length}.`);
  return found[0]!;
}

/**
 * The stage's queues, told apart by their shape: the history stream's on-failure queue is the only
 * standard one; of the webhooks' FIFO queues, the deliveries name the dead letters in their redrive policy.
 */
export function queueIds(template: Template): { failedRecords: string; webhookDeliveries: string; webhookDeadLetters: string } {
  const queues = Object.entries(resourcesOfType(template, 'AWS::SQS::Queue'));
  const [failedRecords, ...otherStandard] = queues.filter(([, queue]) => !queue.Properties?.FifoQueue).map(([id]) => id);
  const deliveries = queues.filter(([, queue]) => queue.Properties?.FifoQueue && queue.Properties.RedrivePolicy);
  const deadLetters = queues.filter(([, queue]) => queue.Properties?.FifoQueue && !queue.Properties.RedrivePolicy);
  if (!failedRecords || otherStandard.length > 0 || deliveries.length !== 1 || deadLetters.length !== 1)
    throw new Error(`Expected one standard queue and two FIFO queues, found ${queues.map(([id]) => id).join(', ')}.`);
  return { failedRecords, webhookDeliveries: deliveries[0]![0], webhookDeadLetters: deadLetters[0]![0] };
}

/** A table's key as functions/adapters/dynamodb/tables.ts describes it. */
export interface TableKeys {
  partitionKey: { name: string };
  sortKey?: { name: string };
}

/** The KeySchema CloudFormation holds for that table: how tests find it among the others. */
export function keySchemaOf(table: TableKeys): { AttributeName: string; KeyType: 'HASH' | 'RANGE' }[] {
  return [
    { AttributeName: table.partitionKey.name, KeyType: 'HASH' },
    ...(table.sortKey ? [{ AttributeName: table.sortKey.name, KeyType: 'RANGE' as const }] : []),
  ];
}

/** How the functions' descriptions start (lib/petstore-inventory-stack.ts), which is how tests find them. */
export const AUTHORIZER_DESCRIPTION = 'API key authorizer';
export const routeDescription = (operationId: string) => `${operationId}:`;

/** The one Lambda function whose Description starts with the prefix; fails unless there is exactly one. */
export function functionWithDescription(template: Template, prefix: string): [string, Resources[string]] {
  const found = Object.entries(resourcesOfType(template, 'AWS::Lambda::Function')).filter(([, fn]) =>
    String(fn.Properties!.Description).startsWith(prefix),
  );
  if (found.length !== 1) throw new Error(`Expected one function described "${prefix}…", found ${found.length}.`);
  return found[0]!;
}

/** `Fn::GetAtt [id, Arn]` or `Ref id` → id. */
export function referencedId(value: unknown): string | undefined {
  if (value && typeof value === 'object') {
    const ref = (value as { Ref?: unknown }).Ref;
    if (typeof ref === 'string') return ref;
    const getAtt = (value as { 'Fn::GetAtt'?: unknown })['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  }
  return undefined;
}

/** The logical ids a value refers to anywhere inside it (Ref, GetAtt, within joins). */
export function referencedIds(value: unknown): string[] {
  const direct = referencedId(value);
  if (direct) return [direct];
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (value && typeof value === 'object') return Object.values(value).flatMap(referencedIds);
  return [];
}

/** The API Gateway resource path ('/inventory/{petId}') of an AWS::ApiGateway::Resource id, or '/' for the root. */
export function resourcePath(template: Template, resourceId: unknown): string {
  const apiResources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
  const parts: string[] = [];
  let current = referencedId(resourceId);
  while (current && apiResources[current]) {
    const { PathPart, ParentId } = apiResources[current]!.Properties!;
    parts.unshift(PathPart);
    current = referencedId(ParentId);
  }
  return `/${parts.join('/')}`;
}
