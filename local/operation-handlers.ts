import type { Operation } from '../functions/http/operation.ts';
import type { HttpHandler, StreamedHttpHandler } from '../functions/http/http-handler.ts';
import { apiRoutes, operationModuleFile, type OperationId } from '../functions/routes.ts';
import type { ServiceDependencies } from './service-dependencies.ts';

/**
 * Every operation's definition, found where the registry names it (operationModuleFile), for a
 * host that serves them all in one process: nothing here lists the operations by hand.
 */
export async function operationDefinitions(): Promise<Operation[]> {
  return Promise.all(
    apiRoutes.map(async ({ operationId }) => {
      const module = (await import(`../${operationModuleFile(operationId)}`)) as Record<string, Operation | undefined>;
      const operation = module[operationId];
      if (operation?.operationId !== operationId)
        throw new Error(`${operationModuleFile(operationId)} exports no operation ${operationId}`);
      return operation;
    }),
  );
}

/**
 * Every HTTP operation's handler by operationId (see routes.ts), over the host's parts, each built
 * once. Such a host provides Lambda's streaming runtime first (provideLambdaStreaming).
 */
export async function createOperationHandlers(
  dependencies: ServiceDependencies,
): Promise<Record<OperationId, HttpHandler | StreamedHttpHandler>> {
  const operations = await operationDefinitions();
  return Object.fromEntries(
    operations.map((operation) => [operation.operationId, operation.handler(dependencies.partsOf(operation.parts) as never)]),
  ) as Record<OperationId, HttpHandler | StreamedHttpHandler>;
}
