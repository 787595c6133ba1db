/** AWS's list prices the bench's cost figures use, in one place. */

/** DynamoDB on-demand request units, in dollars per million. */
export const PRICES = { region: 'us-east-1', usdPerMillionReadUnits: 0.125, usdPerMillionWriteUnits: 0.625 } as const;
export const PRICE_SOURCES =
  'Sources, checked 2026-11-21: the units as AWS defines them (https://aws.amazon.com/dynamodb/pricing/on-demand/); the us-east-1 prices as Airbyte ("Amazon DynamoDB Pricing", 21 July 2025) and JusDB ("DynamoDB Cost Optimization", 19 August 2025) report them after the 1 November 2024 reduction.';

/** Lambda, EventBridge and SQS FIFO: published on-demand prices, us-east-1, in dollars per million (see the text). */
export const AWS_PRICES = {
  lambdaRequests: 0.2,
  /** arm64, per GB-second (the functions run on ARM_64). */
  lambdaArmGbSecond: 0.0000133334,
  eventBridgeEvents: 1.0,
  sqsFifoRequests: 0.5,
} as const;
