/**
 * `npm run events -- dead-letters` lists the webhooks npm start gave up on after 24 hours;
 * `npm run events -- redrive [eventId ...]` queues them (or the ones named) again, with a new
 * 24 hours; the running server sends them within a second. DATA_DIR as for npm start.
 * With `--stage <staging|prod>`, the same on the stage's SQS dead-letter queue (docs/events.md).
 * `npm run events -- replay --stage <staging|prod>` hands the stream batches the history consumer
 * gave up on to it again (docs/deploying-and-operating.md).
 */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type DeploymentStage, STACK_OUTPUTS } from '../../lib/deployments.ts';
import { LOCAL_TABLES } from '../../local/local-store.ts';
import { createWebhookOutbox } from '../../local/webhook-outbox.ts';
import { webhookUrlForLogs } from '../../functions/domain/webhooks.ts';
import { dataDirOf, parseCommandLine, runTool, stageOf, UsageError } from '../keys/cli-arguments.ts';
import { openLocalStore, readStageOutputs } from '../keys/key-targets.ts';
import { listStageDeadLetters, redriveStageDeadLetters, type StageWebhookQueues } from './stage-dead-letters.ts';
import { replayFailedStreamBatches } from './stream-replay.ts';
import { isMainModule } from '../main-module.ts';

const USAGE = `Usage: npm run events -- <command> [options]

Commands:
  dead-letters            list the webhooks given up on after 24 hours
  redrive [eventId ...]   queue them (or the ones named) again; with --stage, all of them
  replay                  hand the stream batches the history consumer gave up on to it again (a stage's; npm start gives up on none)

Options:
  --stage <staging|prod>   the deployed stage's queues (AWS credentials needed); default: the local store
  --data-dir <dir>         the local store's directory (default: $DATA_DIR or .data)`;

const plural = (count: number) => (count === 1 ? '' : 's');

export async function runEventsCommand(argv: string[], print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseCommandLine(argv, {}, 'events');
  const [command, ...eventIds] = positionals;
  if (values.help || command === undefined) {
    print(USAGE);
    return;
  }
  if (command !== 'dead-letters' && command !== 'redrive' && command !== 'replay')
    throw new UsageError(`Unknown command "${command}": use dead-letters, redrive or replay (npm run events -- --help).`);
  if (command !== 'redrive' && eventIds.length > 0) throw new UsageError(`${command} takes no event ids.`);
  const stage = stageOf(values.stage);
  if (command === 'replay') {
    if (stage === undefined)
      print(
        "Nothing to replay in the local store: npm start's stream consumer gives up on no batch, it retries a failing one every second until it is recorded (each failure is logged).",
      );
    else await replayOnStage(stage, print);
    return;
  }
  if (stage !== undefined) {
    if (eventIds.length > 0)
      throw new UsageError("redrive --stage moves every dead letter (SQS's redrive moves a whole queue); it takes no event ids.");
    await onStage(stage, command, print);
    return;
  }
  const store = await openLocalStore(dataDirOf(values));
  try {
    const outbox = createWebhookOutbox(store.client, LOCAL_TABLES.webhookOutboxTable);
    if (command === 'dead-letters') {
      const dead = await outbox.list('dead');
      for (const delivery of dead)
        print(
          `${delivery.eventId}  ${webhookUrlForLogs(delivery.url)}  ${delivery.attempts} attempts, last: ${delivery.lastFailure ?? 'unknown'}`,
        );
      print(`${dead.length} dead-lettered webhook${plural(dead.length)} in the ${store.describe}.`);
      return;
    }
    const queued = await outbox.redrive(Date.now(), eventIds.length > 0 ? eventIds : undefined);
    print(`Queued ${queued.length} webhook${plural(queued.length)} again in the ${store.describe}.`);
  } finally {
    await store.close();
  }
}

/** The stage's queues through its stack outputs, as `npm run keys -- --stage` finds its tables. */
async function onStage(stage: DeploymentStage, command: 'dead-letters' | 'redrive', print: (line: string) => void): Promise<void> {
  const { output } = await readStageOutputs(stage);
  const queues: StageWebhookQueues = {
    deliveryQueueArn: output(STACK_OUTPUTS.webhookDeliveryQueueArn),
    deadLetterQueueUrl: output(STACK_OUTPUTS.webhookDeadLetterQueueUrl),
    deadLetterQueueArn: output(STACK_OUTPUTS.webhookDeadLetterQueueArn),
  };
  const sqs = new SQSClient({});
  try {
    if (command === 'dead-letters') await listStageDeadLetters(sqs, queues, print);
    else await redriveStageDeadLetters(sqs, queues, print);
  } finally {
    sqs.destroy();
  }
}

/** The stage's history consumer and its on-failure queue through its stack outputs; the stream's ARN is in each message. */
async function replayOnStage(stage: DeploymentStage, print: (line: string) => void): Promise<void> {
  const { output } = await readStageOutputs(stage);
  const consumer = {
    failedRecordsQueueUrl: output(STACK_OUTPUTS.historyFailedRecordsQueueUrl),
    consumerFunctionName: output(STACK_OUTPUTS.historyConsumerFunctionName),
  };
  const clients = { sqs: new SQSClient({}), streams: new DynamoDBStreamsClient({}), lambda: new LambdaClient({}) };
  try {
    await replayFailedStreamBatches(clients, consumer, print);
  } finally {
    for (const client of Object.values(clients)) client.destroy();
  }
}

if (isMainModule(import.meta.url)) runTool(() => runEventsCommand(process.argv.slice(2), (line) => console.log(line)));
