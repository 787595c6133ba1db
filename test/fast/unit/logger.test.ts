import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inventoryKey } from '../../../functions/adapters/dynamodb/stored-inventory-item.ts';
import { TIMEOUT_MARGIN_MS } from '../../../functions/http/http-handler.ts';
import { STREAM_ABORTED_LOG_MESSAGE } from '../../../functions/http/json-array-stream.ts';
import { COLD_START_METRIC, logger, METRIC_NAMESPACE, SERVICE_METRICS, withRequestLogKeys } from '../../../functions/logger.ts';
import { lambdaContext, proxyEvent } from '../../support/events.ts';
import { linesWrittenBy } from '../../support/log-lines.ts';
import { COUNTERS_TABLE, INVENTORY_TABLE, inventoryHandlers } from '../../support/mocked-handlers.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const TRACE_ROOT = '1-67891233-abcdef012345678912345678';
const throttled = () => Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });

const metricLines = (lines: Record<string, unknown>[], name: string) => lines.filter((line) => '_aws' in line && name in line);

beforeEach(() => {
  dynamo.reset();
  dynamo.on(GetCommand, { TableName: COUNTERS_TABLE }).resolves({});
  dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).resolves({ Attributes: { requests: 1, minuteRequests: 1 } });
  dynamo.on(QueryCommand, { TableName: INVENTORY_TABLE }).resolves({ Items: [] });
  vi.stubEnv('LOG_LEVEL', 'INFO');
  vi.stubEnv('METRICS_DISABLED', 'false');
  vi.stubEnv('_X_AMZN_TRACE_ID', `Root=${TRACE_ROOT};Parent=53995c3f42cd8ad8;Sampled=1`);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the lines of one request', () => {
  it('all carry its API Gateway request id and X-Ray trace id, logs and metrics alike', async () => {
    dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).rejects(throttled());
    dynamo.on(QueryCommand, { TableName: INVENTORY_TABLE }).rejects(throttled());
    const event = proxyEvent({ requestContext: { ...proxyEvent().requestContext, requestId: 'gateway-request-7' } });

    let status: number | undefined;
    const lines = await linesWrittenBy(async () => {
      status = (await inventoryHandlers(Date.now()).list(event, lambdaContext)).statusCode;
    });

    expect(status).toBe(503);
    // Counting failed open (a metric), then the listing failed (a warning and a metric).
    expect(metricLines(lines, SERVICE_METRICS.usageCountingUnavailable)).toHaveLength(1);
    expect(metricLines(lines, SERVICE_METRICS.storeUnavailable)).toHaveLength(1);
    expect(lines.filter((line) => line.message === 'store unavailable')).toHaveLength(1);
    expect(lines.map((line) => [line.requestId, line.xrayTraceId])).toEqual(lines.map(() => ['gateway-request-7', TRACE_ROOT]));
  });

  it('keep their own ids when requests are served concurrently in one process (the local server)', async () => {
    dynamo.on(QueryCommand, { TableName: INVENTORY_TABLE }).callsFake(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw throttled();
    });
    const { list } = inventoryHandlers(Date.now());
    const ids = ['first', 'second', 'third'];

    const lines = await linesWrittenBy(() =>
      Promise.all(
        ids.map((requestId) => list(proxyEvent({ requestContext: { ...proxyEvent().requestContext, requestId } }), lambdaContext)),
      ),
    );

    const warnings = lines.filter((line) => line.message === 'store unavailable');
    expect(warnings.map((line) => line.requestId).sort()).toEqual([...ids].sort());
    const metrics = metricLines(lines, SERVICE_METRICS.storeUnavailable);
    expect(metrics.map((line) => line.requestId).sort()).toEqual([...ids].sort());
  });
});

describe('a log line', () => {
  const keys = { requestId: 'gateway-request-3', xrayTraceId: TRACE_ROOT };

  it("has the service's keys and the caller's fields, nothing else (none of Powertools' own), each value as the caller gave it", async () => {
    const [line] = await linesWrittenBy(async () =>
      withRequestLogKeys(keys, () => logger.info('counted', { petId: 9_007_199_254_740_993n, note: '', previous: null })),
    );

    expect(Object.keys(line!)).toEqual(['level', 'message', 'timestamp', 'requestId', 'xrayTraceId', 'petId', 'note', 'previous']);
    expect(line).toEqual({
      level: 'INFO',
      message: 'counted',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      ...keys,
      petId: '9007199254740993',
      note: '',
      previous: null,
    });
  });

  it('goes to stdout below WARN, to stderr from WARN on', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    logger.info('routine');
    logger.warn('noisy');
    logger.error('broken');
    const messages = (written: typeof stdout) => written.mock.calls.map(([chunk]) => JSON.parse(String(chunk)).message);

    expect([messages(stdout), messages(stderr)]).toEqual([['routine'], ['noisy', 'broken']]);
  });
});

