import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API_KEY_VARIABLE } from '../../../contract/examples.ts';
import { ErrorCode } from '../../../functions/domain/errors.ts';
import { startLocalApp, type LocalApp } from '../../../local/local-app.ts';
import { testAppStore } from '../../support/local-store.ts';
import { DEMO_INVENTORY } from '../../../contract/demo-inventory.ts';
import { insideOneMinute } from '../../support/minute-window.ts';

/**
 * Examples that cannot rot: every curl line the reference shows (x-codeSamples of the served
 * openapi.json) and every curl line of the README and of the guides it links to runs here, in bash with the real curl,
 * against the local server with the demo inventory `npm start` seeds, and what it prints is
 * compared with the answer printed beside it. Each document runs on a server of its own, fresh as
 * a newcomer's first `npm start`: what a guide shows is what its own calls give, in its order,
 * whichever document a reader starts with.
 */

const run = promisify(execFile);
const README_BASE_URL = 'http://localhost:3000/v1';
const readDocument = (document: string) => readFileSync(new URL(`../../../${document}`, import.meta.url), 'utf8');
/** The README, then every guide in docs/ it links to, in the order it links them: a newcomer's path. */
const DOCUMENTS = [
  'README.md',
  ...new Set([...readDocument('README.md').matchAll(/\]\((docs\/[\w-]+\.md)(?:#[\w-]*)?\)/g)].map((match) => match[1]!)),
];
const DEV_KEY = 'ExamplesDevKey00000000000000000001';

/**
 * A fresh `npm start`: new tables, the demo inventory, and the seed's changes recorded in the
 * history and the feed, as they are by the time a newcomer has read the start's banner.
 */
async function withFreshApp(run: (app: LocalApp) => Promise<void>): Promise<void> {
  const app = await startLocalApp({ ...testAppStore({ recordChanges: true }), seed: DEMO_INVENTORY, devApiKey: DEV_KEY, devPlan: 'free' });
  try {
    await app.history.caughtUp();
    await run(app);
  } finally {
    await app.close();
  }
}

/** JSON with every integer kept exact: those a double cannot hold (ids above 2^53) as bigint. */
const parseExact = (text: string): unknown =>
  JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );

interface Printed {
  status?: number;
  /** Each header by its lower-cased name. */
  headers: Record<string, string>;
  body?: unknown;
}

/** What curl printed: with -i (or -D -) a status line and headers, then the body. */
function readPrinted(output: string): Printed {
  const headers: Record<string, string> = {};
  let status: number | undefined;
  let body = output;
  if (output.startsWith('HTTP/')) {
    const end = output.search(/\r?\n\r?\n/);
    const head = output.slice(0, end === -1 ? undefined : end).split(/\r?\n/);
    status = Number(head[0]!.split(' ')[1]);
    for (const line of head.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    body = end === -1 ? '' : output.slice(end).trim();
  }
  return { status, headers, ...(body.trim() ? { body: parseExact(body.trim()) } : {}) };
}

/** A value an example shows in its form only: `null` stays null, anything else is its type. */
const formOf = (value: unknown): unknown => (value === null ? null : typeof value);

/**
 * The fields whose values are the call's own, not the guide's: the moment a change was made
 * (`occurredAt`) and the request that made it (`requestId`); a reservation's id (random) and its
 * times (`createdAt`, `expiresAt`, `settledAt`: the clock's when the call was made); and the id of
 * the key that made a change, which is each reader's own dev key, where the seed's and the tools'
 * ids (`tool:seed`) are the same on every start. An example shows their form, and every other
 * value as it is.
 */
const CALL_SPECIFIC: Readonly<Record<string, (value: unknown) => unknown>> = {
  occurredAt: formOf,
  requestId: formOf,
  reservationId: formOf,
  createdAt: formOf,
  expiresAt: formOf,
  settledAt: formOf,
  keyId: (value) => (typeof value === 'string' && value.startsWith('key_') ? 'key_…' : value),
};
/**
 * The seed writes the demo pets concurrently, so which pet's creation the feed numbers first varies
 * from one start to the next: of the feed's seed entries, the pet and its stock show their form only.
 */
const SEED_ENTRY_SPECIFIC: Readonly<Record<string, (value: unknown) => unknown>> = {
  petId: formOf,
  quantityAfter: formOf,
  delta: formOf,
  status: formOf,
};
const isFeedSeedEntry = (value: object): boolean => 'petId' in value && 'kind' in value && value.kind === 'seed';

/** The value with what is specific to the call, or to the start, replaced by its form. */
function withoutCallSpecifics(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCallSpecifics);
  if (value && typeof value === 'object') {
    const specific = isFeedSeedEntry(value) ? { ...CALL_SPECIFIC, ...SEED_ENTRY_SPECIFIC } : CALL_SPECIFIC;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [
        key,
        Object.hasOwn(specific, key) ? specific[key]!(field) : withoutCallSpecifics(field),
      ]),
    );
  }
  return value;
}

/**
 * The header values of a transcript that are the moment's or the request's own: the date, the
 * request's id, and when each rate-limit window resets (X-RateLimit-Reset, the `t` of RateLimit).
 * Every other value, the counts left in each window included, follows from the calls before it.
 */
function withoutMomentSpecifics(headers: Readonly<Record<string, string>>): Record<string, string> {
  const specific: Readonly<Record<string, (value: string) => string>> = {
    date: () => 'a date',
    'x-request-id': () => 'a request id',
    'x-amzn-requestid': () => 'a request id',
    'x-ratelimit-reset': () => 'a second',
    ratelimit: (value) => value.replace(/;t=\d+/g, ';t=…'),
  };
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, specific[name]?.(value) ?? value]));
}

