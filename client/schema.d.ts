/**
 * Generated from openapi.json by `npm run openapi` (openapi-typescript). Do not edit.
 * int64 fields are bigint: the client parses them exactly (see client/int64-json.ts).
 */

export interface paths {
    "/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the stock level of every pet
         * @description One entry per pet, sorted by petId, each pet once; with `lowStock=true`, the reorder report: only the pets whose available stock is below their low-stock threshold (`putLowStockThreshold`), sorted and streamed alike. The answer is streamed: the status and headers come first, then the array in chunks as the inventory is read, compressed when Accept-Encoding asks for br or gzip. A failure after the answer has begun cannot change its status: the transfer breaks off and the body ends without its closing bracket, so it is never a valid shorter array. Treat a broken transfer or a body that is not valid JSON as a failed call and retry it. A pet updated during the listing appears once, with its old or its new quantity.
         */
        get: operations["listInventory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the stock level of one pet
         * @description The entry of one pet, read strongly consistent: it reflects every write answered before the read, so a compare-and-set built on it does not fail on a stale count.
         */
        get: operations["getInventoryItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the stock count of one pet (experimental)
         * @description Sets `quantity` of an existing entry and returns the entry; `status` is left as it is. Without `changeFromQuantity` the write is blind: the last writer wins. With it, the write is a compare-and-set against the count the client read (`getInventoryItem`), so a change made in between is never overwritten, even one that left the count at `quantity`. A compare-and-set retried without an `Idempotency-Key` after its answer was lost answers 409 (the count it read is gone): send a key to make the retry safe, or read the entry again before deciding.
         *
         *     **Exactly once with an `Idempotency-Key`** (optional here): the same key from the same API key, for the same petId, body and If-Match, within 24 hours, answers what the first request answered (200 with its ETag, 404, 409 or 412, with `Idempotent-Replayed: true`) and writes nothing, so nothing more in the history either; the same key with another request, or one an adjustment used, answers 422. Concurrent duplicates write once, and each answers the same outcome. 429 and 5xx answers are not remembered: a retry runs afresh. The history record of a keyed update carries its `idempotencyKey`.
         *
         *     **Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.
         */
        patch: operations["updateInventory"];
        trace?: never;
    };
    "/inventory/{petId}/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the stock of one pet by a delta, exactly once (experimental)
         * @description Adds `delta` (negative to remove) to the stock of an existing entry and returns the entry; `status` is left as it is. Use it for arrivals, returns and corrections that are relative: concurrent adjustments of one pet never lose each other.
         *
         *     **Exactly once**: the same `Idempotency-Key` from the same API key, for the same petId and body, within 24 hours, answers what the first request answered (200, 404 or 409, with `Idempotent-Replayed: true`) and applies nothing; the same key with another request answers 422. Concurrent duplicates apply once, and each answers the same outcome. 429 and 5xx answers are not remembered: a retry runs afresh. A replay counts against the plan like any request.
         *
         *     **Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.
         */
        post: operations["adjustInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the stock of up to 99 pets at once, all or none, exactly once (experimental)
         * @description Applies every adjustment of the list, or none: a delivery of fifty kinds of pet, or the corrections of a stock count, in one call. Each entry follows the rules of `adjustInventory` (`delta` non-zero, the stock kept within 0 and 2147483647); each pet appears at most once. The answer lists the entries as stored right after the change, in the order of the adjustments.
         *
         *     **At most 99**: the batch is one DynamoDB transaction, which takes at most 100 actions: one per adjustment and one for the Idempotency-Key's record, written with them so that no crash or retry applies a batch twice or half.
         *
         *     **All or none**: when any pet has no entry, 404 names every such pet; otherwise when any adjustment would leave the stock's range, 409 names every pet at fault with its stock (`INSUFFICIENT_STOCK` when any would go below 0, else `QUANTITY_OUT_OF_RANGE`). Nothing is written in either case.
         *
         *     **Exactly once**: as `adjustInventory`, per API key and `Idempotency-Key` for 24 hours. The same list (same pets, deltas, reasons and order) answers what the first request answered, with `Idempotent-Replayed: true`; another list, or a key used for a single adjustment, answers 422.
         *
         *     **One request** against the plan, however many adjustments it holds: the plan limits calls, and a batch is one call of the function, one transaction and one answer.
         *
         *     **Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`.
         */
        post: operations["adjustInventoryBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/{petId}/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a pet's changes of stock (experimental)
         * @description Every change of the pet's entry, oldest first: each write that changed it (a PATCH, an adjustment, the operators' import, the seed) is one entry, with consecutive versions. A request that changed nothing (a refusal, a replay, a PATCH to the quantity already stored) has none.
         *
         *     An answered change is in its history within about a second (it is recorded from the table's change stream, after the answer). Entries are kept for the stage's retention (13 months by default): a history whose oldest entries expired starts at a later version.
         *
         *     Page with `limit` and the opaque `nextCursor` of the previous page; the last page has `nextCursor: null`. **Experimental**: the answer's shape may change before the operation becomes stable.
         */
        get: operations["listInventoryChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow every pet's changes of stock (experimental)
         * @description Every change of every pet, in one order, for a system that catches up on what it missed (a till, a warehouse, a web shop): the entries of the pets' histories, each with its `petId`. Without `cursor` the feed starts at the oldest retained change (the history's retention, 13 months by default).
         *
         *     Resume from the page's `nextCursor`, which is always a cursor: on an empty page it is the one sent, so a poller keeps asking from it for ever. **Nothing is missed, nothing repeated**: the feed numbers its entries in the same transaction that stores them, so no change can appear behind a cursor already handed out, however many pets change at once. An answered change is in the feed within about a second.
         *
         *     **Experimental**: the answer's shape may change before the operation becomes stable. Every change is also pushed as the `inventory.changed` webhook (see `webhooks`).
         */
        get: operations["listInventoryChangeFeed"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/{petId}/low-stock-threshold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a pet's low-stock threshold (experimental)
         * @description The pet's low-stock threshold, read strongly consistent (see `putLowStockThreshold`). **Experimental**.
         */
        get: operations["getLowStockThreshold"];
        /**
         * Set a pet's low-stock threshold (experimental)
         * @description A pet's low-stock threshold: below this many `available`, the pet is low on stock. An accepted change that crosses it raises the `inventory.low_stock` or `inventory.restocked` webhook (see `webhooks`); setting, reading or removing it changes no stock, no version and no history. Setting it again replaces it; a pet already below it raises no alert (alerts come from changes of stock) and is listed by `GET /inventory?lowStock=true`. **Experimental**: the shape may change before the operation becomes stable.
         */
        put: operations["putLowStockThreshold"];
        post?: never;
        /**
         * Remove a pet's low-stock threshold (experimental)
         * @description Removes the pet's low-stock threshold (see `putLowStockThreshold`): no alert is raised for it after. Removing a threshold that is not set answers 204 too, so a retry is no error. **Experimental**.
         */
        delete: operations["deleteLowStockThreshold"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a pet by id (deprecated)
         * @deprecated
         * @description Returns what the service knows of the pet: its id and status. **Deprecated** since 2026-01-01, **sunset 2027-07-01**: every answer of the function carries `Deprecation`, `Sunset` and a `Link` to https://docs.petstore.example/v1/deprecations#get-pet-by-id; after the Sunset date the operation may stop answering. Read the inventory with `listInventory` instead.
         */
        get: operations["getPetById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/reservations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hold stock for a cart until it expires, all or none, exactly once (experimental)
         * @description Holds each pet's `quantity` for the cart until `expiresAt` (`ttlSeconds`, 1 to 604800 seconds, 900 by default, from the first request): it is counted in the pet's `reserved` and no longer `available` to any other reservation or removal. Commit it (`commitReservation`) to sell it, release it (`releaseReservation`) to give it back; otherwise it expires.
         *
         *     **All or none**: from 1 to 98 items, each pet once (one transaction of an Update per pet, the reservation's record and the Idempotency-Key's record). When any pet has no entry, 404 names every such pet; when any has less available than asked, 409 `INSUFFICIENT_STOCK` names each and what it has. Nothing is held in either case.
         *
         *     **Exact at expiresAt**: from that moment the reservation holds nothing: reads, reservations, adjustments and commits see it gone, whether or not its expiry has been recorded yet (within a minute; each pet's history then shows an `expire` change).
         *
         *     **Exactly once**: as `adjustInventory`, per API key and `Idempotency-Key` for 24 hours: the same cart answers the first answer (the same reservation), with `Idempotent-Replayed: true`; another cart answers 422.
         */
        post: operations["reserveInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/reservations/{reservationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a reservation (experimental)
         * @description The reservation and its status: `active` while it holds stock, `committed`, `released`, or `expired` from its `expiresAt` on (whether or not its expiry has been recorded yet). The example names a reservation no server has: its answer is the 404 a stale id meets.
         */
        get: operations["getReservation"];
        put?: never;
        post?: never;
        /**
         * Give a reservation's stock back (experimental)
         * @description Gives what the reservation holds back to each pet's `available`, and the reservation becomes `released`.
         *
         *     **Again**: releasing a released reservation answers the same; releasing an expired one answers it as it is (`expired`): it holds nothing either way.
         *
         *     **Refused**: a committed reservation (409 `RESERVATION_COMMITTED`): its stock is sold.
         */
        delete: operations["releaseReservation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/reservations/{reservationId}/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sell a reservation's stock (experimental)
         * @description The sale: in one transaction each pet's `quantity` and `reserved` go down by what the reservation holds, and it becomes `committed`. The answer is the reservation and the entries it left, in the order of its items.
         *
         *     **Again**: committing a committed reservation answers the same, and takes nothing more: retry freely.
         *
         *     **Refused**: past its `expiresAt` (409 `RESERVATION_EXPIRED`), released (409 `RESERVATION_RELEASED`), or a pet whose count was set below what the reservation holds (409 `INSUFFICIENT_STOCK`: the reservation stays active; set the count again, or release it). Nothing is written.
         */
        post: operations["commitReservation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "inventory.changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A change of stock, pushed to your endpoint (experimental)
         * @description Every change recorded in a pet's history is POSTed as JSON to each webhook URL of the server (`WEBHOOK_URL` of `npm start`; the stage's `webhookUrls` on AWS) that takes `inventory.changed`, signed with its secret. A URL takes every event type unless it is followed by the types it wants, separated by spaces (`https://erp.example/reorder inventory.low_stock inventory.restocked`).
         *
         *     **At least once**: any answer but 2xx, a refused connection or no answer within 10 s is retried after 1 s, doubling, at most 120 s apart, for 24 hours; then the delivery is dead-lettered, kept for an operator to send again. Redirects are not followed. Deduplicate by `webhook-id` (or by `petId` and `version`).
         *
         *     **In order per pet**: a pet's events reach each endpoint in version order, an alert right after its change; a redriven dead letter arrives after the later versions, so keep the highest version seen.
         *
         *     **Verify before trusting**: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `webhook-id`, `.`, `webhook-timestamp`, `.` and the raw body, under the secret (its base64 part after `whsec_`, decoded). Refuse a timestamp more than five minutes from your clock.
         */
        post: operations["inventoryChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "inventory.low_stock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A pet's available stock fell below its low-stock threshold (experimental)
         * @description POSTed when an accepted change takes the pet's `available` stock from at least its threshold (`putLowStockThreshold`) to below it: once per crossing, never once per change below it; changes made at once that cross once raise one. Setting a threshold is no change and raises none: `GET /inventory?lowStock=true` lists the pets below theirs.
         *
         *     `data.version` is the change that crossed: its `inventory.changed` comes first, and it is in the pet's history. Delivered, signed and retried as `inventory.changed` is (see it).
         */
        post: operations["inventoryLowStock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "inventory.restocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A pet's available stock is back at its low-stock threshold or above (experimental)
         * @description POSTed when an accepted change takes the pet's `available` stock from below its threshold back to at least it: once per crossing.
         *
         *     `data.version` is the change that crossed: its `inventory.changed` comes first, and it is in the pet's history. Delivered, signed and retried as `inventory.changed` is (see it).
         */
        post: operations["inventoryRestocked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description The body of an `inventory.changed` webhook, shaped as the Standard Webhooks specification has it: `timestamp` is the change's `occurredAt`, so every attempt sends the same bytes. */
        InventoryChangedEvent: {
            /** @enum {string} */
            type: "inventory.changed";
            /** Format: date-time */
            timestamp: string;
            data: components["schemas"]["ChangeEventData"];
        };
        /** @description A change of one pet with its petId: a record of the change feed, the `data` of an `inventory.changed` webhook and the `detail` of its EventBridge event on AWS, all alike. `(petId, version)` names it: deduplicate by it. */
        ChangeEventData: {
            petId: components["schemas"]["PetId"];
            version: number;
            /** Format: date-time */
            occurredAt: string;
            /** @enum {string} */
            kind: "set" | "compareAndSet" | "adjustment" | "import" | "seed" | "reserve" | "commit" | "release" | "expire";
            quantityBefore: number | null;
            quantityAfter: components["schemas"]["Quantity"];
            delta: number;
            status: components["schemas"]["PetStatus"];
            /** @enum {string|null} */
            reason: "arrival" | "return" | "adjustment" | null;
            reservedBefore: number;
            reservedAfter: number;
            reservationId: string | null;
            reference: string | null;
            idempotencyKey: string | null;
            requestId: string;
            keyId: string;
        };
        /**
         * Format: int64
         * @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does.
         * @example 1
         */
        PetId: bigint;
        /**
         * Format: int32
         * @description Stock count, from 0 to 2147483647.
         */
        Quantity: number;
        /**
         * @description Status of the pet.
         * @enum {string}
         */
        PetStatus: "available" | "pending" | "sold";
        /** @description The body of an `inventory.low_stock` webhook: `timestamp` is the crossing change's `occurredAt`. */
        InventoryLowStockEvent: {
            /** @enum {string} */
            type: "inventory.low_stock";
            /** Format: date-time */
            timestamp: string;
            data: components["schemas"]["StockAlertData"];
        };
        /** @description What a low-stock alert says: the pet, its threshold, the stock the crossing change left (`available` is what can be promised: the quantity less what is reserved), and that change's `version`, which is in the pet's history. The `detail` of the alert's EventBridge event on AWS too. */
        StockAlertData: {
            petId: components["schemas"]["PetId"];
            threshold: components["schemas"]["Quantity"];
            available: components["schemas"]["Quantity"];
            quantity: components["schemas"]["Quantity"];
            reserved: components["schemas"]["Quantity"];
            version: number;
        };
        /** @description The body of an `inventory.restocked` webhook: `timestamp` is the crossing change's `occurredAt`. */
        InventoryRestockedEvent: {
            /** @enum {string} */
            type: "inventory.restocked";
            /** Format: date-time */
            timestamp: string;
            data: components["schemas"]["StockAlertData"];
        };
        /** @description The stock level of one pet: `quantity` on hand, `reserved` by reservations that have not expired (read at the moment of the answer), and `available` to promise (`quantity - reserved`, never below 0: a count set below what is reserved answers 0). */
        InventoryItem: {
            petId: components["schemas"]["PetId"];
            quantity: components["schemas"]["Quantity"];
            status: components["schemas"]["PetStatus"];
            reserved: components["schemas"]["Quantity"];
            available: components["schemas"]["Quantity"];
        };
        /** @description Every error answer. `code` is stable and machine-readable (each response lists the codes it can carry; new codes may be added); `status` repeats the HTTP status. */
        Error: {
            code: string;
            message: string;
            status: number;
        };
        /** @description The new stock count: an absolute value, not a change, so sending it twice has the effect of sending it once. With `changeFromQuantity` it is a compare-and-set: written only while the stored count is `changeFromQuantity`, otherwise 409 `QUANTITY_CHANGED` and nothing is written. */
        InventoryUpdate: {
            quantity: components["schemas"]["Quantity"];
            changeFromQuantity?: components["schemas"]["Quantity"];
        };
        /** @description A relative change of stock, applied exactly once per Idempotency-Key: the stock can neither go below 0 nor above the largest quantity. */
        InventoryAdjustment: {
            delta: components["schemas"]["Delta"];
            reason: components["schemas"]["AdjustmentReason"];
        };
        /** @description The change of stock, positive or negative, never 0, from -2147483647 to 2147483647. */
        Delta: number;
        /**
         * @description Why the stock changes: a new arrival, a return, or a manual correction.
         * @enum {string}
         */
        AdjustmentReason: "arrival" | "return" | "adjustment";
        /** @description The entries a batch changed, as stored right after it, in the order of its adjustments. */
        AdjustedInventoryItems: {
            items: components["schemas"]["InventoryItem"][];
        };
        /** @description From 1 to 99 adjustments, each pet at most once, applied all or none. */
        InventoryAdjustmentBatch: {
            adjustments: components["schemas"]["PetAdjustment"][];
        };
        /** @description One adjustment of a batch: a relative change of one pet's stock, with the same rules as a single adjustment. */
        PetAdjustment: {
            petId: components["schemas"]["PetId"];
            delta: components["schemas"]["Delta"];
            reason: components["schemas"]["AdjustmentReason"];
        };
        /** @description A page of a pet's history, oldest first; `nextCursor` is null on the last page. */
        ChangesPage: {
            changes: components["schemas"]["InventoryChange"][];
            nextCursor: string | null;
        };
        /** @description One change of a pet's entry: its version (1 for the change that created the entry, then +1 per change), when, by which writer (`kind`), the quantity before and after, why (`reason`, `idempotencyKey` of adjustments), the request (`requestId`, its X-Request-Id) and who (`keyId`, the public id of the API key, or `tool:<name>` for the operators' tools). */
        InventoryChange: {
            version: number;
            /** Format: date-time */
            occurredAt: string;
            /** @enum {string} */
            kind: "set" | "compareAndSet" | "adjustment" | "import" | "seed" | "reserve" | "commit" | "release" | "expire";
            quantityBefore: number | null;
            quantityAfter: components["schemas"]["Quantity"];
            delta: number;
            status: components["schemas"]["PetStatus"];
            /** @enum {string|null} */
            reason: "arrival" | "return" | "adjustment" | null;
            reservedBefore: number;
            reservedAfter: number;
            reservationId: string | null;
            reference: string | null;
            idempotencyKey: string | null;
            requestId: string;
            keyId: string;
        };
        /** @description A page of the change feed, in the feed's one order; `nextCursor` is always a cursor (on an empty page, the one sent), so a poller resumes from it for ever. */
        ChangeFeedPage: {
            changes: components["schemas"]["ChangeEventData"][];
            nextCursor: string;
        };
        /** @description A pet's low-stock threshold, as set. */
        LowStockThreshold: {
            petId: components["schemas"]["PetId"];
            threshold: components["schemas"]["Quantity"];
        };
        /** @description A pet's low-stock threshold: an integer from 0 to 2147483647; below this many available, the pet is low on stock. */
        LowStockThresholdUpdate: {
            threshold: components["schemas"]["Quantity"];
        };
        /** @description What this service knows of a pet: its id and status, taken from the inventory (the Petstore Pet's other fields are not held here). */
        Pet: {
            id: components["schemas"]["PetId"];
            status: components["schemas"]["PetStatus"];
        };
        /** @description Stock held for a cart until `expiresAt`, and what became of it. */
        Reservation: {
            reservationId: string;
            /** @enum {string} */
            status: "active" | "committed" | "released" | "expired";
            items: {
                petId: components["schemas"]["PetId"];
                quantity: number;
            }[];
            /** Format: date-time */
            expiresAt: string;
            reference: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            settledAt: string | null;
        };
        /** @description A cart: from 1 to 98 items, each pet once, held all or none until ttlSeconds have passed; `reference` is yours (an order or cart id), kept and shown in each pet's history. */
        ReservationRequest: {
            items: {
                petId: components["schemas"]["PetId"];
                quantity: number;
            }[];
            ttlSeconds?: number;
            reference?: string;
        };
        /** @description A committed reservation and the entries it left. */
        CommittedReservation: {
            reservation: components["schemas"]["Reservation"];
            items: components["schemas"]["InventoryItem"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request's id, on every answer (API Gateway's own answers too): quote it when reporting a failed call; it finds the request in the service's access and function logs. */
        "X-Request-Id": string;
        /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). */
        "X-RateLimit-Limit": number;
        /** @description Requests left in that window. */
        "X-RateLimit-Remaining": number;
        /** @description Unix time (seconds) at which that window resets. */
        "X-RateLimit-Reset": number;
        /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. */
        "RateLimit-Policy": string;
        /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. */
        RateLimit: string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). */
        "X-API-Stability": "experimental";
        /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). */
        Deprecation: string;
        /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; here Thu, 01 Jul 2027 00:00:00 GMT. */
        Sunset: string;
        /** @description Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset"). */
        Link: string;
        /** @description Present when the answer repeats the outcome of an earlier request with the same Idempotency-Key: nothing was applied this time. */
        "Idempotent-Replayed": "true";
        /** @description The entry's version, as a strong entity tag: the number of changes in its history (its last history record's `version`). Send it in If-Match to update only that version. */
        ETag: string;
        /** @description The answer depends on Accept-Encoding (it is compressed when the client accepts it). */
        Vary: "Accept-Encoding";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listInventory: {
        parameters: {
            query?: {
                /** @description `true`: the reorder report, only the pets whose available stock is below their low-stock threshold. `false` or absent: every pet. */
                lowStock?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every inventory entry, sorted by petId. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Vary: components["headers"]["Vary"];
                    /** @description The coding of the body, chosen from the request's Accept-Encoding (br or gzip); absent when the body is not compressed. */
                    "Content-Encoding"?: "br" | "gzip";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"][];
                };
            };
            /** @description `lowStock` is neither `true` nor `false`. Codes: `INVALID_QUERY`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The answer depends on Accept-Encoding (it is compressed when the client accepts it). Absent when API Gateway answered without reaching the function. */
                    Vary?: "Accept-Encoding";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The answer depends on Accept-Encoding (it is compressed when the client accepts it). Absent when API Gateway answered without reaching the function. */
                    Vary?: "Accept-Encoding";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The answer depends on Accept-Encoding (it is compressed when the client accepts it). Absent when API Gateway answered without reaching the function. */
                    Vary?: "Accept-Encoding";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInventoryItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry, its version in ETag. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateInventory: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the entry as read (a quoted version such as `"7"`), a comma-separated list of at most 100 of them, or `*`: the write happens only while the entry is at one of those versions, else 412 and nothing is written. A weak tag never matches. A list sent on several lines is read as one list (RFC 9110); anything else, or a longer list, is 400 `BAD_REQUEST`, and nothing is written. */
                "If-Match"?: string;
                /** @description 1 to 255 visible ASCII characters, unique per change (a UUID), sent again on every retry of it. Remembered for 24 hours per API key. Bare (`8e03978e-40d5-43e8-bc93-6894a57f9324`) or as draft-ietf-httpapi-idempotency-key-header-07 writes it, a structured-field string (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, `"` and `\` escaped with a backslash): both forms name the same key, so a retry in the other form replays. */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        /** @description A JSON object of at most 4096 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryUpdate"];
            };
        };
        responses: {
            /** @description The entry with its new quantity, its version in ETag. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description The body is not JSON, lacks `quantity` or holds an invalid value, Content-Type is sent more than once, an Idempotency-Key is sent but malformed, If-Match is malformed or names more than 100 entity tags, or petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_BODY`, `MALFORMED_JSON`, `BAD_REQUEST`, `IDEMPOTENCY_KEY_REQUIRED`, `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `changeFromQuantity` was given and the stored quantity is not it; the message states the stored quantity. Nothing was written. Codes: `QUANTITY_CHANGED`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description If-Match was given and the entry is no longer at that version; the message states its version. Nothing was written. Codes: `PRECONDITION_FAILED`. */
            412: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes. Codes: `PAYLOAD_TOO_LARGE`. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as Content-Type: application/json. Codes: `UNSUPPORTED_MEDIA_TYPE`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was already used with another request (another pet, quantity, changeFromQuantity or If-Match, or an adjustment). Nothing was written. Codes: `IDEMPOTENCY_KEY_REUSED`. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adjustInventory: {
        parameters: {
            query?: never;
            header: {
                /** @description 1 to 255 visible ASCII characters, unique per change (a UUID), sent again on every retry of it. Remembered for 24 hours per API key. Bare (`8e03978e-40d5-43e8-bc93-6894a57f9324`) or as draft-ietf-httpapi-idempotency-key-header-07 writes it, a structured-field string (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, `"` and `\` escaped with a backslash): both forms name the same key, so a retry in the other form replays. */
                "Idempotency-Key": string;
            };
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        /** @description A JSON object of at most 4096 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryAdjustment"];
            };
        };
        responses: {
            /** @description The entry with its new quantity, its version in ETag. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description The body is not JSON, lacks `delta` or `reason` or holds an invalid value, the Idempotency-Key header is missing or malformed, Idempotency-Key or Content-Type is sent more than once, or petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_BODY`, `MALFORMED_JSON`, `IDEMPOTENCY_KEY_REQUIRED`, `BAD_REQUEST`, `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Nothing was written. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The delta would take the stock below 0 or above 2147483647; the message states the stock. Nothing was written. Codes: `INSUFFICIENT_STOCK`, `QUANTITY_OUT_OF_RANGE`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes. Codes: `PAYLOAD_TOO_LARGE`. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as Content-Type: application/json. Codes: `UNSUPPORTED_MEDIA_TYPE`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was already used with another request (another pet, delta or reason). Nothing was written. Codes: `IDEMPOTENCY_KEY_REUSED`. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adjustInventoryBatch: {
        parameters: {
            query?: never;
            header: {
                /** @description 1 to 255 visible ASCII characters, unique per change (a UUID), sent again on every retry of it. Remembered for 24 hours per API key. Bare (`8e03978e-40d5-43e8-bc93-6894a57f9324`) or as draft-ietf-httpapi-idempotency-key-header-07 writes it, a structured-field string (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, `"` and `\` escaped with a backslash): both forms name the same key, so a retry in the other form replays. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object of at most 16384 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryAdjustmentBatch"];
            };
        };
        responses: {
            /** @description Every entry with its new quantity, in the order of the adjustments. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdjustedInventoryItems"];
                };
            };
            /** @description The body is not JSON or not a list of 1 to 99 adjustments, an entry lacks a field or holds an invalid value (the message names it by its index, as `adjustments.3.delta`), a pet appears twice, the Idempotency-Key header is missing or malformed, or Idempotency-Key or Content-Type is sent more than once. Nothing was written. Codes: `INVALID_BODY`, `MALFORMED_JSON`, `IDEMPOTENCY_KEY_REQUIRED`, `BAD_REQUEST`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Some pets have no inventory entry; the message names every one. Nothing was written. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Some adjustments would take the stock below 0 or above 2147483647; the message names every pet at fault and its stock. Nothing was written. Codes: `INSUFFICIENT_STOCK`, `QUANTITY_OUT_OF_RANGE`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes. Codes: `PAYLOAD_TOO_LARGE`. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as Content-Type: application/json. Codes: `UNSUPPORTED_MEDIA_TYPE`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was already used with another request (other adjustments, another order, or a single adjustment). Nothing was written. Codes: `IDEMPOTENCY_KEY_REUSED`. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInventoryChanges: {
        parameters: {
            query?: {
                /** @description Entries per page, from 1 to 1000; 100 by default. */
                limit?: number;
                /** @description The `nextCursor` of the previous page of this pet's history, as it was returned. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the pet's history. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangesPage"];
                };
            };
            /** @description `limit` is not an integer from 1 to 1000, `cursor` is not one this operation returned for this pet (another pet's, or past the entry's version), or petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_QUERY`, `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInventoryChangeFeed: {
        parameters: {
            query?: {
                /** @description Entries per page, from 1 to 1000; 100 by default. */
                limit?: number;
                /** @description The `nextCursor` of a page, as it was returned; without it, the oldest retained change. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the feed: the changes after the cursor, in the feed's order. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeFeedPage"];
                };
            };
            /** @description `limit` is not an integer from 1 to 1000, or `cursor` is not one this operation returned (one ahead of every change in the feed, for one). Codes: `INVALID_QUERY`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLowStockThreshold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The threshold. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LowStockThreshold"];
                };
            };
            /** @description petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId, or it has no low-stock threshold. Codes: `PET_NOT_FOUND`, `LOW_STOCK_THRESHOLD_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putLowStockThreshold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        /** @description A JSON object of at most 4096 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["LowStockThresholdUpdate"];
            };
        };
        responses: {
            /** @description The threshold as set. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LowStockThreshold"];
                };
            };
            /** @description The body is not JSON, lacks `threshold` or holds a value that is not an integer from 0 to 2147483647, or petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_BODY`, `MALFORMED_JSON`, `BAD_REQUEST`, `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Nothing was written. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 4096 bytes. Codes: `PAYLOAD_TOO_LARGE`. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as Content-Type: application/json. Codes: `UNSUPPORTED_MEDIA_TYPE`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteLowStockThreshold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet has no threshold now. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Nothing was written. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPetById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of a pet: an int64 from 1 to 9223372036854775807. Ids above 2^53 (such as 9007199254740993) do not fit a double: parse them as big integers, as the typed client does. */
                petId: components["schemas"]["PetId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The inventory has no entry for petId. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). Absent when API Gateway answered without reaching the function. */
                    Deprecation?: string;
                    /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; here Thu, 01 Jul 2027 00:00:00 GMT. Absent when API Gateway answered without reaching the function. */
                    Sunset?: string;
                    /** @description Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset"). Absent when API Gateway answered without reaching the function. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). Absent when API Gateway answered without reaching the function. */
                    Deprecation?: string;
                    /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; here Thu, 01 Jul 2027 00:00:00 GMT. Absent when API Gateway answered without reaching the function. */
                    Sunset?: string;
                    /** @description Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset"). Absent when API Gateway answered without reaching the function. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). Absent when API Gateway answered without reaching the function. */
                    Deprecation?: string;
                    /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; here Thu, 01 Jul 2027 00:00:00 GMT. Absent when API Gateway answered without reaching the function. */
                    Sunset?: string;
                    /** @description Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset"). Absent when API Gateway answered without reaching the function. */
                    Link?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reserveInventory: {
        parameters: {
            query?: never;
            header: {
                /** @description 1 to 255 visible ASCII characters, unique per change (a UUID), sent again on every retry of it. Remembered for 24 hours per API key. Bare (`8e03978e-40d5-43e8-bc93-6894a57f9324`) or as draft-ietf-httpapi-idempotency-key-header-07 writes it, a structured-field string (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, `"` and `\` escaped with a backslash): both forms name the same key, so a retry in the other form replays. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object of at most 16384 bytes. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReservationRequest"];
            };
        };
        responses: {
            /** @description The reservation, active; Location names it. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reservation"];
                };
            };
            /** @description The body is not JSON or not a cart of 1 to 98 items (the message names a bad field by its index, as `items.3.quantity`), a pet appears twice, ttlSeconds is outside 1 to 604800 seconds, 900 by default, or the Idempotency-Key header is missing or malformed. Nothing was held. Codes: `INVALID_BODY`, `MALFORMED_JSON`, `IDEMPOTENCY_KEY_REQUIRED`, `BAD_REQUEST`. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Some pets have no inventory entry; the message names every one. Nothing was held. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Some pets have less available than asked (the message names each and what it has), or carry 1000 active holds already. Nothing was held. Codes: `INSUFFICIENT_STOCK`, `TOO_MANY_HOLDS`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than 16384 bytes. Codes: `PAYLOAD_TOO_LARGE`. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as Content-Type: application/json. Codes: `UNSUPPORTED_MEDIA_TYPE`. */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was already used with another request. Nothing was held. Codes: `IDEMPOTENCY_KEY_REUSED`. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id `reserveInventory` answered. */
                reservationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reservation. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reservation"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No reservation has this id. Codes: `RESERVATION_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    releaseReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id `reserveInventory` answered. */
                reservationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reservation, released. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reservation"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No reservation has this id. Codes: `RESERVATION_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The reservation was committed. Nothing was written. Codes: `RESERVATION_COMMITTED`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    commitReservation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id `reserveInventory` answered. */
                reservationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The committed reservation and the entries it left. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommittedReservation"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked, or the source address has no failed authentications left this minute (X-RateLimit-Remaining 0; no key is looked up until the minute ends). Answered before the key is known: the X-RateLimit-* headers describe the source address's window of failed authentications and the operation's signals are absent. Every such request, one without Authorization included, is answered by the authorizer and counted in the window. A key revoked less than a minute ago may be refused after the authorizer let it through, by the counting write: its X-RateLimit-* are then the key's own windows. Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Failed authentications the source address may make per minute (the address's window). */
                    "X-RateLimit-Limit": number;
                    /** @description Failed authentications left to the address in this minute. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) at which the minute ends. */
                    "X-RateLimit-Reset": number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `"failed-authentications"`, `q` failed authentications a minute, `w=60`. */
                    "RateLimit-Policy": string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the address's window, `r` as X-RateLimit-Remaining, `t` the seconds until the minute ends (absent where X-RateLimit-Reset is). */
                    RateLimit: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No reservation has this id. Codes: `RESERVATION_NOT_FOUND`. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The reservation expired or was released, or a pet has less in stock than it holds. Nothing was written. Codes: `RESERVATION_EXPIRED`, `RESERVATION_RELEASED`, `INSUFFICIENT_STOCK`. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The data store or the authorizer is temporarily unavailable. Retry after Retry-After. Codes: `SERVICE_UNAVAILABLE`. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the key's plan as a structured-field List, one item per window: its name (`"minute"`, `"day"`), `q` the requests it allows, `w` its length in seconds. The same on every answer to the key. Absent when API Gateway answered without reaching the function. */
                    "RateLimit-Policy"?: string;
                    /** @description draft-ietf-httpapi-ratelimit-headers-10: the state of each window of RateLimit-Policy: `r` the requests left, `t` the seconds until it resets. For the window X-RateLimit-* describe, `r` is X-RateLimit-Remaining and `t` is X-RateLimit-Reset less the time of the answer. Absent when API Gateway answered without reaching the function. */
                    RateLimit?: string;
                    /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). Absent when API Gateway answered without reaching the function. */
                    "X-API-Stability"?: "experimental";
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inventoryChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id, `evt_inventory_<petId>_<version>`: the same on every attempt, at every endpoint and after a redrive. */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds. */
                "webhook-timestamp": string;
                /** @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "inventory.changed",
                 *       "timestamp": "2026-11-24T07:12:03.456Z",
                 *       "data": {
                 *         "petId": 9007199254740992,
                 *         "version": 2,
                 *         "occurredAt": "2026-11-24T07:12:03.456Z",
                 *         "kind": "adjustment",
                 *         "quantityBefore": 2,
                 *         "quantityAfter": 1,
                 *         "delta": -1,
                 *         "status": "available",
                 *         "reason": "adjustment",
                 *         "reservedBefore": 0,
                 *         "reservedAfter": 0,
                 *         "reservationId": null,
                 *         "reference": null,
                 *         "idempotencyKey": "till-7-receipt-1042",
                 *         "requestId": "5e2c1f7a-3b9d-4c1e-8f6a-2d7b9e0c4a11",
                 *         "keyId": "key_3f9a2c7b1e5d"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["InventoryChangedEvent"];
            };
        };
        responses: {
            /** @description Delivered: the event is not sent to this endpoint again (unless an operator redrives it). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, like a refused connection or no answer within 10 s, is a failed attempt: the event is sent again later, with the same `webhook-id` and body. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    inventoryLowStock: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id, `evt_inventory_<petId>_<version>_low_stock`: the same on every attempt, at every endpoint and after a redrive. */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds. */
                "webhook-timestamp": string;
                /** @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "inventory.low_stock",
                 *       "timestamp": "2026-11-24T07:12:03.456Z",
                 *       "data": {
                 *         "petId": 9007199254740992,
                 *         "threshold": 5,
                 *         "available": 4,
                 *         "quantity": 4,
                 *         "reserved": 0,
                 *         "version": 2
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["InventoryLowStockEvent"];
            };
        };
        responses: {
            /** @description Delivered: the event is not sent to this endpoint again (unless an operator redrives it). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, like a refused connection or no answer within 10 s, is a failed attempt: the event is sent again later, with the same `webhook-id` and body. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    inventoryRestocked: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id, `evt_inventory_<petId>_<version>_restocked`: the same on every attempt, at every endpoint and after a redrive. */
                "webhook-id": string;
                /** @description When this attempt was sent, in Unix seconds. */
                "webhook-timestamp": string;
                /** @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "inventory.restocked",
                 *       "timestamp": "2026-11-24T07:12:03.456Z",
                 *       "data": {
                 *         "petId": 9007199254740992,
                 *         "threshold": 5,
                 *         "available": 4,
                 *         "quantity": 4,
                 *         "reserved": 0,
                 *         "version": 2
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["InventoryRestockedEvent"];
            };
        };
        responses: {
            /** @description Delivered: the event is not sent to this endpoint again (unless an operator redrives it). */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other answer, like a refused connection or no answer within 10 s, is a failed attempt: the event is sent again later, with the same `webhook-id` and body. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
