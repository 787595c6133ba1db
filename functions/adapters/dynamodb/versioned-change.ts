import type { ChangeAttribution, StoredChange } from '../../domain/change-attribution.ts';

/** The entry's version: 1 for its first write through versionedChange, +1 for each change after it. */
export const VERSION_ATTRIBUTE = 'version';
/** The change that made the current version, as stored (StoredChange). */
export const LAST_CHANGE_ATTRIBUTE = 'lastChange';

/** The parts of an UpdateItem input that versionedChange contributes. */
export interface VersionedChangeClauses {
  /** Clauses of a SET action, without the word SET: append them after a comma to the write's own. */
  set: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The one place a change's version and attribution are written. Every write that changes an
 * entry (an UpdateItem, or an Update action of a transaction) adds these clauses to its SET, so
 * the version moves with the change in the same atomic write: never a change without its
 * version, never two changes with one version. A Put would reset both, so no writer puts.
 * The placeholders start with `change` and `version`: a write must use none of its own so named.
 */
export function versionedChange(attribution: ChangeAttribution, occurredAt: Date = new Date()): VersionedChangeClauses {
  const lastChange: StoredChange = { ...attribution, occurredAt: occurredAt.toISOString() };
  return {
    set: '#version = if_not_exists(#version, :versionNone) + :versionStep, #changeLast = :changeLast',
    names: { '#version': VERSION_ATTRIBUTE, '#changeLast': LAST_CHANGE_ATTRIBUTE },
    values: { ':versionNone': 0, ':versionStep': 1, ':changeLast': lastChange },
  };
}
