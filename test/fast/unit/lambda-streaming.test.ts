import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createDependencies } from '../../../local/service-dependencies.ts';
import { DEFAULT_BAN_POLICY } from '../../../functions/domain/plan-limiter.ts';
import { createOperationHandlers } from '../../../local/operation-handlers.ts';
import type { StreamedHttpHandler } from '../../../functions/http/http-handler.ts';
import { collectStreamed, isStreamedHandler, ResponseStreamDestroyedError } from '../../../local/lambda-streaming.ts';
import { LOCAL_TABLES } from '../../../local/local-store.ts';
import { apiRoutes } from '../../../functions/routes.ts';

/** Lambda's streaming runtime as test/setup.ts provides it (local/lambda-streaming.ts). */
const runtime = (globalThis as unknown as { awslambda: { HttpResponseStream: { from(stream: Writable, prelude: object): Writable } } })
  .awslambda;

describe('the streaming runtime outside Lambda', () => {
  it('writes the HTTP prelude as the Lambda runtime does: the JSON metadata, 8 NUL bytes, then the body', async () => {
    const received: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk);
        done();
      },
    });

    const stream = runtime.HttpResponseStream.from(sink, { statusCode: 201, headers: { 'X-A': '1' } });
    stream.write('body');
    stream.write('!');

    expect(Buffer.concat(received).toString('latin1')).toBe(`{"statusCode":201,"headers":{"X-A":"1"}}${'\0'.repeat(8)}body!`);
  });

  it('reads a prelude however the writes cut it, and keeps the body bytes that follow it', async () => {
    const prelude = Buffer.from(`{"statusCode":202,"headers":{"Content-Type":"text/plain"}}${'\0'.repeat(8)}he`);
    const handler = (async (_event: unknown, stream: Writable) => {
      for (let at = 0; at < prelude.length; at += 5) stream.write(prelude.subarray(at, at + 5));
      stream.end('llo');
    }) as unknown as StreamedHttpHandler;

    const answer = await collectStreamed(handler, {} as APIGatewayProxyEvent, {} as Context);

    expect([answer.statusCode, answer.headers, answer.body.toString()]).toEqual([202, { 'Content-Type': 'text/plain' }, 'hello']);
  });

  it('reports a handler that destroys its response stream after the head, which would end the process on Lambda', async () => {
    const failure = new Error('the body failed');
    const handler = (async (_event: unknown, stream: Writable) => {
      const answer = runtime.HttpResponseStream.from(stream, { statusCode: 200 });
      answer.write('[');
      await new Promise((resolve) => setImmediate(resolve));
      answer.destroy(failure);
      throw failure;
    }) as unknown as StreamedHttpHandler;

    const answer = await collectStreamed(handler, {} as APIGatewayProxyEvent, {} as Context);

    expect(answer.aborted).toBeInstanceOf(ResponseStreamDestroyedError);
    expect((answer.aborted as Error).cause).toBe(failure);
  });

  it('builds a streamed handler for every streamed route, and a buffered one for the others', async () => {
    const dependencies = createDependencies({ ...LOCAL_TABLES, dynamodbEndpoint: 'http://127.0.0.1:1', banPolicy: DEFAULT_BAN_POLICY });
    try {
      const handlers = await createOperationHandlers(dependencies);
      expect(apiRoutes.map((route) => [route.operationId, isStreamedHandler(handlers[route.operationId]!)])).toEqual(
        apiRoutes.map((route) => [route.operationId, route.streamed === true]),
      );
    } finally {
      dependencies.close();
    }
  });
});
