import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_ENV } from '../../../functions/config.ts';
import { INVENTORY_EVENT_TYPES } from '../../../functions/domain/vocabulary.ts';
import { MAX_RECEIVES, readWebhookSubscriptions } from '../../../lib/inventory-events.ts';
import { inventoryTable } from '../../../functions/adapters/dynamodb/tables.ts';
import { keySchemaOf, onlyResource, queueIds, resourcesOfType, STAGES, synthesizeApp, type SynthesizedApp } from './synthesized-app.ts';

/** Who hears of a change on AWS: the stream, the bus, the delivery queue and its dead letters, the alarm and the secret. */

let synthesized: SynthesizedApp;
beforeAll(() => {
  synthesized = synthesizeApp({ webhookUrls: { staging: 'https://receiver.example/hooks', prod: [] } });
});

describe.each(STAGES)('events of the %s stage', (stage) => {
  const template = () => synthesized.templates[stage];

  it('streams the inventory table with both images', () => {
    template().hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  });

  it('reads the stream so that a record failing every time holds its shard for minutes, and a failed batch goes to the on-failure queue with 23 hours left to replay it', () => {
    const [inventoryId] = onlyResource(template(), 'AWS::DynamoDB::Table', { KeySchema: keySchemaOf(inventoryTable) });
    const [, mapping] = onlyResource(template(), 'AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [inventoryId, 'StreamArn'] },
    });
    expect(mapping.Properties).toMatchObject({
      BatchSize: 100,
      // Halved down to the failing record (halving costs no retry), which then has 10 more tries.
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      // A batch Lambda cannot even invoke (throttled) waits at most an hour, and reaches the queue with 23 of the stream's 24 hours left.
      MaximumRecordAgeInSeconds: 3_600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueIds(template()).failedRecords, 'Arn'] } } },
    });
    // The consumer records a batch stage by stage (history, feed, events): no prefix of it is done before the whole, so it reports no partial failures.
    expect(mapping.Properties!.FunctionResponseTypes).toBeUndefined();
  });

  it('has an EventBridge bus of its own, which the stream consumer may put events on', () => {
    const [busId] = onlyResource(template(), 'AWS::Events::EventBus', { Name: `petstore-inventory-${stage}` });
    template().hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Action: 'events:PutEvents', Resource: { 'Fn::GetAtt': [busId, 'Arn'] } })]),
      },
    });
  });

  it('queues webhooks on a FIFO queue whose dead letters are a FIFO queue too, with an alarm on their first message', () => {
    const queues = Object.entries(resourcesOfType(template(), 'AWS::SQS::Queue')).filter(([, queue]) => queue.Properties?.FifoQueue);
    expect(queues).toHaveLength(2);
    const [deliveriesId, deliveries] = queues.find(([, queue]) => queue.Properties?.RedrivePolicy)!;
    const deadLettersId = deliveries.Properties!.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
    expect(queues.map(([id]) => id).sort()).toEqual([deadLettersId, deliveriesId].sort());
    // SQS's most receives, which the function's own dead letters come before (24 hours); a redrive (StartMessageMoveTask) needs the policy.
    expect(deliveries.Properties!.RedrivePolicy.maxReceiveCount).toBe(MAX_RECEIVES);
    expect(MAX_RECEIVES).toBe(1_000);
    template().hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLettersId, 'QueueName'] } }],
      Threshold: 1,
    });
    template().hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [deliveriesId, 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('generates the signing secret in Secrets Manager and hands the delivery function only its ARN', () => {
    const [secretId, secret] = onlyResource(template(), 'AWS::SecretsManager::Secret');
    expect(secret.Properties!.GenerateSecretString).toMatchObject({ PasswordLength: 32, ExcludePunctuation: true });
    expect(secret.Properties!.SecretString).toBeUndefined();
    template().hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ [WEBHOOK_ENV.secretArn]: { Ref: secretId } }) },
    });
  });
});

describe('webhook URLs per stage', () => {
  it('are read from the context, https only', () => {
    expect(readWebhookSubscriptions({ staging: ['https://a.example/h', 'https://b.example/h'] }, 'staging')).toEqual([
      { url: 'https://a.example/h', eventTypes: INVENTORY_EVENT_TYPES },
      { url: 'https://b.example/h', eventTypes: INVENTORY_EVENT_TYPES },
    ]);
    expect(readWebhookSubscriptions(undefined, 'prod')).toEqual([]);
    expect(() => readWebhookSubscriptions({ prod: 'http://a.example/h' }, 'prod')).toThrow(
      'context webhookUrls.prod: "http://a.example/h" must be an https URL.',
    );
  });

  it('name the event types an endpoint takes after its URL, ', () => {
    expect(readWebhookSubscriptions({ prod: ['https://a.example/h inventory.restocked inventory.low_stock'] }, 'prod')).toEqual([
      { url: 'https://a.example/h', eventTypes: ['inventory.low_stock', 'inventory.restocked'] },
    ]);
    expect(() => readWebhookSubscriptions({ prod: 'https://a.example/h inventory.lowstock' }, 'prod')).toThrow(
      'context webhookUrls.prod: "https://a.example/h" names the event type "inventory.lowstock"',
    );
  });
});
