import type { RemovalPolicy } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Duration } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { reservationsTable } from '../functions/adapters/dynamodb/tables.ts';
import { reservationSweepLambda } from '../functions/routes.ts';
import { ServiceFunction } from './service-function.ts';

/** How often the sweep runs: EventBridge's finest schedule. Exactness does not wait for it (functions/domain/reservations.ts). */
export const RESERVATION_SWEEP_RATE = Duration.minutes(1);

export interface ReservationSweepProps {
  inventory: Table;
  reservations: Table;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/**
 * A schedule → the sweep function, which records the expiry of every reservation past its
 * expiresAt (each a change of each pet it held). It reads the sparse index of active ones by
 * expiresAt, then each due record, and writes each expiry as one transaction.
 */
export class ReservationSweep extends Construct {
  readonly service: ServiceFunction;

  constructor(scope: Construct, id: string, props: ReservationSweepProps) {
    super(scope, id);
    this.service = new ServiceFunction(this, 'Function', {
      lambda: reservationSweepLambda,
      description: 'Records the expiry of reservations past their expiresAt (every minute)',
      environment: props.environment,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
    });
    this.service.grantTableAccess(props.reservations, 'reservationDueQuery', reservationsTable.dueIndex.indexName);
    this.service.grantTableAccess(props.reservations, 'reservationSweep');
    this.service.grantTableAccess(props.inventory, 'inventoryHold');
    new Rule(this, 'Schedule', {
      description: 'Records the expiry of reservations past their expiresAt',
      schedule: Schedule.rate(RESERVATION_SWEEP_RATE),
      // One attempt: the next minute's run finds whatever this one left.
      targets: [new LambdaFunction(this.service.function, { retryAttempts: 0 })],
    });
  }
}
