import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STACK_OUTPUTS } from '../../../lib/deployments.ts';
import { runEventsCommand } from '../../../tools/events/cli.ts';
import { awsEnvironment, stagingStackWithOutputs } from '../../support/aws-environment.ts';

const cloudFormation = mockClient(CloudFormationClient);
const sqs = mockClient(SQSClient);

const QUEUES = {
  deliveryArn: 'arn:aws:sqs:eu-west-1:111122223333:Staging-WebhookDeliveries.fifo',
  deadLettersUrl: 'https://sqs.eu-west-1.amazonaws.com/111122223333/Staging-WebhookDeadLetters.fifo',
  deadLettersArn: 'arn:aws:sqs:eu-west-1:111122223333:Staging-WebhookDeadLetters.fifo',
};

function stackWithOutputs(outputs: Record<string, string>) {
  cloudFormation.on(DescribeStacksCommand).resolves(stagingStackWithOutputs(outputs));
}

async function events(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runEventsCommand(argv, (line) => lines.push(line));
  return lines;
}

const deadLetter = (petId: number, version: number, failure: string) => ({
  MessageId: `m-${petId}-${version}`,
  ReceiptHandle: `r-${petId}-${version}`,
  Body: JSON.stringify({ url: 'https://hooks.example/inventory?token=s3cret', eventId: `evt_inventory_${petId}_${version}`, body: '{}' }),
  Attributes: { SentTimestamp: String(Date.UTC(2026, 10, 20, 8, 0, version)) },
  MessageAttributes: { lastFailure: { DataType: 'String', StringValue: failure } },
});

afterEach(() => {
  vi.unstubAllEnvs();
});

beforeEach(() => {
  awsEnvironment({ AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIATESTONLY', AWS_SECRET_ACCESS_KEY: 'test-only' });
  cloudFormation.reset();
  sqs.reset();
  stackWithOutputs({
    [STACK_OUTPUTS.webhookDeliveryQueueArn]: QUEUES.deliveryArn,
    [STACK_OUTPUTS.webhookDeadLetterQueueUrl]: QUEUES.deadLettersUrl,
    [STACK_OUTPUTS.webhookDeadLetterQueueArn]: QUEUES.deadLettersArn,
  });
});

describe('npm run events -- dead-letters --stage', () => {
  it("finds the dead-letter queue by the stage's outputs and lists the count and the oldest (each URL by origin and path), without deleting any", async () => {
    sqs.on(GetQueueAttributesCommand).resolves({ Attributes: { ApproximateNumberOfMessages: '12' } });
    sqs.on(ReceiveMessageCommand).resolves({ Messages: [deadLetter(2, 7, 'HTTP 500'), deadLetter(3, 1, 'connection refused')] });

    const lines = await events('dead-letters', '--stage', 'staging');

    expect(cloudFormation).toHaveReceivedCommandWith(DescribeStacksCommand, { StackName: 'PetStoreInventory-Staging' });
    expect(sqs).toHaveReceivedCommandWith(ReceiveMessageCommand, {
      QueueUrl: QUEUES.deadLettersUrl,
      VisibilityTimeout: 0,
      MessageAttributeNames: ['lastFailure'],
    });
    expect(sqs).not.toHaveReceivedCommand(DeleteMessageCommand);
    expect(lines).toEqual([
      'evt_inventory_2_7  https://hooks.example/inventory  dead-lettered 2026-11-20T08:00:07.000Z, last: HTTP 500',
      'evt_inventory_3_1  https://hooks.example/inventory  dead-lettered 2026-11-20T08:00:01.000Z, last: connection refused',
      '(the oldest 2 shown)',
      `About 12 dead-lettered webhooks in ${QUEUES.deadLettersArn}.`,
    ]);
  });

  it('says none without receiving when the queue is empty', async () => {
    sqs.on(GetQueueAttributesCommand).resolves({ Attributes: { ApproximateNumberOfMessages: '0' } });

    expect(await events('dead-letters', '--stage', 'staging')).toEqual([`About 0 dead-lettered webhooks in ${QUEUES.deadLettersArn}.`]);
    expect(sqs).not.toHaveReceivedCommand(ReceiveMessageCommand);
  });

  it('says to deploy when the stack predates the queue outputs', async () => {
    stackWithOutputs({});

    await expect(events('dead-letters', '--stage', 'staging')).rejects.toThrow(
      `Stack PetStoreInventory-Staging has no output ${STACK_OUTPUTS.webhookDeliveryQueueArn}; deploy it first (npm run deploy:staging).`,
    );
    expect(sqs.calls()).toHaveLength(0);
  });

  it('names AWS_PROFILE and the guide section when no credentials are found, before any AWS call', async () => {
    awsEnvironment({ AWS_REGION: 'eu-west-1' });

    await expect(events('dead-letters', '--stage', 'prod')).rejects.toThrow(
      /^--stage prod needs AWS credentials: set AWS_PROFILE to a profile of the prod account, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY \(.+\); see docs\/deploying-and-operating\.md, "AWS credentials and permissions"\.$/,
    );
    expect(cloudFormation.calls()).toHaveLength(0);
    expect(sqs.calls()).toHaveLength(0);
  });
});

describe('npm run events -- redrive --stage', () => {
  it('moves the dead letters back to the delivery queue, named, with SQS StartMessageMoveTask', async () => {
    sqs.on(StartMessageMoveTaskCommand).resolves({ TaskHandle: 'task-1' });

    const lines = await events('redrive', '--stage', 'staging');

    expect(sqs).toHaveReceivedCommandWith(StartMessageMoveTaskCommand, {
      SourceArn: QUEUES.deadLettersArn,
      DestinationArn: QUEUES.deliveryArn,
    });
    expect(lines.join('\n')).toContain('(task task-1)');
  });

  it('refuses event ids with --stage before any AWS call: SQS moves the whole queue', async () => {
    await expect(events('redrive', 'evt_inventory_2_7', '--stage', 'staging')).rejects.toThrow(
      "redrive --stage moves every dead letter (SQS's redrive moves a whole queue); it takes no event ids.",
    );
    expect(cloudFormation.calls()).toHaveLength(0);
  });

  it('refuses an unknown stage', async () => {
    await expect(events('redrive', '--stage', 'dev')).rejects.toThrow('--stage must be one of staging, prod (got "dev").');
  });
});