describe('the line of a listing cut after its first byte', () => {
  const FIRST_PAGE = [{ petId: 5n, quantity: 1, status: 'available' as const }];
  const event = proxyEvent({ requestContext: { ...proxyEvent().requestContext, requestId: 'gateway-request-9' } });

  /** The shard of pet 5 answers a first page and promises more; `next` is what its second page does. */
  function firstPageThen(next: (answers: ReturnType<typeof dynamo.on>) => void) {
    const shard = dynamo.on(QueryCommand, { TableName: INVENTORY_TABLE, ExpressionAttributeValues: { ':shard': inventoryKey(5n).shard } });
    next(shard.resolvesOnce({ Items: FIRST_PAGE, LastEvaluatedKey: inventoryKey(5n) }));
  }

  it.each([
    ['the store fails', (answers: ReturnType<typeof dynamo.on>) => answers.rejects(throttled()), lambdaContext],
    [
      'the deadline passes',
      (answers: ReturnType<typeof dynamo.on>) => answers.callsFake(() => new Promise(() => undefined)),
      { ...lambdaContext, getRemainingTimeInMillis: () => TIMEOUT_MARGIN_MS + 50 },
    ],
  ])("carries API Gateway's request id as requestId, and Lambda's as functionRequestId, when %s", async (_cause, next, context) => {
    firstPageThen(next);

    const lines = await linesWrittenBy(async () => {
      expect((await inventoryHandlers(Date.now()).list(event, context)).aborted).toBeDefined();
    });

    const aborted = lines.filter((line) => line.message === STREAM_ABORTED_LOG_MESSAGE);
    expect(aborted).toEqual([
      expect.objectContaining({ requestId: 'gateway-request-9', functionRequestId: lambdaContext.awsRequestId, xrayTraceId: TRACE_ROOT }),
    ]);
    expect(metricLines(lines, SERVICE_METRICS.streamAborted)).toEqual([expect.objectContaining({ requestId: 'gateway-request-9' })]);
  });
});

describe('metric lines', () => {
  it('are Embedded Metric Format documents without a level, in the service namespace, dimensioned by function', async () => {
    const [line] = await linesWrittenBy(async () => logger.metric(SERVICE_METRICS.storeUnavailable, 1));

    expect(line).not.toHaveProperty('level');
    expect(line).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Namespace: METRIC_NAMESPACE, Dimensions: [['FunctionName']], Metrics: [{ Name: 'StoreUnavailable', Unit: 'Count' }] },
        ],
      },
      FunctionName: 'local',
      StoreUnavailable: 1,
    });
    expect(line?._aws).toHaveProperty('Timestamp', expect.any(Number));
    // No `service` dimension or key of Powertools': a metric's dimensions are its identity, which the alarms read.
    expect(Object.keys(line!).sort()).toEqual(['FunctionName', 'StoreUnavailable', '_aws']);
  });

  it("are dimensioned by the Lambda function's name where Lambda sets it", async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'PetStoreInventory-Staging-ListInventory');
    const [line] = await linesWrittenBy(async () => logger.metric(SERVICE_METRICS.storeUnavailable, 1));

    expect(line).toMatchObject({ FunctionName: 'PetStoreInventory-Staging-ListInventory' });
  });

  it('are not written when METRICS_DISABLED is true', async () => {
    vi.stubEnv('METRICS_DISABLED', 'true');
    expect(await linesWrittenBy(async () => logger.metric(SERVICE_METRICS.storeUnavailable, 1))).toEqual([]);
  });

  it.each(['ERROR', 'FATAL', 'silent'])(
    'are still written when the log level is raised to %s, and the log lines below it are not',
    async (level) => {
      vi.stubEnv('LOG_LEVEL', level);
      dynamo.on(UpdateCommand, { TableName: COUNTERS_TABLE }).rejects(throttled());
      dynamo.on(QueryCommand, { TableName: INVENTORY_TABLE }).rejects(throttled());

      const lines = await linesWrittenBy(() => inventoryHandlers(Date.now()).list(proxyEvent(), lambdaContext));

      expect(metricLines(lines, SERVICE_METRICS.usageCountingUnavailable)).toHaveLength(1);
      expect(metricLines(lines, SERVICE_METRICS.storeUnavailable)).toHaveLength(1);
      // The 'store unavailable' warning is below ERROR: filtered by our own logger.
      expect(lines.filter((line) => 'level' in line)).toEqual([]);
    },
  );

  it('are written for an error-level setting while error lines still pass it', async () => {
    vi.stubEnv('LOG_LEVEL', 'error');
    const lines = await linesWrittenBy(async () => {
      logger.info('routine');
      logger.warn('noisy');
      logger.error('broken');
    });
    expect(lines.map((line) => [line.level, line.message])).toEqual([['ERROR', 'broken']]);
  });
});

describe('the cold-start metric', () => {
  it('is written once per execution environment, on its first request', async () => {
    vi.resetModules();
    const { inventoryHandlers: freshHandlers } = await import('../../support/mocked-handlers.ts');
    const { list } = freshHandlers(Date.now());

    const lines = await linesWrittenBy(async () => {
      await list(proxyEvent(), lambdaContext);
      await list(proxyEvent(), lambdaContext);
    });

    const coldStarts = metricLines(lines, COLD_START_METRIC);
    expect(coldStarts).toHaveLength(1);
    expect(coldStarts[0]).toMatchObject({ [COLD_START_METRIC]: 1, requestId: 'request-1' });
  });
});
