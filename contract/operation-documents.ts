import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorCode } from '../functions/domain/errors.ts';
import { IDEMPOTENCY_WINDOW_SECONDS } from '../functions/domain/idempotent-writes.ts';
import type { Deprecation } from '../functions/domain/lifecycle.ts';
import { TOOL_KEY_IDS } from '../functions/domain/change-attribution.ts';
import { feedCursorAfter } from '../functions/domain/change-feed.ts';
import { type InventoryAdjustmentBatch, PetId, type ReservationRequest } from '../functions/domain/schemas.ts';
import { unheld } from '../functions/domain/stock-writes.ts';
import {
  MAX_BATCH_CHANGES,
  MAX_HOLDS_PER_PET,
  MAX_QUANTITY,
  MAX_RESERVATION_ITEMS,
  RESERVATION_TTL_SECONDS,
} from '../functions/domain/vocabulary.ts';
import { MAX_IF_MATCH_TAGS } from '../functions/http/entity-tags.ts';
import { REPLAYED_HEADER } from '../functions/http/idempotent-answers.ts';
import { routeOf, type OperationId } from '../functions/routes.ts';
import { DEMO_INVENTORY } from './demo-inventory.ts';
import { adjustedEntry, bigPet, EXAMPLE_RESERVATION_ID, firstPet, type OperationExample, UNKNOWN_RESERVATION_ANSWER } from './examples.ts';
import type { answersOf, SignalHeader } from './openapi-answers.ts';

/**
 * What the OpenAPI document says of each operation beyond the registry's facts (functions/routes.ts:
 * path, method, parameters, the Idempotency-Key, body and answer schemas, the body's cap, stability,
 * deprecation, and the answers those decide, all put in by openapi-document.ts): its prose, the
 * other request headers it reads, its own answers with their error codes, and its worked example
 * (the call its curl line makes and the answer that prints). Keyed by OperationId, so an operation without
 * its document and its example does not compile. The summary carries no "(experimental)" or
 * "(deprecated)": the document adds them from the registry.
 */

export interface DocumentParts {
  /** The operation's answers, its signals and its answer schema and example bound (openapi-answers.ts). */
  answers: ReturnType<typeof answersOf>;
  /** A deprecated operation's dates as this copy states them (its stage's sunset). */
  deprecation: Deprecation | undefined;
}

export interface OperationDocument {
  tags: readonly ['Store'] | readonly ['Pets'];
  summary: string;
  description: string;
  /** Request headers the operation reads, beyond Authorization and the Idempotency-Key the registry says it takes. */
  headers?: z.ZodObject;
  /** Its answers but those the registry's facts decide (registryAnswers, openapi-document.ts: 401, 429, 500, 503, a body's 413 and 415). */
  responses: Record<number, ResponseConfig>;
}

export interface OperationDescription {
  /** Headers every answer of the function carries, beyond the rate-limit and lifecycle ones. */
  answerHeaders?: readonly SignalHeader[];
  describe(parts: DocumentParts): OperationDocument;
  /**
   * A call on the demo inventory `npm start` seeds, and what it prints: the document shows its
   * body as the request's example and its answer under its status, and makes its curl line.
   */
  example: OperationExample;
}

const invalidPetId = `petId is not a canonical integer from ${PetId.minValue} to ${PetId.maxValue} (no sign, leading zeros or exponent).`;

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

const TTL = `${RESERVATION_TTL_SECONDS.min} to ${RESERVATION_TTL_SECONDS.max} seconds, ${RESERVATION_TTL_SECONDS.default} by default`;

/** The 404 of an unknown reservation: the answer the reservation examples print (they name an id no server has). */
const unknownReservation = (answers: DocumentParts['answers']) =>
  answers.error(404, 'No reservation has this id.', [ErrorCode.reservationNotFound]);

