import { DEFAULT_HISTORY_RETENTION_DAYS } from './domain/vocabulary.ts';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE } from './domain/failed-authentications.ts';
import { DEFAULT_BAN_POLICY, MAX_BAN_SECONDS, type BanPolicy } from './domain/plan-limiter.ts';
import { routeOf } from './routes.ts';

/**
 * Configuration is read once, at module load: a function deployed without a variable fails
 * at cold start with a clear message, never halfway through a request.
 */
export interface ServiceConfig {
  inventoryTable: string;
  apiKeysTable: string;
  usageCountersTable: string;
  idempotencyRecordsTable: string;
  /** Reservations' records (POST /inventory/reservations and what follows it). */
  reservationsTable: string;
  /** Each pet's history of changes (GET /inventory/{petId}/changes, and the stream consumer that writes it). */
  historyTable: string;
  /** Days a history record is kept (HISTORY_RETENTION_DAYS); DEFAULT_HISTORY_RETENTION_DAYS (13 months) when unset. */
  historyRetentionDays?: number;
  /** Every pet's changes in one order (GET /inventory/changes, and the stream consumer that appends to it); kept as long as the history. */
  changeFeedTable: string;
  /** Only for the local store; on Lambda the SDK finds DynamoDB itself. */
  dynamodbEndpoint?: string;
  banPolicy: BanPolicy;
  /** Per source address: failed authentications a minute before the address is refused (429) without a key lookup. */
  failedAuthenticationsPerMinute?: number;
}

export const ENV = {
  inventoryTable: 'INVENTORY_TABLE',
  apiKeysTable: 'API_KEYS_TABLE',
  usageCountersTable: 'USAGE_COUNTERS_TABLE',
  idempotencyRecordsTable: 'IDEMPOTENCY_RECORDS_TABLE',
  reservationsTable: 'RESERVATIONS_TABLE',
  historyTable: 'HISTORY_TABLE',
  historyRetentionDays: 'HISTORY_RETENTION_DAYS',
  changeFeedTable: 'CHANGE_FEED_TABLE',
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  banRejectionsPerMinute: 'BAN_REJECTIONS_PER_MINUTE',
  banDurationSeconds: 'BAN_DURATION_SECONDS',
  failedAuthenticationsPerMinute: 'FAILED_AUTHENTICATIONS_PER_MINUTE',
  petsSunsetDate: 'PETS_SUNSET_DATE',
} as const;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Environment variable ${name} must be a positive integer, not "${text}".`);
  if (value > max) throw new Error(`Environment variable ${name} must be at most ${max}, not "${text}".`);
  return value;
}

/** A setting a function cannot run without: its absence fails the cold start, with its name. */
export function requiredSetting(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return required(env, name);
}

/**
 * The stream consumer's and the delivery function's settings on AWS. WEBHOOK_URLS is the stage's
 * list from cdk.json (comma-separated), empty for none; the secret is named by its ARN, its value
 * read from Secrets Manager and never set in the environment.
 */
export const WEBHOOK_ENV = {
  eventBusName: 'EVENT_BUS_NAME',
  deliveryQueueUrl: 'WEBHOOK_QUEUE_URL',
  deadLetterQueueUrl: 'WEBHOOK_DEAD_LETTER_QUEUE_URL',
  urls: 'WEBHOOK_URLS',
  secretArn: 'WEBHOOK_SECRET_ARN',
} as const;

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Environment variable ${name} must be set.`);
  return value;
}

export function readBanPolicy(env: NodeJS.ProcessEnv = process.env): BanPolicy {
  return {
    rejectionsPerMinute: positiveInteger(env, ENV.banRejectionsPerMinute, DEFAULT_BAN_POLICY.rejectionsPerMinute),
    durationSeconds: positiveInteger(env, ENV.banDurationSeconds, DEFAULT_BAN_POLICY.durationSeconds, MAX_BAN_SECONDS),
  };
}

/** HISTORY_RETENTION_DAYS: at most 20 years, as no audit asks for more. */
export function readHistoryRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInteger(env, ENV.historyRetentionDays, DEFAULT_HISTORY_RETENTION_DAYS, 20 * 366);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const config: ServiceConfig = {
    inventoryTable: required(env, ENV.inventoryTable),
    apiKeysTable: required(env, ENV.apiKeysTable),
    usageCountersTable: required(env, ENV.usageCountersTable),
    idempotencyRecordsTable: required(env, ENV.idempotencyRecordsTable),
    reservationsTable: required(env, ENV.reservationsTable),
    historyTable: required(env, ENV.historyTable),
    historyRetentionDays: readHistoryRetentionDays(env),
    changeFeedTable: required(env, ENV.changeFeedTable),
    banPolicy: readBanPolicy(env),
    failedAuthenticationsPerMinute: positiveInteger(env, ENV.failedAuthenticationsPerMinute, DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE),
  };
  const endpoint = env[ENV.dynamodbEndpoint];
  if (endpoint) config.dynamodbEndpoint = endpoint;
  return config;
}

/**
 * The Sunset of the deprecated GET /pets/{petId}: an ISO 8601 date or instant in
 * PETS_SUNSET_DATE, the registry's (routes.ts) when unset. A sunset before the deprecation
 * date would tell clients nonsense, so it fails at cold start instead.
 */
export function readPetsSunset(env: NodeJS.ProcessEnv = process.env): Date {
  const { deprecatedAt, sunsetAt } = routeOf('getPetById').deprecation;
  const text = env[ENV.petsSunsetDate];
  if (text === undefined || text === '') return sunsetAt;
  const sunset = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(sunset.getTime())) {
    throw new Error(`Environment variable ${ENV.petsSunsetDate} must be an ISO 8601 date such as 2027-07-01, not "${text}".`);
  }
  if (sunset <= deprecatedAt) {
    throw new Error(`Environment variable ${ENV.petsSunsetDate} must be after the deprecation date ${deprecatedAt.toISOString()}.`);
  }
  return sunset;
}
