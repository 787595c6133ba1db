import type { Context } from 'aws-lambda';
import { LogLevel, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiKeysTable,
  historyTable,
  changeFeedTable,
  idempotencyRecordsTable,
  reservationsTable,
  inventoryTable,
  usageCountersTable,
} from '../../../functions/adapters/dynamodb/tables.ts';
import { ENV, readConfig, WEBHOOK_ENV } from '../../../functions/config.ts';
import { LOG_LEVEL_VARIABLE } from '../../../functions/logger.ts';
import { apiRoutes, backgroundLambdas, FUNCTION_TIMEOUT_SECONDS, healthRoute, type ApiRoute } from '../../../functions/routes.ts';
import type { Template } from 'aws-cdk-lib/assertions';
import { ESBUILD_OPTIONS, LAMBDA_NODE_TARGET } from '../../../lib/bundling.ts';
import { AUTHORIZER_FAILURE_LOG_MESSAGE, createAuthorizerHandler } from '../../../functions/handlers/authorizer-handler.ts';
import { FailedAuthenticationLimiter } from '../../../functions/domain/failed-authentications.ts';
import { inMemoryFailedAuthenticationStore } from '../../support/failed-authentication-store.ts';
import { PETS_SUNSET_CONTEXT_KEY, STAGE_SETTINGS } from '../../../lib/petstore-inventory-stack.ts';
import { FUNCTION_RUNTIME, nodejsBundlingOptions } from '../../../lib/service-function.ts';
import { DELIVERY_TIMEOUT_SECONDS } from '../../../lib/inventory-events.ts';
import {
  AUTHORIZER_DESCRIPTION,
  functionWithDescription,
  keySchemaOf,
  onlyResource,
  queueIds,
  referencedId,
  resourcesOfType,
  routeDescription,
  STAGES,
  synthesizeApp,
  type SynthesizedApp,
  type TableKeys,
} from './synthesized-app.ts';

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp();
});

const RETENTION_DAYS = { staging: 14, prod: 90 } as const;

interface DeployedFunction {
  name: string;
  descriptionPrefix: string;
  timeoutSeconds: number;
  /** The DynamoDB actions it may use, per table, exactly. */
  tableActions: [TableKeys, string[]][];
  /**
   * An event source mapping's rights: the table whose stream it reads (its records on the stream's
   * ARN, ListStreams on *, as DynamoDB defines that action).
   */
  streamConsumer?: { streamOf: TableKeys };
  /** Its actions on a table's index (a Query of it), by the table and the index's name, exactly. */
  indexActions?: [TableKeys, string, string[]][];
  /** Its SQS actions, per queue (by the queue's logical id), exactly. */
  queueActions?: (queues: ReturnType<typeof queueIds>) => [string, string[]][];
  /** Its rights beyond logs, X-Ray, DynamoDB and SQS (the bus, the secret), exactly: actions and resource. */
  otherRights?: (template: Template) => [string[], unknown][];
  /** The variables it reads beyond the ones every function reads. */
  ownEnvironment?: (template: Template, queues: ReturnType<typeof queueIds>) => Record<string, unknown>;
}

/** What reading a table's stream takes, on that stream only. */
const STREAM_RECORD_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
/** ListStreams names no table or stream, so IAM allows it only on Resource *; it lists streams and reads no data. */
const STREAM_LISTING_ACTION = 'dynamodb:ListStreams';
/** What sending to a queue takes (an on-failure destination, the dead letters): CDK's grantSendMessages. */
const QUEUE_SEND_ACTIONS = ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'];
/** What an SQS event source takes: receiving, and deleting or hiding again what it received. */
const QUEUE_CONSUME_ACTIONS = [
  'sqs:ChangeMessageVisibility',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
  'sqs:ReceiveMessage',
];

