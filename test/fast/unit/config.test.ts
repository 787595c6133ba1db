import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../functions/config.ts';

const TABLES = {
  INVENTORY_TABLE: 'inventory',
  API_KEYS_TABLE: 'keys',
  USAGE_COUNTERS_TABLE: 'counters',
  IDEMPOTENCY_RECORDS_TABLE: 'idempotency',
  RESERVATIONS_TABLE: 'reservations',
  HISTORY_TABLE: 'history',
  CHANGE_FEED_TABLE: 'change-feed',
};

describe('configuration, read at cold start', () => {
  it('reads the tables and defaults the ban policy', () => {
    expect(readConfig(TABLES)).toEqual({
      inventoryTable: 'inventory',
      apiKeysTable: 'keys',
      usageCountersTable: 'counters',
      idempotencyRecordsTable: 'idempotency',
      reservationsTable: 'reservations',
      historyTable: 'history',
      historyRetentionDays: 396,
      changeFeedTable: 'change-feed',
      banPolicy: { rejectionsPerMinute: 120, durationSeconds: 900 },
      failedAuthenticationsPerMinute: 60,
    });
  });

  it('takes the ban policy and a local endpoint from the environment', () => {
    const config = readConfig({
      ...TABLES,
      BAN_REJECTIONS_PER_MINUTE: '30',
      BAN_DURATION_SECONDS: '60',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    });

    expect(config).toMatchObject({
      banPolicy: { rejectionsPerMinute: 30, durationSeconds: 60 },
      dynamodbEndpoint: 'http://127.0.0.1:8000',
    });
  });

  it('fails naming the missing variable', () => {
    expect(() => readConfig({ INVENTORY_TABLE: 'inventory', API_KEYS_TABLE: 'keys' })).toThrow(
      'Environment variable USAGE_COUNTERS_TABLE must be set.',
    );
  });

  it('fails on a ban policy that is not a positive integer', () => {
    expect(() => readConfig({ ...TABLES, BAN_DURATION_SECONDS: '-5' })).toThrow(
      'BAN_DURATION_SECONDS must be a positive integer, not "-5"',
    );
  });

  it('fails on a ban longer than a day, which the counters could not hold past the next midnight', () => {
    expect(() => readConfig({ ...TABLES, BAN_DURATION_SECONDS: '86401' })).toThrow(
      'BAN_DURATION_SECONDS must be at most 86400, not "86401"',
    );
    expect(readConfig({ ...TABLES, BAN_DURATION_SECONDS: '86400' }).banPolicy.durationSeconds).toBe(86_400);
  });
});
