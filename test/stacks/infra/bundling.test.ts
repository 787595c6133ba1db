import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLambdaFunctions, type LambdaBundle } from '../../../bench/bundle.ts';

let outDir: string;
let bundles: LambdaBundle[];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'petstore-bundles-'));
  bundles = await bundleLambdaFunctions(outDir);
});

afterAll(() => rm(outDir, { recursive: true, force: true }));

/** Packages whose place is the build, not a Lambda function: zod and Ajv weigh on every cold start. */
const BUILD_TIME_ONLY = ['zod', 'ajv', 'ajv-formats', 'ajv-errors', 'ajv-keywords', 'ajv-ftl-i18n', '@middy/validator/transpile'];

const packagesIn = (bundle: LambdaBundle) =>
  bundle.modules.filter((module) =>
    BUILD_TIME_ONLY.some((name) => module.includes(`node_modules/${name}/`) || module.endsWith(`node_modules/${name}.js`)),
  );

const INVENTORY = 'functions/adapters/dynamodb/inventory-repository.ts';
const API_KEYS = 'functions/adapters/dynamodb/api-key-repository.ts';
const STREAMED_ARRAY = 'functions/http/json-array-stream.ts';
const ADJUSTMENT = ['functions/adapters/dynamodb/idempotent-write-repository.ts', 'functions/domain/idempotent-writes.ts'];
const HISTORY = 'functions/adapters/dynamodb/history-repository.ts';
const STREAM_RECORDS = 'functions/adapters/dynamodb/inventory-stream.ts';
const CHANGE_FEED = 'functions/adapters/dynamodb/change-feed-repository.ts';
const PUBLISHERS = ['functions/adapters/aws/event-bus-publisher.ts', 'functions/adapters/aws/webhook-queue-publisher.ts'];
const BODY = [
  'functions/http/json-body.ts',
  'functions/http/request-body-validators.generated.ts',
  'node_modules/@middy/http-json-body-parser/index.js',
  'node_modules/@middy/validator/index.js',
];
const RESERVE = 'functions/operations/reserve-inventory.ts';
const GET_RESERVATION = 'functions/operations/get-reservation.ts';
const COMMIT = 'functions/operations/commit-reservation.ts';
const RELEASE = 'functions/operations/release-reservation.ts';
const THRESHOLDS = 'functions/adapters/dynamodb/low-stock-threshold-repository.ts';
/** Modules only some operations need: each bundle should hold exactly its operation's. */
const OPERATION_SPECIFIC = [
  INVENTORY,
  API_KEYS,
  STREAMED_ARRAY,
  ...ADJUSTMENT,
  ...BODY,
  HISTORY,
  STREAM_RECORDS,
  CHANGE_FEED,
  ...PUBLISHERS,
  'functions/operations/list-inventory.ts',
  'functions/operations/get-inventory-item.ts',
  'functions/operations/update-inventory.ts',
  'functions/operations/adjust-inventory.ts',
  'functions/operations/adjust-inventory-batch.ts',
  'functions/operations/list-inventory-changes.ts',
  'functions/handlers/record-inventory-changes-handler.ts',
  'functions/operations/get-pet-by-id.ts',
  'functions/handlers/authorizer-handler.ts',
  'functions/operations/list-inventory-change-feed.ts',
  'functions/handlers/deliver-webhooks-handler.ts',
  'functions/handlers/health-handler.ts',
  RESERVE,
  GET_RESERVATION,
  COMMIT,
  RELEASE,
  'functions/handlers/expire-reservations-handler.ts',
  THRESHOLDS,
  'functions/operations/put-low-stock-threshold.ts',
  'functions/operations/get-low-stock-threshold.ts',
  'functions/operations/delete-low-stock-threshold.ts',
];

describe('the Lambda bundles, as lib/bundling.ts builds them', () => {
  it('hold neither zod nor a schema compiler: bodies are checked by the precompiled validators', () => {
    expect(bundles.map((bundle) => [bundle.name, packagesIn(bundle)])).toEqual(bundles.map((bundle) => [bundle.name, []]));
  });

  it('validate bodies with @middy/validator and the generated code', () => {
    const update = bundles.find((bundle) => bundle.operationId === 'updateInventory')!;

    expect(update.modules).toEqual(
      expect.arrayContaining(['node_modules/@middy/validator/index.js', 'functions/http/request-body-validators.generated.ts']),
    );
  });

  it("each carry their own operation's code and no other's: one function's adapters, operation and body parsing stay out of the rest", () => {
    const held = Object.fromEntries(
      bundles.map((bundle) => [bundle.name, OPERATION_SPECIFIC.filter((module) => bundle.modules.includes(module)).sort()]),
    );
    expect(held).toEqual({
      'list-inventory': [INVENTORY, STREAMED_ARRAY, 'functions/operations/list-inventory.ts'].sort(),
      'get-inventory-item': [INVENTORY, 'functions/operations/get-inventory-item.ts'].sort(),
      // An update sent with an Idempotency-Key is written once per key, as adjustments are.
      'update-inventory': [INVENTORY, ...ADJUSTMENT, ...BODY, 'functions/operations/update-inventory.ts'].sort(),
      // An adjustment writes through the same stock write input as a PATCH, in its transaction, and reads the entry back itself: no inventory repository.
      'adjust-inventory': [...ADJUSTMENT, ...BODY, 'functions/operations/adjust-inventory.ts'].sort(),
      'adjust-inventory-batch': [...ADJUSTMENT, ...BODY, 'functions/operations/adjust-inventory-batch.ts'].sort(),
      // The pet's existence is read from the inventory (404), its changes from the history.
      'list-inventory-changes': [INVENTORY, HISTORY, 'functions/operations/list-inventory-changes.ts'].sort(),
      // The stream's records hold the entries: the consumer reads no table; it writes the history and the feed, and publishes.
      'record-inventory-changes': [
        HISTORY,
        STREAM_RECORDS,
        CHANGE_FEED,
        ...PUBLISHERS,
        'functions/handlers/record-inventory-changes-handler.ts',
      ].sort(),
      'get-pet-by-id': [INVENTORY, 'functions/operations/get-pet-by-id.ts'].sort(),
      authorizer: [API_KEYS, 'functions/handlers/authorizer-handler.ts'].sort(),
      'list-inventory-change-feed': [CHANGE_FEED, 'functions/operations/list-inventory-change-feed.ts'].sort(),
      // The delivery function reads its queue and signs: no table, no other function's code.
      'deliver-webhooks': ['functions/handlers/deliver-webhooks-handler.ts'],
      health: [INVENTORY, 'functions/handlers/health-handler.ts'].sort(),
      // A reservation is a hold written once per Idempotency-Key, from the body; reading, committing and releasing one read no body.
      'reserve-inventory': [...ADJUSTMENT, ...BODY, RESERVE].sort(),
      'get-reservation': [GET_RESERVATION],
      'commit-reservation': [COMMIT],
      'release-reservation': [RELEASE],
      // The sweep records expiries through the reservations' own repository: no idempotent write, no body.
      'expire-reservations': ['functions/handlers/expire-reservations-handler.ts'],
      // A threshold is an attribute of the entry, written and read by its own repository: no inventory repository, no history.
      'put-low-stock-threshold': [THRESHOLDS, ...BODY, 'functions/operations/put-low-stock-threshold.ts'].sort(),
      'get-low-stock-threshold': [THRESHOLDS, 'functions/operations/get-low-stock-threshold.ts'].sort(),
      'delete-low-stock-threshold': [THRESHOLDS, 'functions/operations/delete-low-stock-threshold.ts'].sort(),
    });
  });
});
