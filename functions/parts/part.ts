import type { ServiceConfig } from '../config.ts';
import type { StoreClients } from './store-clients.ts';

/**
 * What a function is wired from, each built once: on Lambda once per cold start, under npm start
 * once per process for every operation alike. A part is a function of the store's clients and
 * the configuration; an operation names the parts it uses (http/operation.ts), so that its
 * bundle holds those parts' code and no other's. Parts are the only code that joins adapters to
 * the domain: handlers and operations import parts, never an adapter.
 */
export interface PartContext {
  stores: StoreClients;
  config: ServiceConfig;
}

export type Part<T> = (context: PartContext) => T;

/** The parts named, built from the context; `built` keeps each part's one instance, for a host that serves several operations. */
export function buildParts<Parts>(
  parts: { readonly [Name in keyof Parts]: Part<Parts[Name]> },
  context: PartContext,
  built: Map<Part<unknown>, unknown> = new Map(),
): Parts {
  return Object.fromEntries(
    Object.entries(parts as Record<string, Part<unknown>>).map(([name, part]) => {
      if (!built.has(part)) built.set(part, part(context));
      return [name, built.get(part)];
    }),
  ) as Parts;
}
