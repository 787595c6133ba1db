import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AttributeType,
  StreamViewType,
  BillingMode,
  ProjectionType,
  Table,
  TableEncryption,
  type Attribute,
  type TableProps,
} from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import {
  apiKeysTable,
  historyTable,
  changeFeedTable,
  idempotencyRecordsTable,
  inventoryTable,
  reservationsTable,
  usageCountersTable,
} from '../functions/adapters/dynamodb/tables.ts';

const ATTRIBUTE_TYPES = { S: AttributeType.STRING, N: AttributeType.NUMBER, B: AttributeType.BINARY } as const;

function attribute(key: { name: string; type: keyof typeof ATTRIBUTE_TYPES }): Attribute {
  return { name: key.name, type: ATTRIBUTE_TYPES[key.type] };
}

export interface ServiceTablesProps {
  /** Keep the tables when the stack is deleted and refuse to delete them (prod). */
  retainData: boolean;
}

/**
 * The service's tables, with the key schemas the functions and the local store use
 * (functions/adapters/dynamodb/tables.ts). Names are left to CloudFormation: tools find them
 * through the stack's outputs, and a generated name never collides between stages.
 */
export class ServiceTables extends Construct {
  readonly inventory: Table;
  readonly apiKeys: Table;
  readonly usageCounters: Table;
  readonly idempotencyRecords: Table;
  readonly history: Table;
  readonly changeFeed: Table;
  readonly reservations: Table;

  constructor(scope: Construct, id: string, { retainData }: ServiceTablesProps) {
    super(scope, id);
    const common: Partial<TableProps> = {
      // Traffic follows API keys and plans, not a forecast: pay per request, no capacity to tune.
      billingMode: BillingMode.PAY_PER_REQUEST,
      // The aws/dynamodb KMS key: encrypted at rest, key use visible in CloudTrail, no key policy of ours to keep.
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      deletionProtection: retainData,
    };
    const recoverable: Partial<TableProps> = { pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true } };

    this.inventory = new Table(this, 'Inventory', {
      ...common,
      ...recoverable,
      partitionKey: attribute(inventoryTable.partitionKey),
      sortKey: attribute(inventoryTable.sortKey),
      // Each write's before and after: the history consumer derives a change's entry from them (lib/inventory-history.ts).
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });

    // An audit record: recoverable like the inventory it explains; entries expire after the stage's retention.
    this.history = new Table(this, 'History', {
      ...common,
      ...recoverable,
      partitionKey: attribute(historyTable.partitionKey),
      sortKey: attribute(historyTable.sortKey),
      timeToLiveAttribute: historyTable.timeToLiveAttribute,
    });

    // The order in which every change was announced: recoverable with the history it numbers, expiring with it.
    this.changeFeed = new Table(this, 'ChangeFeed', {
      ...common,
      ...recoverable,
      partitionKey: attribute(changeFeedTable.partitionKey),
      sortKey: attribute(changeFeedTable.sortKey),
      timeToLiveAttribute: changeFeedTable.timeToLiveAttribute,
    });

    // What customers were promised: recoverable like the inventory it holds stock of; settled records expire a month after their expiresAt.
    this.reservations = new Table(this, 'Reservations', {
      ...common,
      ...recoverable,
      partitionKey: attribute(reservationsTable.partitionKey),
      timeToLiveAttribute: reservationsTable.timeToLiveAttribute,
    });
    this.reservations.addGlobalSecondaryIndex({
      indexName: reservationsTable.dueIndex.indexName,
      partitionKey: attribute(reservationsTable.dueIndex.partitionKey),
      sortKey: attribute(reservationsTable.dueIndex.sortKey),
      // The sweep reads which reservations are due, then each record itself.
      projectionType: ProjectionType.KEYS_ONLY,
    });

    this.apiKeys = new Table(this, 'ApiKeys', { ...common, ...recoverable, partitionKey: attribute(apiKeysTable.partitionKey) });
    this.apiKeys.addGlobalSecondaryIndex({
      indexName: apiKeysTable.keyIdIndex.indexName,
      partitionKey: attribute(apiKeysTable.keyIdIndex.partitionKey),
      // The key tool reads whole records through the index (to revoke or re-plan by keyId).
      projectionType: ProjectionType.ALL,
    });

    this.usageCounters = new Table(this, 'UsageCounters', {
      ...common,
      partitionKey: attribute(usageCountersTable.partitionKey),
      timeToLiveAttribute: usageCountersTable.timeToLiveAttribute,
    });
    Validations.of(this.usageCounters).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'Usage counters live at most a day and an hour (TTL on expiresAt) and are rebuilt by traffic; restoring them to a point in time has no use and PITR would bill for every write.',
    });

    this.idempotencyRecords = new Table(this, 'IdempotencyRecords', {
      ...common,
      partitionKey: attribute(idempotencyRecordsTable.partitionKey),
      timeToLiveAttribute: idempotencyRecordsTable.timeToLiveAttribute,
    });
    Validations.of(this.idempotencyRecords).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'Idempotency records live 24 hours (TTL on expiresAt) and only make retries safe; a restore would bring back records whose retries are long over, and PITR would bill for every adjustment.',
    });
  }
}