/** The adjustment example's: an arrival for pet 4, which no README or guide call reads. */
const ADJUSTED_PET = 4n;
const ADJUSTMENT = { delta: 2, reason: 'arrival' } as const;
/** A delivery and a write-off in one batch, on pets no other example or README call reads. */
const BATCH: InventoryAdjustmentBatch = {
  adjustments: [
    { petId: 3n, delta: 4, reason: 'arrival' },
    { petId: 5n, delta: -2, reason: 'adjustment' },
  ],
};
/**
 * The reservation the example makes: one of pet 1 for a second, so that it holds nothing by the
 * time any other example or README call reads the pet. Its id and times are the call's own.
 */
const CART: ReservationRequest = { items: [{ petId: 1n, quantity: 1 }], ttlSeconds: 1, reference: 'cart-42' };

export const OPERATION_DESCRIPTIONS: Record<OperationId, OperationDescription> = {
  listInventory: {
    answerHeaders: ['Vary'],
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: 'List the stock level of every pet',
      description:
        'One entry per pet, sorted by petId, each pet once; with `lowStock=true`, the reorder report: only the pets whose available stock is below their low-stock threshold (`putLowStockThreshold`), sorted and streamed alike. The answer is streamed: the status and headers come first, then the array in chunks as the inventory is read, compressed when Accept-Encoding asks for br or gzip. A failure after the answer has begun cannot change its status: the transfer breaks off and the body ends without its closing bracket, so it is never a valid shorter array. Treat a broken transfer or a body that is not valid JSON as a failed call and retry it. A pet updated during the listing appears once, with its old or its new quantity.',
      responses: {
        200: answers.success('Every inventory entry, sorted by petId.', {
          optionalHeaders: ['Content-Encoding'],
        }),
        400: answers.error(400, '`lowStock` is neither `true` nor `false`.', [ErrorCode.invalidQuery]),
      },
    }),
    example: { path: '/inventory', answer: { status: 200, body: DEMO_INVENTORY.map(unheld) } },
  },
  getInventoryItem: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: 'Read the stock level of one pet',
      description:
        'The entry of one pet, read strongly consistent: it reflects every write answered before the read, so a compare-and-set built on it does not fail on a stale count.',
      responses: {
        200: answers.success('The entry, its version in ETag.', {
          tagged: true,
        }),
        400: answers.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        404: answers.error(404, 'No inventory entry exists for petId.', [ErrorCode.petNotFound]),
      },
    }),
    example: { path: `/inventory/${bigPet.petId}`, answer: { status: 200, body: bigPet } },
  },
  updateInventory: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: 'Set the stock count of one pet',
      description: [
        'Sets `quantity` of an existing entry and returns the entry; `status` is left as it is. Without `changeFromQuantity` the write is blind: the last writer wins. With it, the write is a compare-and-set against the count the client read (`getInventoryItem`), so a change made in between is never overwritten, even one that left the count at `quantity`. A compare-and-set retried without an `Idempotency-Key` after its answer was lost answers 409 (the count it read is gone): send a key to make the retry safe, or read the entry again before deciding.',
        `**Exactly once with an \`Idempotency-Key\`** (optional here): the same key from the same API key, for the same petId, body and If-Match, within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours, answers what the first request answered (200 with its ETag, 404, 409 or 412, with \`${REPLAYED_HEADER}: true\`) and writes nothing, so nothing more in the history either; the same key with another request, or one an adjustment used, answers 422. Concurrent duplicates write once, and each answers the same outcome. 429 and 5xx answers are not remembered: a retry runs afresh. The history record of a keyed update carries its \`idempotencyKey\`.`,
        '**Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.',
      ].join('\n\n'),
      headers: z.object({
        'If-Match': z
          .string()
          .optional()
          .meta({
            description: `The ETag of the entry as read (a quoted version such as \`"7"\`), a comma-separated list of at most ${MAX_IF_MATCH_TAGS} of them, or \`*\`: the write happens only while the entry is at one of those versions, else 412 and nothing is written. A weak tag never matches. A list sent on several lines is read as one list (RFC 9110); anything else, or a longer list, is 400 \`BAD_REQUEST\`, and nothing is written.`,
          }),
      }),
      responses: {
        200: answers.success('The entry with its new quantity, its version in ETag.', { tagged: true, mayReplay: true }),
        400: answers.error(
          400,
          `The body is not JSON, lacks \`quantity\` or holds an invalid value, Content-Type is sent more than once, an Idempotency-Key is sent but malformed, If-Match is malformed or names more than ${MAX_IF_MATCH_TAGS} entity tags, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.badRequest, ErrorCode.idempotencyKeyRequired, ErrorCode.invalidPetId],
        ),
        404: answers.error(404, 'No inventory entry exists for petId.', [ErrorCode.petNotFound], { mayReplay: true }),
        409: answers.error(
          409,
          '`changeFromQuantity` was given and the stored quantity is not it; the message states the stored quantity. Nothing was written.',
          [ErrorCode.quantityChanged],
          { mayReplay: true },
        ),
        412: answers.error(
          412,
          'If-Match was given and the entry is no longer at that version; the message states its version. Nothing was written.',
          [ErrorCode.preconditionFailed],
          { mayReplay: true },
        ),
        422: answers.error(
          422,
          'The Idempotency-Key was already used with another request (another pet, quantity, changeFromQuantity or If-Match, or an adjustment). Nothing was written.',
          [ErrorCode.idempotencyKeyReused],
        ),
      },
    }),
    // Sets the stock it already has, so running the example leaves the demo inventory as it was.
    example: {
      path: `/inventory/${bigPet.petId}`,
      body: { quantity: bigPet.quantity },
      answer: { status: 200, body: bigPet },
    },
  },
  adjustInventory: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: 'Change the stock of one pet by a delta, exactly once',
      description: [
        'Adds `delta` (negative to remove) to the stock of an existing entry and returns the entry; `status` is left as it is. Use it for arrivals, returns and corrections that are relative: concurrent adjustments of one pet never lose each other.',
        `**Exactly once**: the same \`Idempotency-Key\` from the same API key, for the same petId and body, within ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours, answers what the first request answered (200, 404 or 409, with \`${REPLAYED_HEADER}: true\`) and applies nothing; the same key with another request answers 422. Concurrent duplicates apply once, and each answers the same outcome. 429 and 5xx answers are not remembered: a retry runs afresh. A replay counts against the plan like any request.`,
        '**Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.',
      ].join('\n\n'),
      responses: {
        200: answers.success('The entry with its new quantity, its version in ETag.', { mayReplay: true, tagged: true }),
        400: answers.error(
          400,
          `The body is not JSON, lacks \`delta\` or \`reason\` or holds an invalid value, the Idempotency-Key header is missing or malformed, Idempotency-Key or Content-Type is sent more than once, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.idempotencyKeyRequired, ErrorCode.badRequest, ErrorCode.invalidPetId],
        ),
        404: answers.error(404, 'No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound], {
          mayReplay: true,
        }),
        409: answers.error(
          409,
          `The delta would take the stock below 0 or above ${MAX_QUANTITY}; the message states the stock. Nothing was written.`,
          [ErrorCode.insufficientStock, ErrorCode.quantityOutOfRange],
          { mayReplay: true },
        ),
        422: answers.error(
          422,
          'The Idempotency-Key was already used with another request (another pet, delta or reason). Nothing was written.',
          [ErrorCode.idempotencyKeyReused],
        ),
      },
    }),
    // A fixed Idempotency-Key: the first run applies the arrival, every later run replays the same answer.
    example: {
      path: `/inventory/${ADJUSTED_PET}/adjustments`,
      body: ADJUSTMENT,
      headers: { 'Idempotency-Key': '5b0f3b1e-4a8c-4c1f-9f6e-2d7a1c9e8b40' },
      answer: { status: 200, body: adjustedEntry(ADJUSTED_PET, ADJUSTMENT.delta) },
    },
  },
  adjustInventoryBatch: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: `Change the stock of up to ${MAX_BATCH_CHANGES} pets at once, all or none, exactly once`,
      description: [
        `Applies every adjustment of the list, or none: a delivery of fifty kinds of pet, or the corrections of a stock count, in one call. Each entry follows the rules of \`adjustInventory\` (\`delta\` non-zero, the stock kept within 0 and ${MAX_QUANTITY}); each pet appears at most once. The answer lists the entries as stored right after the change, in the order of the adjustments.`,
        `**At most ${MAX_BATCH_CHANGES}**: the batch is one DynamoDB transaction, which takes at most 100 actions: one per adjustment and one for the Idempotency-Key's record, written with them so that no crash or retry applies a batch twice or half.`,
        `**All or none**: when any pet has no entry, 404 names every such pet; otherwise when any adjustment would leave the stock's range, 409 names every pet at fault with its stock (\`${ErrorCode.insufficientStock}\` when any would go below 0, else \`${ErrorCode.quantityOutOfRange}\`). Nothing is written in either case.`,
        `**Exactly once**: as \`adjustInventory\`, per API key and \`Idempotency-Key\` for ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours. The same list (same pets, deltas, reasons and order) answers what the first request answered, with \`${REPLAYED_HEADER}: true\`; another list, or a key used for a single adjustment, answers 422.`,
        '**One request** against the plan, however many adjustments it holds: the plan limits calls, and a batch is one call of the function, one transaction and one answer.',
        '**Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.',
      ].join('\n\n'),
      responses: {
        200: answers.success('Every entry with its new quantity, in the order of the adjustments.', { mayReplay: true }),
        400: answers.error(
          400,
          `The body is not JSON or not a list of 1 to ${MAX_BATCH_CHANGES} adjustments, an entry lacks a field or holds an invalid value (the message names it by its index, as \`adjustments.3.delta\`), a pet appears twice, the Idempotency-Key header is missing or malformed, or Idempotency-Key or Content-Type is sent more than once. Nothing was written.`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.idempotencyKeyRequired, ErrorCode.badRequest],
        ),
        404: answers.error(
          404,
          'Some pets have no inventory entry; the message names every one. Nothing was written.',
          [ErrorCode.petNotFound],
          {
            mayReplay: true,
          },
        ),
        409: answers.error(
          409,
          `Some adjustments would take the stock below 0 or above ${MAX_QUANTITY}; the message names every pet at fault and its stock. Nothing was written.`,
          [ErrorCode.insufficientStock, ErrorCode.quantityOutOfRange],
          { mayReplay: true },
        ),
        422: answers.error(
          422,
          'The Idempotency-Key was already used with another request (other adjustments, another order, or a single adjustment). Nothing was written.',
          [ErrorCode.idempotencyKeyReused],
        ),
      },
    }),
    // A fixed Idempotency-Key, as above: every run after the first replays the first answer.
    example: {
      path: '/inventory/adjustments',
      body: BATCH,
      headers: { 'Idempotency-Key': '9d2c4f7a-1e3b-4a6d-8c5f-0b7e2a9d4c13' },
      answer: { status: 200, body: { items: BATCH.adjustments.map(({ petId, delta }) => adjustedEntry(petId, delta)) } },
    },
  },
  reserveInventory: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: 'Hold stock for a cart until it expires, all or none, exactly once',
      description: [
        `Holds each pet's \`quantity\` for the cart until \`expiresAt\` (\`ttlSeconds\`, ${TTL}, from the first request): it is counted in the pet's \`reserved\` and no longer \`available\` to any other reservation or removal. Commit it (\`commitReservation\`) to sell it, release it (\`releaseReservation\`) to give it back; otherwise it expires.`,
        `**All or none**: from 1 to ${MAX_RESERVATION_ITEMS} items, each pet once (one transaction of an Update per pet, the reservation's record and the Idempotency-Key's record). When any pet has no entry, 404 names every such pet; when any has less available than asked, 409 \`${ErrorCode.insufficientStock}\` names each and what it has. Nothing is held in either case.`,
        "**Exact at expiresAt**: from that moment the reservation holds nothing: reads, reservations, adjustments and commits see it gone, whether or not its expiry has been recorded yet (within a minute; each pet's history then shows an `expire` change).",
        `**Exactly once**: as \`adjustInventory\`, per API key and \`Idempotency-Key\` for ${IDEMPOTENCY_WINDOW_SECONDS / 3600} hours: the same cart answers the first answer (the same reservation), with \`${REPLAYED_HEADER}: true\`; another cart answers 422.`,
      ].join('\n\n'),
      responses: {
        201: answers.success('The reservation, active; Location names it.', { mayReplay: true }),
        400: answers.error(
          400,
          `The body is not JSON or not a cart of 1 to ${MAX_RESERVATION_ITEMS} items (the message names a bad field by its index, as \`items.3.quantity\`), a pet appears twice, ttlSeconds is outside ${TTL}, or the Idempotency-Key header is missing or malformed. Nothing was held.`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.idempotencyKeyRequired, ErrorCode.badRequest],
        ),
        404: answers.error(
          404,
          'Some pets have no inventory entry; the message names every one. Nothing was held.',
          [ErrorCode.petNotFound],
          {
            mayReplay: true,
          },
        ),
        409: answers.error(
          409,
          `Some pets have less available than asked (the message names each and what it has), or carry ${MAX_HOLDS_PER_PET} active holds already. Nothing was held.`,
          [ErrorCode.insufficientStock, ErrorCode.tooManyHolds],
          { mayReplay: true },
        ),
        422: answers.error(422, 'The Idempotency-Key was already used with another request. Nothing was held.', [
          ErrorCode.idempotencyKeyReused,
        ]),
      },
    }),
    // A fixed Idempotency-Key: every run after the first replays the first answer.
    example: {
      path: '/inventory/reservations',
      body: CART,
      headers: { 'Idempotency-Key': 'c4a1e6f2-8b3d-4f7a-9e1c-5d2b7a9f0e36' },
      answer: {
        status: 201,
        body: {
          reservationId: EXAMPLE_RESERVATION_ID,
          status: 'active',
          items: CART.items,
          expiresAt: '2026-11-24T07:27:04.456Z',
          reference: 'cart-42',
          createdAt: '2026-11-24T07:27:03.456Z',
          settledAt: null,
        },
      },
    },
  },
  getReservation: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: 'Read a reservation',
      description:
        'The reservation and its status: `active` while it holds stock, `committed`, `released`, or `expired` from its `expiresAt` on (whether or not its expiry has been recorded yet). The example names a reservation no server has: its answer is the 404 a stale id meets.',
      responses: {
        200: answers.success('The reservation.'),
        404: unknownReservation(answers),
      },
    }),
    example: { path: `/inventory/reservations/${EXAMPLE_RESERVATION_ID}`, answer: UNKNOWN_RESERVATION_ANSWER },
  },
  commitReservation: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "Sell a reservation's stock",
      description: [
        "The sale: in one transaction each pet's `quantity` and `reserved` go down by what the reservation holds, and it becomes `committed`. The answer is the reservation and the entries it left, in the order of its items.",
        '**Again**: committing a committed reservation answers the same, and takes nothing more: retry freely.',
        `**Refused**: past its \`expiresAt\` (409 \`${ErrorCode.reservationExpired}\`), released (409 \`${ErrorCode.reservationReleased}\`), or a pet whose count was set below what the reservation holds (409 \`${ErrorCode.insufficientStock}\`: the reservation stays active; set the count again, or release it). Nothing is written.`,
      ].join('\n\n'),
      responses: {
        200: answers.success('The committed reservation and the entries it left.'),
        404: unknownReservation(answers),
        409: answers.error(409, 'The reservation expired or was released, or a pet has less in stock than it holds. Nothing was written.', [
          ErrorCode.reservationExpired,
          ErrorCode.reservationReleased,
          ErrorCode.insufficientStock,
        ]),
      },
    }),
    example: { path: `/inventory/reservations/${EXAMPLE_RESERVATION_ID}/commit`, answer: UNKNOWN_RESERVATION_ANSWER },
  },
  releaseReservation: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "Give a reservation's stock back",
      description: [
        "Gives what the reservation holds back to each pet's `available`, and the reservation becomes `released`.",
        '**Again**: releasing a released reservation answers the same; releasing an expired one answers it as it is (`expired`): it holds nothing either way.',
        `**Refused**: a committed reservation (409 \`${ErrorCode.reservationCommitted}\`): its stock is sold.`,
      ].join('\n\n'),
      responses: {
        200: answers.success('The reservation, released.'),
        404: unknownReservation(answers),
        409: answers.error(409, 'The reservation was committed. Nothing was written.', [ErrorCode.reservationCommitted]),
      },
    }),
    example: { path: `/inventory/reservations/${EXAMPLE_RESERVATION_ID}`, answer: UNKNOWN_RESERVATION_ANSWER },
  },
  listInventoryChanges: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "List a pet's changes of stock",
      description: [
        "Every change of the pet's entry, oldest first: each write that changed it (a PATCH, an adjustment, the operators' import, the seed) is one entry, with consecutive versions. A request that changed nothing (a refusal, a replay, a PATCH to the quantity already stored) has none.",
        "An answered change is in its history within about a second (it is recorded from the table's change stream, after the answer). Entries are kept for the stage's retention (13 months by default): a history whose oldest entries expired starts at a later version.",
        "Page with `limit` and the opaque `nextCursor` of the previous page; the last page has `nextCursor: null`. **Experimental**: the answer's shape may change before the operation becomes stable.",
      ].join('\n\n'),
      responses: {
        200: answers.success("A page of the pet's history."),
        400: answers.error(
          400,
          `\`limit\` is not an integer from 1 to 1000, \`cursor\` is not one this operation returned for this pet (another pet's, or past the entry's version), or ${invalidPetId}`,
          [ErrorCode.invalidQuery, ErrorCode.invalidPetId],
        ),
        404: answers.error(404, 'No inventory entry exists for petId.', [ErrorCode.petNotFound]),
      },
    }),
    // The first change of the big pet: the seed's, which made it.
    example: {
      path: `/inventory/${bigPet.petId}/changes?limit=1`,
      answer: {
        status: 200,
        body: {
          changes: [
            {
              version: 1,
              occurredAt: '2026-11-24T06:30:00.123Z',
              kind: 'seed',
              quantityBefore: null,
              quantityAfter: bigPet.quantity,
              delta: bigPet.quantity,
              status: bigPet.status,
              reason: null,
              reservedBefore: 0,
              reservedAfter: 0,
              reservationId: null,
              reference: null,
              idempotencyKey: null,
              requestId: '0b6f2a51-7d0e-4a7e-9a43-5d1c8e2f9b10',
              keyId: TOOL_KEY_IDS.seed,
            },
          ],
          nextCursor: null,
        },
      },
    },
  },
  listInventoryChangeFeed: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "Follow every pet's changes of stock",
      description: [
        "Every change of every pet, in one order, for a system that catches up on what it missed (a till, a warehouse, a web shop): the entries of the pets' histories, each with its `petId`. Without `cursor` the feed starts at the oldest retained change (the history's retention, 13 months by default).",
        "Resume from the page's `nextCursor`, which is always a cursor: on an empty page it is the one sent, so a poller keeps asking from it for ever. **Nothing is missed, nothing repeated**: the feed numbers its entries in the same transaction that stores them, so no change can appear behind a cursor already handed out, however many pets change at once. An answered change is in the feed within about a second.",
        "**Experimental**: the answer's shape may change before the operation becomes stable. Every change is also pushed as the `inventory.changed` webhook (see `webhooks`).",
      ].join('\n\n'),
      responses: {
        200: answers.success("A page of the feed: the changes after the cursor, in the feed's order."),
        400: answers.error(
          400,
          '`limit` is not an integer from 1 to 1000, or `cursor` is not one this operation returned (one ahead of every change in the feed, for one).',
          [ErrorCode.invalidQuery],
        ),
      },
    }),
    // A poller's first page, from the oldest retained change: the seed's creation of a pet. The seed writes the demo
    // pets concurrently, so which pet's creation the feed numbers first varies from one start to the next.
    example: {
      path: '/inventory/changes?limit=1',
      answer: {
        status: 200,
        body: {
          changes: [
            {
              petId: firstPet.petId,
              version: 1,
              occurredAt: '2026-11-24T06:30:00.118Z',
              kind: 'seed',
              quantityBefore: null,
              quantityAfter: firstPet.quantity,
              delta: firstPet.quantity,
              status: firstPet.status,
              reason: null,
              reservedBefore: 0,
              reservedAfter: 0,
              reservationId: null,
              reference: null,
              idempotencyKey: null,
              requestId: '0b6f2a51-7d0e-4a7e-9a43-5d1c8e2f9b10',
              keyId: TOOL_KEY_IDS.seed,
            },
          ],
          nextCursor: feedCursorAfter(1),
        },
      },
    },
  },
  putLowStockThreshold: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "Set a pet's low-stock threshold",
      description:
        "A pet's low-stock threshold: below this many `available`, the pet is low on stock. An accepted change that crosses it raises the `inventory.low_stock` or `inventory.restocked` webhook (see `webhooks`); setting, reading or removing it changes no stock, no version and no history. Setting it again replaces it; a pet already below it raises no alert (alerts come from changes of stock) and is listed by `GET /inventory?lowStock=true`. **Experimental**: the shape may change before the operation becomes stable.",
      responses: {
        200: answers.success('The threshold as set.'),
        400: answers.error(
          400,
          `The body is not JSON, lacks \`threshold\` or holds a value that is not an integer from 0 to ${MAX_QUANTITY}, or ${invalidPetId}`,
          [ErrorCode.invalidBody, ErrorCode.malformedJson, ErrorCode.badRequest, ErrorCode.invalidPetId],
        ),
        404: answers.error(404, 'No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound]),
      },
    }),
    // Setting the same threshold again answers the same: running the example twice changes nothing.
    example: {
      path: `/inventory/${bigPet.petId}/low-stock-threshold`,
      body: { threshold: 5 },
      answer: { status: 200, body: { petId: bigPet.petId, threshold: 5 } },
    },
  },
  getLowStockThreshold: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "Read a pet's low-stock threshold",
      description: "The pet's low-stock threshold, read strongly consistent (see `putLowStockThreshold`). **Experimental**.",
      responses: {
        200: answers.success('The threshold.'),
        400: answers.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        404: answers.error(404, 'No inventory entry exists for petId, or it has no low-stock threshold.', [
          ErrorCode.petNotFound,
          ErrorCode.lowStockThresholdNotFound,
        ]),
      },
    }),
    example: {
      path: `/inventory/${bigPet.petId}/low-stock-threshold`,
      answer: { status: 200, body: { petId: bigPet.petId, threshold: 5 } },
    },
  },
  deleteLowStockThreshold: {
    describe: ({ answers }) => ({
      tags: ['Store'],
      summary: "Remove a pet's low-stock threshold",
      description:
        "Removes the pet's low-stock threshold (see `putLowStockThreshold`): no alert is raised for it after. Removing a threshold that is not set answers 204 too, so a retry is no error. **Experimental**.",
      responses: {
        204: answers.noContent('The pet has no threshold now.'),
        400: answers.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        404: answers.error(404, 'No inventory entry exists for petId. Nothing was written.', [ErrorCode.petNotFound]),
      },
    }),
    // Another pet's: removing a threshold that is not set answers 204 too, so the big pet's stays for the example above.
    example: { path: `/inventory/${firstPet.petId}/low-stock-threshold`, answer: { status: 204 } },
  },
  getPetById: {
    describe: ({ answers, deprecation = routeOf('getPetById').deprecation }) => ({
      tags: ['Pets'],
      summary: 'Find a pet by id',
      description: `Returns what the service knows of the pet: its id and status. **Deprecated** since ${isoDate(deprecation.deprecatedAt)}, **sunset ${isoDate(deprecation.sunsetAt)}**: every answer of the function carries \`Deprecation\`, \`Sunset\` and a \`Link\` to ${deprecation.documentation}; after the Sunset date the operation may stop answering. Read the inventory with \`listInventory\` instead.`,
      responses: {
        200: answers.success('The pet.'),
        400: answers.error(400, invalidPetId, [ErrorCode.invalidPetId]),
        404: answers.error(404, 'The inventory has no entry for petId.', [ErrorCode.petNotFound]),
      },
    }),
    example: { path: `/pets/${bigPet.petId}`, answer: { status: 200, body: { id: bigPet.petId, status: bigPet.status } } },
  },
};