const USAGE_COUNTING = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];
// The listing reads with Query only: no function may Scan the inventory.
/** Per route intent, the actions on each table it touches besides the usage counters. */
const ROUTE_ACTIONS: Record<ApiRoute['inventoryAccess'], [TableKeys, string[]][]> = {
  list: [[inventoryTable, ['dynamodb:Query']]],
  read: [[inventoryTable, ['dynamodb:GetItem']]],
  thresholdRead: [[inventoryTable, ['dynamodb:GetItem']]],
  thresholdWrite: [[inventoryTable, ['dynamodb:UpdateItem']]],
  update: [
    [inventoryTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
    [idempotencyRecordsTable, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']],
  ],
  adjust: [
    [inventoryTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
    [idempotencyRecordsTable, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']],
    [reservationsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
  ],
  adjustBatch: [
    [inventoryTable, ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']],
    [idempotencyRecordsTable, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']],
    [reservationsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
  ],
  reserve: [
    [inventoryTable, ['dynamodb:UpdateItem']],
    [idempotencyRecordsTable, ['dynamodb:GetItem', 'dynamodb:PutItem']],
    [reservationsTable, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']],
  ],
  readReservation: [[reservationsTable, ['dynamodb:GetItem']]],
  commitReservation: [
    [inventoryTable, ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']],
    [reservationsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
  ],
  releaseReservation: [
    [inventoryTable, ['dynamodb:UpdateItem']],
    [reservationsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
  ],
  history: [
    [inventoryTable, ['dynamodb:GetItem']],
    [historyTable, ['dynamodb:Query']],
  ],
  feed: [[changeFeedTable, ['dynamodb:Query']]],
};

const DEPLOYED_FUNCTIONS: DeployedFunction[] = [
  {
    name: 'authorizer',
    descriptionPrefix: AUTHORIZER_DESCRIPTION,
    timeoutSeconds: FUNCTION_TIMEOUT_SECONDS.buffered,
    // The key lookup, and the source address's failed authentications (counted, read before a lookup, known keys recorded).
    tableActions: [
      [apiKeysTable, ['dynamodb:GetItem']],
      [usageCountersTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
    ],
  },
  ...apiRoutes.map((route) => ({
    name: route.operationId,
    descriptionPrefix: routeDescription(route.operationId),
    timeoutSeconds: route.streamed ? FUNCTION_TIMEOUT_SECONDS.streamed : FUNCTION_TIMEOUT_SECONDS.buffered,
    tableActions: [...ROUTE_ACTIONS[route.inventoryAccess], [usageCountersTable, USAGE_COUNTING]] satisfies [TableKeys, string[]][],
  })),
  // Not counted against any plan, so no usage counters: one read of the inventory.
  {
    name: healthRoute.operationId,
    descriptionPrefix: routeDescription(healthRoute.operationId),
    timeoutSeconds: FUNCTION_TIMEOUT_SECONDS.buffered,
    tableActions: [[inventoryTable, ['dynamodb:GetItem']]],
  },
  // Fed by the inventory table's stream (its reads are granted on the stream, not the table): writes the history and the feed,
  // puts each change on the bus; it would queue webhooks too, but this stage has no webhook URLs, so it may not send there.
  {
    name: 'recordInventoryChanges',
    descriptionPrefix: 'Records each inventory change',
    timeoutSeconds: FUNCTION_TIMEOUT_SECONDS.buffered,
    tableActions: [
      [historyTable, ['dynamodb:BatchWriteItem']],
      [changeFeedTable, ['dynamodb:PutItem', 'dynamodb:UpdateItem']],
    ],
    streamConsumer: { streamOf: inventoryTable },
    queueActions: (queues) => [[queues.failedRecords, QUEUE_SEND_ACTIONS]],
    otherRights: (template) => [[['events:PutEvents'], { 'Fn::GetAtt': [onlyResource(template, 'AWS::Events::EventBus')[0], 'Arn'] }]],
    ownEnvironment: (template, queues) => ({
      [WEBHOOK_ENV.eventBusName]: { Ref: onlyResource(template, 'AWS::Events::EventBus')[0] },
      [WEBHOOK_ENV.deliveryQueueUrl]: { Ref: queues.webhookDeliveries },
      [WEBHOOK_ENV.urls]: '',
    }),
  },
  // Run every minute: reads which reservations are due from the index, then settles each as expired.
  {
    name: 'expireReservations',
    descriptionPrefix: 'Records the expiry of reservations',
    timeoutSeconds: FUNCTION_TIMEOUT_SECONDS.buffered,
    tableActions: [
      [reservationsTable, ['dynamodb:GetItem', 'dynamodb:UpdateItem']],
      [inventoryTable, ['dynamodb:UpdateItem']],
    ],
    indexActions: [[reservationsTable, reservationsTable.dueIndex.indexName, ['dynamodb:Query']]],
  },
  // Fed by the webhook queue: reads the secret, sends, and moves what failed for 24 hours to the dead letters. No table.
  {
    name: 'deliverWebhooks',
    descriptionPrefix: 'Delivers signed webhooks',
    timeoutSeconds: DELIVERY_TIMEOUT_SECONDS,
    tableActions: [],
    queueActions: (queues) => [
      [queues.webhookDeliveries, QUEUE_CONSUME_ACTIONS],
      [queues.webhookDeadLetters, QUEUE_SEND_ACTIONS],
    ],
    otherRights: (template) => [
      [
        ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
        { Ref: onlyResource(template, 'AWS::SecretsManager::Secret')[0] },
      ],
    ],
    ownEnvironment: (template, queues) => ({
      [WEBHOOK_ENV.secretArn]: { Ref: onlyResource(template, 'AWS::SecretsManager::Secret')[0] },
      [WEBHOOK_ENV.deliveryQueueUrl]: { Ref: queues.webhookDeliveries },
      [WEBHOOK_ENV.deadLetterQueueUrl]: { Ref: queues.webhookDeadLetters },
    }),
  },
];

describe('bundling', () => {
  it('gives NodejsFunction every esbuild option of lib/bundling.ts', () => {
    expect(nodejsBundlingOptions()).toEqual({
      target: ESBUILD_OPTIONS.target,
      format: OutputFormat.ESM,
      minify: true,
      sourceMap: true,
      sourcesContent: false,
      externalModules: [],
      mainFields: ESBUILD_OPTIONS.mainFields,
      banner: ESBUILD_OPTIONS.banner,
      logLevel: LogLevel.WARNING,
    });
    expect(ESBUILD_OPTIONS).toMatchObject({
      bundle: true,
      platform: 'node',
      format: 'esm',
      minify: true,
      sourcemap: true,
      sourcesContent: false,
    });
  });

  it('compiles for the Node.js version the functions run on', () => {
    expect(FUNCTION_RUNTIME.name).toBe('nodejs24.x');
    expect(LAMBDA_NODE_TARGET).toBe('node24');
  });
});

describe.each(STAGES)('the %s functions', (stage) => {
  const template = () => synthesized.templates[stage];
  const functions = () => resourcesOfType(template(), 'AWS::Lambda::Function');
  const tableIdOf = (table: TableKeys) => onlyResource(template(), 'AWS::DynamoDB::Table', { KeySchema: keySchemaOf(table) })[0];
  const functionFor = (deployed: DeployedFunction) => functionWithDescription(template(), deployed.descriptionPrefix);

  it('are the authorizer, one per route, the health check and the background functions (stream consumer, webhook delivery, reservation sweep)', () => {
    expect(Object.keys(functions())).toHaveLength(DEPLOYED_FUNCTIONS.length);
    expect(DEPLOYED_FUNCTIONS.length).toBe(1 + apiRoutes.length + 1 + backgroundLambdas.length);
  });

  describe.each(DEPLOYED_FUNCTIONS.map((deployed) => [deployed.name, deployed] as const))('%s', (_, deployed) => {
    it(`runs on Node.js 24, ARM64, 1024 MB, ${deployed.timeoutSeconds} s, with active X-Ray tracing`, () => {
      expect(functionFor(deployed)[1].Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 1024,
        Timeout: deployed.timeoutSeconds,
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
      });
    });

    it(`logs to its own log group, kept ${RETENTION_DAYS[stage]} days, in a format Lambda filters by no level (so no setting drops a metric line)`, () => {
      const { LoggingConfig } = functionFor(deployed)[1].Properties!;
      expect(LoggingConfig).toMatchObject({ LogFormat: 'Text' });
      expect(LoggingConfig).not.toHaveProperty('ApplicationLogLevel');
      expect(LoggingConfig).not.toHaveProperty('SystemLogLevel');
      const logGroup = resourcesOfType(template(), 'AWS::Logs::LogGroup')[referencedId(LoggingConfig.LogGroup)!]!;
      expect(logGroup.Properties!.RetentionInDays).toBe(RETENTION_DAYS[stage]);
      expect(logGroup.DeletionPolicy).toBe(STAGE_SETTINGS[stage].retainData ? 'Retain' : 'Delete');
    });

    it("reads the table names functions/config.ts expects and its stage's LOG_LEVEL (never METRICS_DISABLED), and maps its stack traces through source maps", () => {
      expect(functionFor(deployed)[1].Properties!.Environment.Variables).toEqual({
        [ENV.inventoryTable]: { Ref: tableIdOf(inventoryTable) },
        [ENV.apiKeysTable]: { Ref: tableIdOf(apiKeysTable) },
        [ENV.usageCountersTable]: { Ref: tableIdOf(usageCountersTable) },
        [ENV.idempotencyRecordsTable]: { Ref: tableIdOf(idempotencyRecordsTable) },
        [ENV.reservationsTable]: { Ref: tableIdOf(reservationsTable) },
        [ENV.historyTable]: { Ref: tableIdOf(historyTable) },
        [ENV.historyRetentionDays]: String(STAGE_SETTINGS[stage].historyRetentionDays),
        [ENV.changeFeedTable]: { Ref: tableIdOf(changeFeedTable) },
        [LOG_LEVEL_VARIABLE]: STAGE_SETTINGS[stage].logLevel,
        NODE_OPTIONS: '--enable-source-maps',
        ...deployed.ownEnvironment?.(template(), queueIds(template())),
      });
      const deployedEnvironment = Object.fromEntries(
        Object.entries(functionFor(deployed)[1].Properties!.Environment.Variables as Record<string, unknown>).map(([name, value]) => [
          name,
          typeof value === 'string' ? value : 'resolved-at-deploy',
        ]),
      );
      expect(() => readConfig(deployedEnvironment)).not.toThrow();
    });

    it("may use exactly its tables' actions, its own logs and X-Ray: no wildcard action, no data on Resource *", () => {
      const [, fn] = functionFor(deployed);
      const roleId = referencedId(fn.Properties!.Role)!;
      const role = resourcesOfType(template(), 'AWS::IAM::Role')[roleId]!;
      expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties!.Policies).toBeUndefined();
      const statements = Object.values(resourcesOfType(template(), 'AWS::IAM::Policy'))
        .filter((policy) => policy.Properties!.Roles.some((role: unknown) => referencedId(role) === roleId))
        .flatMap(
          (policy) => policy.Properties!.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown }[],
        );
      const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat().sort();

      expect(statements.every((statement) => statement.Effect === 'Allow')).toBe(true);
      expect(statements.flatMap(actionsOf).some((action) => action.endsWith('*'))).toBe(false);
      const onAnyResource = [
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
        ...(deployed.streamConsumer ? [STREAM_LISTING_ACTION] : []),
      ];
      expect(
        statements
          .filter((candidate) => candidate.Resource === '*')
          .flatMap(actionsOf)
          .sort(),
      ).toEqual(onAnyResource.sort());
      const logStatements = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));
      expect(logStatements.map((statement) => [actionsOf(statement), statement.Resource])).toEqual([
        [['logs:CreateLogStream', 'logs:PutLogEvents'], { 'Fn::GetAtt': [referencedId(fn.Properties!.LoggingConfig.LogGroup), 'Arn'] }],
      ]);

      const streamStatements = statements.filter(
        (statement) => statement.Resource !== '*' && actionsOf(statement).some((action) => STREAM_RECORD_ACTIONS.includes(action)),
      );
      expect(streamStatements.map((statement) => [actionsOf(statement), statement.Resource])).toEqual(
        deployed.streamConsumer
          ? [[STREAM_RECORD_ACTIONS, { 'Fn::GetAtt': [tableIdOf(deployed.streamConsumer.streamOf), 'StreamArn'] }]]
          : [],
      );
      const queueStatements = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('sqs:')));
      expect(Object.fromEntries(queueStatements.map((statement) => [referencedId(statement.Resource), actionsOf(statement)]))).toEqual(
        Object.fromEntries(deployed.queueActions?.(queueIds(template())) ?? []),
      );
      const otherStatements = statements.filter(
        (statement) => !actionsOf(statement).some((action) => /^(logs|xray|dynamodb|sqs):/.test(action)),
      );
      expect(otherStatements.map((statement) => [actionsOf(statement), statement.Resource])).toEqual(
        deployed.otherRights?.(template()) ?? [],
      );

      const onIndex = (candidate: { Resource: unknown }) => JSON.stringify(candidate.Resource).includes('/index/');
      const indexStatements = statements.filter(onIndex);
      expect(indexStatements.map((statement) => [actionsOf(statement), JSON.stringify(statement.Resource)])).toEqual(
        (deployed.indexActions ?? []).map(([table, indexName, actions]) => [
          [...actions].sort(),
          expect.stringMatching(new RegExp(`"${tableIdOf(table)}","Arn"\\]\\},"/index/${indexName}"`)),
        ]),
      );
      const dynamoActionsByTable: Record<string, string[]> = {};
      const tableStatements = statements.filter(
        (candidate) =>
          candidate.Resource !== '*' &&
          !onIndex(candidate) &&
          !streamStatements.includes(candidate) &&
          actionsOf(candidate).some((action) => action.startsWith('dynamodb:')),
      );
      // IAM merges grants of the same actions on several tables into one statement of several resources.
      for (const statement of tableStatements)
        for (const resource of [statement.Resource].flat()) {
          const tableId = referencedId(resource);
          expect(resource).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
          (dynamoActionsByTable[tableId!] ??= []).push(...actionsOf(statement));
        }
      const expected = Object.fromEntries(deployed.tableActions.map(([table, actions]) => [tableIdOf(table), [...actions].sort()]));
      expect(Object.fromEntries(Object.entries(dynamoActionsByTable).map(([table, actions]) => [table, actions.sort()]))).toEqual(expected);
    });
  });

  it('count unexpected authorizer failures from its logs, since its Errors metric also counts every 401', () => {
    const [, authorizer] = functionFor(DEPLOYED_FUNCTIONS[0]!);
    onlyResource(template(), 'AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: referencedId(authorizer.Properties!.LoggingConfig.LogGroup) },
      FilterPattern: `"${AUTHORIZER_FAILURE_LOG_MESSAGE}"`,
    });
  });
});

describe('the authorizer failure the metric filter counts', () => {
  const event = {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/v1/GET/inventory',
    headers: { Authorization: 'Bearer Abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG' },
    requestContext: { requestId: 'r-1' },
  } as never;
  const context = {} as Context;

  beforeEach(() => {
    vi.stubEnv('LOG_LEVEL', 'info');
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('is logged when the key store fails', async () => {
    const errorLines = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const handler = createAuthorizerHandler({
      apiKeys: { findByHash: () => Promise.reject(new Error('store down')) },
      failedAuthentications: new FailedAuthenticationLimiter(inMemoryFailedAuthenticationStore()),
    });
    await expect(handler(event, context)).rejects.toThrow('store down');
    expect(errorLines.mock.calls.flat().join('\n')).toContain(AUTHORIZER_FAILURE_LOG_MESSAGE);
  });

  it('is not logged for an unknown key, which is a 401', async () => {
    const errorLines = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const handler = createAuthorizerHandler({
      apiKeys: { findByHash: () => Promise.resolve(undefined) },
      failedAuthentications: new FailedAuthenticationLimiter(inMemoryFailedAuthenticationStore()),
    });
    await expect(handler(event, context)).resolves.toMatchObject({ policyDocument: { Statement: [{ Effect: 'Deny' }] } });
    expect(errorLines.mock.calls.flat().join('\n')).not.toContain(AUTHORIZER_FAILURE_LOG_MESSAGE);
  });
});

describe('the sunset of GET /pets/{petId}', () => {
  it('reaches every function from the petsSunsetDate context', () => {
    const { templates } = synthesizeApp({ [PETS_SUNSET_CONTEXT_KEY]: '2027-12-01' });

    const functions = Object.values(resourcesOfType(templates.prod, 'AWS::Lambda::Function'));
    expect(functions.map((deployed) => deployed.Properties!.Environment.Variables[ENV.petsSunsetDate])).toEqual(
      functions.map(() => '2027-12-01'),
    );
  });

  it('fails the synthesis, not a cold start, on a value that is not a date', () => {
    expect(() => synthesizeApp({ [PETS_SUNSET_CONTEXT_KEY]: 'soon' })).toThrow(/PETS_SUNSET_DATE must be an ISO 8601 date/);
  });
});
