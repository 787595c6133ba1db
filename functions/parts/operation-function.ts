import { readConfig } from '../config.ts';
import type { Operation } from '../http/operation.ts';
import type { OperationId } from '../routes.ts';
import { buildParts } from './part.ts';
import { createStoreClients } from './store-clients.ts';

/**
 * An operation's Lambda handler: its configuration read and its parts built once, at the cold
 * start (a function deployed without a variable fails there, with its name, never halfway through
 * a request). Each operation's generated module (functions/lambda/) is this call alone.
 */
export function operationFunction<Id extends OperationId, Parts>(
  operation: Operation<Id, Parts>,
): ReturnType<Operation<Id, Parts>['handler']> {
  const config = readConfig();
  return operation.handler(buildParts(operation.parts, { stores: createStoreClients(config), config })) as ReturnType<
    Operation<Id, Parts>['handler']
  >;
}