async function curl(command: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run('bash', ['-c', command], { env: { ...process.env, ...env }, timeout: 20_000, maxBuffer: 10 * 1024 * 1024 });
  return stdout;
}

describe('the curl line of every operation in the reference', () => {
  it('prints the status and the body the reference shows beside it, on a fresh server', () =>
    withFreshApp(async (app) => {
      type Answer = { content?: { 'application/json'?: { example?: unknown } } };
      const document = parseExact(await (await fetch(`${app.baseUrl}/openapi.json`)).text()) as {
        paths: Record<
          string,
          Record<
            string,
            {
              operationId: string;
              'x-codeSamples': { source: string }[];
              responses: Record<string, Answer | { $ref: string }>;
            }
          >
        >;
        components: { responses: Record<string, Answer> };
      };
      // The served copy states an answer several operations give alike once, under components.responses (withSharedResponses).
      const answerOf = (response: Answer | { $ref: string }): Answer =>
        '$ref' in response ? document.components.responses[response.$ref.replace('#/components/responses/', '')]! : response;
      const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
      expect(operations.length).toBeGreaterThan(0);
      for (const operation of operations) {
        const [shown] = Object.entries(operation.responses)
          .map(([status, response]) => [status, answerOf(response)] as const)
          .filter(([, response]) => response.content?.['application/json']?.example !== undefined);
        expect(operation['x-codeSamples'].length).toBeGreaterThan(0);
        if (!shown) {
          // An operation that answers 204 shows no body: its example prints the status and nothing else.
          expect(Object.keys(operation.responses), `${operation.operationId} shows an answer`).toContain('204');
          for (const { source } of operation['x-codeSamples']) {
            const printed = readPrinted(await curl(source, { [API_KEY_VARIABLE]: DEV_KEY }));
            expect({ operation: operation.operationId, status: printed.status, body: printed.body }).toEqual({
              operation: operation.operationId,
              status: 204,
              body: undefined,
            });
          }
          continue;
        }
        const [status, response] = shown;
        for (const { source } of operation['x-codeSamples']) {
          expect(source).toContain(app.baseUrl);
          const printed = readPrinted(await curl(source, { [API_KEY_VARIABLE]: DEV_KEY }));
          expect({ operation: operation.operationId, status: printed.status, body: withoutCallSpecifics(printed.body) }).toEqual({
            operation: operation.operationId,
            status: Number(status),
            body: withoutCallSpecifics(response.content!['application/json']!.example),
          });
        }
      }
    }));
});

