/**
 * What a deployed stage looks like from outside: its CloudFormation stack and the outputs an
 * operator's tool reads from it. The CDK app and the command-line tools (tools/) both need these
 * names: plain data with no CDK import, so that a tool reads them without loading the CDK.
 */
export type DeploymentStage = 'staging' | 'prod';

export const STACK_NAMES: Readonly<Record<DeploymentStage, string>> = {
  staging: 'PetStoreInventory-Staging',
  prod: 'PetStoreInventory-Prod',
};

export { API_STAGE_NAME } from '../functions/routes.ts';

/** Stack output keys; a tool finds a stage's resources by these names, so they never change. */
export const STACK_OUTPUTS = {
  restApiId: 'RestApiId',
  apiUrl: 'ApiUrl',
  stageName: 'StageName',
  usagePlanIdFree: 'UsagePlanIdFree',
  usagePlanIdPro: 'UsagePlanIdPro',
  usagePlanIdBusiness: 'UsagePlanIdBusiness',
  inventoryTableName: 'InventoryTableName',
  apiKeysTableName: 'ApiKeysTableName',
  usageCountersTableName: 'UsageCountersTableName',
  alarmTopicArn: 'AlarmTopicArn',
  webhookDeliveryQueueArn: 'WebhookDeliveryQueueArn',
  webhookDeadLetterQueueUrl: 'WebhookDeadLetterQueueUrl',
  webhookDeadLetterQueueArn: 'WebhookDeadLetterQueueArn',
  historyFailedRecordsQueueUrl: 'HistoryFailedRecordsQueueUrl',
  historyConsumerFunctionName: 'HistoryConsumerFunctionName',
} as const;

/**
 * How long DynamoDB Streams keeps a record. A batch the history consumer gave up on is described
 * in its on-failure queue by shard and sequence numbers only: it can be replayed until then.
 */
export const STREAM_RETENTION_HOURS = 24;

/**
 * How long API Gateway reuses the authorizer's answer for one Authorization header from one
 * source address: a key in use costs one authorizer call and one key read a minute, not one per
 * request. Revocations and bans still take effect on the next request, in the counting write;
 * a plan change takes up to this long, and a refused key's 401 repeats its first answer's
 * X-RateLimit-* values for as long (see docs/decisions.md). One minute, the address window's
 * length: no refusal is kept longer than the window that caused it.
 */
export const AUTHORIZER_CACHE_TTL_SECONDS = 60;
