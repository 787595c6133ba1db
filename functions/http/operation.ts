import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Deadline } from '../domain/contention.ts';
import type { ChangeAuthor } from '../domain/stock-writes.ts';
import type { PlanLimiter } from '../domain/plan-limiter.ts';
import type { Part } from '../parts/part.ts';
import { planLimiterPart } from '../parts/plan-limiter.ts';
import { routeOf, type OperationId } from '../routes.ts';
import { headersOnEveryAnswer } from './answer-headers.ts';
import { changeAuthorFrom } from './caller.ts';
import {
  httpHandler,
  type HttpEvent,
  type HttpHandler,
  requestDeadline,
  streamedHttpHandler,
  type StreamedHttpHandler,
  type StreamedResult,
} from './http-handler.ts';
import { idempotencyKeyFrom, optionalIdempotencyKeyFrom } from './idempotent-answers.ts';
import type { JsonBodyMiddleware } from './json-body.ts';
import { pathParametersOf, type PathParameters } from './path-parameters.ts';
import { planLimitedRead, planLimits } from './plan-limits.ts';

/**
 * An operation written once: the registry states its facts (routes.ts: its route, query, body,
 * Idempotency-Key, counting, lifecycle, store access), and its definition here says what it does
 * with a request and which parts it needs. From both, one factory makes the Middy stack every host
 * runs: the Lambda function (lambda/<name>.ts, generated) and npm start alike. The stack counts the
 * request against the caller's plan first or alongside the read the registry says, puts the
 * lifecycle headers on every answer, refuses what the operation does not take, reads the body, and
 * hands the operation its inputs read once each: the path parameters, the declared query, the
 * body, the Idempotency-Key, the author of a change and the deadline of its rounds.
 */

type RouteOf<Id extends OperationId> = ReturnType<typeof routeOf<Id>>;

type QueryOf<Route> = Route extends { query: infer Query } ? { readonly [Name in keyof Query]?: string } : Record<never, never>;

/** The Idempotency-Key as the route takes it: always there where it is required, maybe where optional, never where it takes none. */
type KeyOf<Route> = Route extends { idempotencyKey: 'required' }
  ? string
  : Route extends { idempotencyKey: 'optional' }
    ? string | undefined
    : never;

/** What an operation is handed of a request, each read once, in the contract's terms. */
export interface OperationRequest<Id extends OperationId, Body = never> {
  event: HttpEvent<Body>;
  context: Context;
  path: PathParameters<RouteOf<Id>['resource']>;
  query: QueryOf<RouteOf<Id>>;
  body: Body;
  idempotencyKey: KeyOf<RouteOf<Id>>;
  /** Who asks: the request's id and the caller's API key id, as a change's history records them. */
  author: ChangeAuthor;
  /** When a write that meets other transactions starts no more rounds (domain/contention.ts). */
  deadline: Deadline;
}

type Answer<Id extends OperationId> = RouteOf<Id> extends { streamed: true } ? StreamedResult : APIGatewayProxyResult;
type Handler<Id extends OperationId> = RouteOf<Id> extends { streamed: true } ? StreamedHttpHandler : HttpHandler;

/** The parts by name, as an operation names the factories that build them (parts/). */
export type PartFactories<Parts> = { readonly [Name in keyof Parts]: Part<Parts[Name]> };

export interface OperationDefinition<Parts, Body> {
  parts: PartFactories<Parts>;
  /** The body's reader, for an operation whose route has a body: jsonBody(<its compiled validator>), so that only it bundles one. */
  body?: JsonBodyMiddleware<Body>;
  /** Headers on every answer besides the lifecycle's (the listing's Vary). */
  headers?: Readonly<Record<string, string>>;
  /** A deprecated operation's sunset in this stage, from its parts (getPetById's PETS_SUNSET_DATE). */
  sunsetAt?: (parts: Parts) => Date;
}

/** What the operation does with a request, given its parts: its answer, or an error the stack formats. */
export type OperationHandle<Id extends OperationId, Parts, Body> = (
  request: OperationRequest<Id, Body>,
  parts: Parts,
) => Promise<Answer<Id>>;

export interface Operation<Id extends OperationId = OperationId, Parts = unknown> {
  operationId: Id;
  route: RouteOf<Id>;
  /** What the operation's function is wired from: its own parts, and the plan limiter that counts it. */
  parts: PartFactories<Parts & { limiter: PlanLimiter }>;
  /** The operation's handler over built parts: the Lambda function's, npm start's, or a test's with parts of its own. */
  handler(parts: Parts & { limiter: PlanLimiter }): Handler<Id>;
}

export function defineOperation<Id extends OperationId, Parts, Body = never>(
  operationId: Id,
  definition: OperationDefinition<Parts, Body>,
  handle: OperationHandle<Id, Parts, Body>,
): Operation<Id, Parts> {
  const route = routeOf(operationId);
  const keyed = 'idempotencyKey' in route ? route.idempotencyKey : undefined;

  /** The request as the operation reads it: each part read once, the path's and the key's refusals in the order they always came. */
  function requestOf(event: HttpEvent<Body>, context: Context, signal: AbortSignal | undefined): OperationRequest<Id, Body> {
    const path = pathParametersOf(route.resource, event) as OperationRequest<Id, Body>['path'];
    const idempotencyKey = (
      keyed === 'required' ? idempotencyKeyFrom(event) : keyed === 'optional' ? optionalIdempotencyKeyFrom(event) : undefined
    ) as KeyOf<RouteOf<Id>>;
    return {
      event,
      context,
      path,
      query: (event.queryStringParameters ?? {}) as OperationRequest<Id, Body>['query'],
      body: event.body,
      idempotencyKey,
      author: changeAuthorFrom(event),
      deadline: requestDeadline(context, signal),
    };
  }

  return {
    operationId,
    route,
    parts: { ...definition.parts, limiter: planLimiterPart } as PartFactories<Parts & { limiter: PlanLimiter }>,
    handler(parts) {
      const { headers } = definition;
      const extra = headers ? [headersOnEveryAnswer(() => headers)] : [];
      const options = {
        route,
        ...(definition.sunsetAt ? { sunsetAt: definition.sunsetAt(parts) } : {}),
        ...(definition.body ? { body: definition.body } : {}),
      };
      if (route.counting === 'alongside') {
        // A read goes out with the counting write (plan-limits.ts, planLimitedRead): one round trip to the store, not two.
        const counted = planLimitedRead(parts.limiter, (event, context) =>
          handle(requestOf(event as HttpEvent<Body>, context, undefined), parts),
        );
        return httpHandler<Body>(
          { ...options, guards: [counted.guard, ...extra] },
          (event) => counted.result(event) as Promise<APIGatewayProxyResult>,
        ) as Handler<Id>;
      }
      const guards = [planLimits(parts.limiter), ...extra];
      if (route.streamed)
        return streamedHttpHandler(
          { ...options, guards } as never,
          (event, context) => handle(requestOf(event as HttpEvent<Body>, context, undefined), parts) as Promise<StreamedResult>,
        ) as Handler<Id>;
      return httpHandler<Body>(
        { ...options, guards },
        (event, context, signal) => handle(requestOf(event, context, signal), parts) as Promise<APIGatewayProxyResult>,
      ) as Handler<Id>;
    },
  };
}
