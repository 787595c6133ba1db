import type { APIGatewayProxyEvent } from 'aws-lambda';
import { UnauthorizedError, type ApiKeyRecord } from '../domain/api-keys.ts';
import type { ChangeAuthor } from '../domain/stock-writes.ts';
import { isPlanName, limitsFor, type PlanLimits, type PlanName } from '../domain/plans.ts';

/**
 * Who is calling, as the authorizer resolved it. API Gateway passes the authorizer's context
 * to the function, so handlers never look the key up again.
 */
export interface Caller {
  keyId: string;
  plan: PlanName;
  limits: PlanLimits;
}

export type AuthorizerContext = Record<'keyId' | 'plan', string> & Record<'perMinute' | 'perDay', number>;

export function authorizerContext(record: ApiKeyRecord): AuthorizerContext {
  const limits = limitsFor(record.plan, record.customLimits);
  return { keyId: record.keyId, plan: record.plan, perMinute: limits.perMinute, perDay: limits.perDay };
}

/** Each request's caller, read from its authorizer context once: the plan limits and the change's author both ask. */
const callers = new WeakMap<object, Caller>();

export function callerFrom(event: Pick<APIGatewayProxyEvent, 'requestContext'>): Caller {
  const known = callers.get(event);
  if (known) return known;
  const caller = readCaller(event);
  callers.set(event, caller);
  return caller;
}

function readCaller(event: Pick<APIGatewayProxyEvent, 'requestContext'>): Caller {
  const context = event.requestContext?.authorizer ?? {};
  const { keyId, plan } = context;
  const perMinute = Number(context.perMinute);
  const perDay = Number(context.perDay);
  // Behind the authorizer these are always set; without them the request was never authorized.
  if (typeof keyId !== 'string' || !isPlanName(plan) || !(perMinute > 0) || !(perDay > 0)) throw new UnauthorizedError();
  return { keyId, plan, limits: { perMinute, perDay } };
}

/** Who makes a change: the request's id (its X-Request-Id) and the caller's key id, as its history records them. */
export function changeAuthorFrom(event: Pick<APIGatewayProxyEvent, 'requestContext'>): ChangeAuthor {
  return { requestId: event.requestContext.requestId, keyId: callerFrom(event).keyId };
}
