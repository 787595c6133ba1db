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
         * @description One entry per pet, sorted by petId, each pet once. The answer is streamed: the status and headers come first, then the array in chunks as the inventory is read, compressed when Accept-Encoding asks for br or gzip. A failure after the answer has begun cannot change its status: the transfer breaks off and the body ends without its closing bracket, so it is never a valid shorter array. Treat a broken transfer or a body that is not valid JSON as a failed call and retry it. A pet updated during the listing appears once, with its old or its new quantity.
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
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the stock count of one pet (experimental)
         * @description Sets `quantity` of an existing entry and returns the entry; `status` is left as it is. **Experimental**: the request shape may change before the operation becomes stable; every answer of the function says so in `X-API-Stability: experimental`. The quantity is absolute, so the call is idempotent and safe to retry.
         */
        patch: operations["updateInventory"];
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
         * @description Returns what the service knows of the pet: its id and status. **Deprecated**: every answer of the function carries `Deprecation`, `Sunset` and a `Link` to https://docs.petstore.example/v1/deprecations#get-pet-by-id; after the Sunset date the operation may stop answering.
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The stock level of one pet. */
        InventoryItem: {
            petId: components["schemas"]["PetId"];
            quantity: components["schemas"]["Quantity"];
            status: components["schemas"]["PetStatus"];
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
        /** @description Every error answer. `code` is stable and machine-readable (each response lists the codes it can carry; new codes may be added); `status` repeats the HTTP status. */
        Error: {
            code: string;
            message: string;
            status: number;
        };
        /** @description The new stock count: an absolute value, not a change, so sending it twice has the effect of sending it once. */
        InventoryUpdate: {
            quantity: components["schemas"]["Quantity"];
        };
        /** @description What this service knows of a pet: its id and status, taken from the inventory (the Petstore Pet's other fields are not held here). */
        Pet: {
            id: components["schemas"]["PetId"];
            status: components["schemas"]["PetStatus"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). */
        "X-RateLimit-Limit": number;
        /** @description Requests left in that window. */
        "X-RateLimit-Remaining": number;
        /** @description Unix time (seconds) at which that window resets. */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description The operation is experimental: its request shape may change before it becomes stable (SPEC section 9). */
        "X-API-Stability": "experimental";
        /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). */
        Deprecation: string;
        /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; Thu, 01 Jul 2027 00:00:00 GMT unless configured otherwise. */
        Sunset: string;
        /** @description Where the deprecation and the sunset are explained (rel="deprecation", rel="sunset"). */
        Link: string;
        /** @description The answer depends on Accept-Encoding (it is compressed when the client accepts it). */
        Vary: "Accept-Encoding";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listInventory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every inventory entry, sorted by petId. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Vary: components["headers"]["Vary"];
                    /** @description The coding of the body, chosen from the request's Accept-Encoding (br or gzip); absent when the body is not compressed. */
                    "Content-Encoding"?: "br" | "gzip";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"][];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked. API Gateway answers before the key is known, so without the headers the function adds (X-RateLimit-*, the operation's signals). Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded: the per-minute limit, the daily quota, or a temporary ban for continuing after 429s. Wait for Retry-After, then retry with exponential backoff. Codes: `RATE_LIMIT_EXCEEDED`, `QUOTA_EXCEEDED`, `API_KEY_TEMPORARILY_BANNED`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Vary: components["headers"]["Vary"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
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
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
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
    updateInventory: {
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
                "application/json": components["schemas"]["InventoryUpdate"];
            };
        };
        responses: {
            /** @description The entry with its new quantity. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description The body is not JSON, lacks `quantity` or holds an invalid value, or petId is not a canonical integer from 1 to 9223372036854775807 (no sign, leading zeros or exponent). Codes: `INVALID_BODY`, `MALFORMED_JSON`, `INVALID_PET_ID`. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked. API Gateway answers before the key is known, so without the headers the function adds (X-RateLimit-*, the operation's signals). Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No inventory entry exists for petId. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
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
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
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
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
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
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-API-Stability": components["headers"]["X-API-Stability"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
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
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
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
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
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
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is missing, malformed, unknown or revoked. API Gateway answers before the key is known, so without the headers the function adds (X-RateLimit-*, the operation's signals). Codes: `UNAUTHORIZED`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The inventory has no entry for petId. Codes: `PET_NOT_FOUND`. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
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
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the detail is in the service logs only. Codes: `INTERNAL_ERROR`. */
            500: {
                headers: {
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). Absent when API Gateway answered without reaching the function. */
                    Deprecation?: string;
                    /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; Thu, 01 Jul 2027 00:00:00 GMT unless configured otherwise. Absent when API Gateway answered without reaching the function. */
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
                    /** @description Requests allowed in the window closest to exhaustion (the minute or the UTC day). Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) at which that window resets. Absent when API Gateway answered without reaching the function. */
                    "X-RateLimit-Reset"?: number;
                    /** @description RFC 9745: the operation is deprecated since this moment (a structured-field date: `@` and Unix seconds). Absent when API Gateway answered without reaching the function. */
                    Deprecation?: string;
                    /** @description RFC 8594: an HTTP-date after which the operation may stop answering. Set per stage; Thu, 01 Jul 2027 00:00:00 GMT unless configured otherwise. Absent when API Gateway answered without reaching the function. */
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
}