interface ReadmeCall {
  block: number;
  command: string;
  /** A loop that sets up the next call (a burst); what it prints is not compared. */
  setup: boolean;
  /**
   * `ID=$(curl … | sed …)`: the variable a call sets for the block's later calls (a reservation's
   * id), as in the reader's shell; it is run once, and what it prints is the value.
   */
  assigns?: string;
  /**
   * `headers`: the names a comment says the answer carries. `transcript`: the answer is shown
   * whole (curl -i's output), every header of it with its value.
   */
  answer?: { status?: number; code?: string; body?: unknown; headers: string[]; transcript?: Record<string, string> };
}

/** `# 404 ROUTE_NOT_FOUND`, `# {"code": …}`, `# 200, the served copy …`: a status, a code and a JSON body, each optional. */
function readAnswerComment(comment: string): ReadmeCall['answer'] | undefined {
  const status = /^(\d{3})\b/.exec(comment)?.[1];
  const jsonStart = comment.search(/[[{]/);
  const body = jsonStart === -1 ? undefined : parseExact(comment.slice(jsonStart));
  const code = (Object.values(ErrorCode) as string[]).find((candidate) => new RegExp(`\\b${candidate}\\b`).test(comment));
  // An Error body repeats its status; an InventoryItem's `status` is the pet's, a word.
  const errorStatus = body && typeof body === 'object' && 'status' in body && typeof body.status === 'number' ? body.status : undefined;
  if (!status && body === undefined) return undefined;
  // Headers a comment names ("429, Retry-After", "200 and X-RateLimit-* headers") must be in the answer.
  const headers = [...comment.matchAll(/\b(Retry-After|ETag|Cache-Control|X-RateLimit-\*)/g)].flatMap(([name]) =>
    name === 'X-RateLimit-*' ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] : [name!],
  );
  return { status: status ? Number(status) : errorStatus, code: code ?? (body as { code?: string } | undefined)?.code, body, headers };
}

/** Every curl line of a document's shell blocks, with the answer printed beside or after it. */
function readmeCalls(readme: string): ReadmeCall[] {
  const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ language: match[1]!, text: match[2]! }));
  const calls: ReadmeCall[] = [];
  blocks.forEach(({ language, text }, index) => {
    if (language !== 'sh') return;
    const lines = text.replace(/\\\n\s*/g, '').split('\n');
    const inBlock: ReadmeCall[] = [];
    lines.forEach((line, lineIndex) => {
      if (!/(^|;\s*|do\s+|^\w+=\$\()curl\s/.test(line)) return;
      const [command, comment] = line.split(/\s+#\s+/, 2) as [string, string | undefined];
      const assigns = /^(\w+)=\$\(/.exec(line)?.[1];
      if (assigns) {
        inBlock.push({ block: index, command: command.trim(), setup: false, assigns });
        return;
      }
      const next = lines[lineIndex + 1]?.trim();
      const answer = (comment && readAnswerComment(comment)) || (next?.startsWith('# ') ? readAnswerComment(next.slice(2)) : undefined);
      inBlock.push({ block: index, command: command.trim(), setup: line.startsWith('for '), ...(answer ? { answer } : {}) });
    });
    // A transcript right after the block (```, starting with the status line) is the answer of its last call.
    const transcript = blocks[index + 1];
    const last = inBlock.at(-1);
    if (last && !last.answer && transcript?.language === '' && transcript.text.startsWith('HTTP/')) {
      const printed = readPrinted(transcript.text.trim());
      last.answer = { status: printed.status, body: printed.body, headers: Object.keys(printed.headers), transcript: printed.headers };
    }
    calls.push(...inBlock);
  });
  return calls;
}

describe('the curl lines of the README and its guides', () => {
  it('are found: the README links its guides, and both show curl lines', () => {
    expect(DOCUMENTS).toEqual(
      expect.arrayContaining(['docs/api-guide.md', 'docs/published-contract.md', 'docs/deploying-and-operating.md']),
    );
    expect(readmeCalls(readDocument('README.md')).length).toBeGreaterThan(5);
    expect(readmeCalls(readDocument('docs/api-guide.md')).length).toBeGreaterThan(5);
  });

  it("show the README's reorder report listing a pet: an empty one would show nothing of what it reports", () => {
    const report = readmeCalls(readDocument('README.md')).find((call) => call.command.includes('lowStock=true'));

    expect(report?.answer?.body, report?.command).toEqual(expect.arrayContaining([expect.objectContaining({ petId: expect.anything() })]));
  });
});

// A document without curl lines (the spec, the decisions) has nothing to run, and gets no server.
describe.each(DOCUMENTS.filter((document) => readmeCalls(readDocument(document)).length > 0))("%s's curl lines", (document) => {
  const calls = readmeCalls(readDocument(document));

  it('each print an answer the document shows (a status, a code, a body or a transcript)', () => {
    expect(calls.filter((call) => !call.setup && !call.assigns && !call.answer).map((call) => call.command)).toEqual([]);
  });

  it("print what the document shows, run in order on a fresh server with the server's dev key, as a reader's shell has it", () =>
    withFreshApp(async (app) => {
      // A transcript's counts of what is left this minute are those of the document's calls before it, all in one minute window.
      if (calls.some((call) => call.answer?.transcript)) await insideOneMinute();
      // The variables every block reads: the key of `KEY=$(cat .data/dev-api-key)`, and the ids a block's calls set.
      const variables: Record<string, string> = { KEY: DEV_KEY, URL: app.baseUrl };
      for (const block of new Set(calls.map((call) => call.block))) {
        const inBlock = calls.filter((call) => call.block === block);
        // A burst counts in one minute window, so that the call after it meets the limit.
        if (inBlock.some((call) => call.setup)) await insideOneMinute();
        for (const call of inBlock) {
          const command = call.command.replaceAll(README_BASE_URL, app.baseUrl);
          if (call.assigns) {
            const value = await curl(`${command}; printf %s "$${call.assigns}"`, variables);
            expect(value, `${call.command} sets ${call.assigns}`).toMatch(/^[\w-]+$/);
            variables[call.assigns] = value;
            continue;
          }
          const output = await curl(command, variables);
          if (call.setup || !call.answer) continue;
          const printed = readPrinted(output);
          const { status, code, body, headers, transcript } = call.answer;
          const bodyStatus = (printed.body as { status?: unknown } | undefined)?.status;
          const printedStatus = printed.status ?? (typeof bodyStatus === 'number' ? bodyStatus : undefined);
          expect({ command: call.command, status: printedStatus }).toEqual({ command: call.command, status: status ?? printedStatus });
          if (code !== undefined) expect((printed.body as { code?: string }).code, call.command).toBe(code);
          // The values, not only the keys: what a fresh start answers to this call, after the document's calls before it.
          if (body !== undefined) expect(withoutCallSpecifics(printed.body), call.command).toEqual(withoutCallSpecifics(body));
          expect(Object.keys(printed.headers), call.command).toEqual(expect.arrayContaining(headers.map((name) => name.toLowerCase())));
          // A transcript is not older than the service: it shows every header the answer has now, each with the value it has.
          if (transcript) expect(withoutMomentSpecifics(printed.headers), call.command).toEqual(withoutMomentSpecifics(transcript));
        }
      }
    }));
});
