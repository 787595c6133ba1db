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
