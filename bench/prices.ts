/** AWS's list prices the bench's cost figures use, in one place. */

/**
 * List prices in us-east-1, without free tiers: DynamoDB on-demand, in force since AWS halved
 * on-demand throughput prices on 1 November 2024; Lambda on arm64 (its first duration tier, 7.5
 * billion GB-seconds a month); API Gateway REST APIs (the first 333 million calls a month).
 */
export const PRICES = {
  region: 'us-east-1',
  usdPerMillionReadUnits: 0.125,
  usdPerMillionWriteUnits: 0.625,
  usdPerMillionLambdaRequests: 0.2,
  usdPerLambdaArmGbSecond: 0.0000133334,
  usdPerMillionRestApiCalls: 3.5,
} as const;
export const PRICE_SOURCES =
  'Sources, checked 2026-11-21: the units as AWS defines them (https://aws.amazon.com/dynamodb/pricing/on-demand/); the us-east-1 prices as Airbyte ("Amazon DynamoDB Pricing", 21 July 2025) and JusDB ("DynamoDB Cost Optimization", 19 August 2025) report them after the 1 November 2024 reduction.';
export const AWS_PRICE_SOURCES =
  'Lambda and API Gateway prices taken on 2026-11-27 from stored copies of their pages, not checked live: Lambda arm64 $0.20 per million requests and $0.0000133334 per GB-second for the first 7.5 billion GB-seconds a month in US East (N. Virginia) (https://aws.amazon.com/lambda/pricing/, as cloudchipr.com\'s "AWS Lambda Pricing Breakdown" lists them); API Gateway REST APIs $3.50 per million calls for the first 333 million a month (AWS whitepaper "Best Practices for Designing Amazon API Gateway Private APIs and Private Integration", Cost optimization, table 4).';

/** EventBridge and SQS FIFO: published on-demand prices, us-east-1, in dollars per million (see the text). */
export const AWS_PRICES = {
  eventBridgeEvents: 1.0,
  sqsFifoRequests: 0.5,
} as const;
