/**
 * The API reference page (`GET /v1/docs`): one HTML file rendered from the OpenAPI document
 * the same process serves at `/v1/openapi.json`. No script, font, style or image comes from
 * anywhere: the page is the whole of it, and it runs no JavaScript at all, so its
 * Content-Security-Policy can forbid everything but its own inline style. It is small enough
 * (tens of KB) for an API Gateway mapping template, which is how a stage serves it.
 *
 * It renders what this document uses of OpenAPI 3.1 (local $refs, path, query and header parameters,
 * JSON bodies, headers by reference, media-type examples, x-codeSamples, deprecated, x-experimental,
 * x-sunset, webhooks) and fails loudly on what it does not know, rather than leaving it out.
 */

/** The parameters the reference renders, each kind under its own heading. */
const PARAMETER_HEADINGS: Readonly<Record<string, string>> = {
  path: 'Path parameters',
  query: 'Query parameters',
  header: 'Request headers',
};

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  additionalProperties?: boolean | Schema;
  examples?: readonly unknown[];
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

interface Header {
  $ref?: string;
  description?: string;
  required?: boolean;
  schema?: Schema;
}

interface Response {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema & { example?: string };
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: readonly string[];
  deprecated?: boolean;
  'x-experimental'?: boolean;
  'x-sunset'?: string;
  'x-codeSamples'?: readonly { lang: string; label?: string; source: string }[];
  parameters?: readonly Parameter[];
  requestBody?: { description?: string; required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

/** The part of an OpenAPI 3.1 document the page reads. */
export interface ReferenceDocument {
  info: { title: string; version: string; description?: string };
  externalDocs?: { description?: string; url: string };
  servers?: readonly { url: string; description?: string; variables?: Record<string, { default: string }> }[];
  tags?: readonly { name: string; description?: string }[];
  paths?: Record<string, Record<string, unknown>>;
  /** What the API sends to its users' endpoints (OpenAPI 3.1), by event name. */
  webhooks?: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    securitySchemes?: Record<string, unknown>;
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/**
 * `code`, **bold** and [links](url) within one line of the document's Markdown. Code spans are
 * set aside (as private-use placeholders, which no description holds) before bold and links
 * are read, so a bold phrase may hold code.
 */
function inlineMarkdown(text: string): string {
  const codeSpans: string[] = [];
  const withoutCode = text
    .split('`')
    .map((part, index) => {
      if (index % 2 === 0) return escapeHtml(part);
      codeSpans.push(`<code>${escapeHtml(part)}</code>`);
      return `\uE000${codeSpans.length - 1}\uE000`;
    })
    .join('');
  return withoutCode
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\uE000(\d+)\uE000/g, (_, index: string) => codeSpans[Number(index)]!);
}

const tableCells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/** The Markdown the document's descriptions use: paragraphs, pipe tables and dash lists. */
export function markdown(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block.length > 0)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => line.trim().startsWith('|')) && lines.length >= 2) {
        const [head, , ...rows] = lines;
        const header = tableCells(head!)
          .map((cell) => `<th>${inlineMarkdown(cell)}</th>`)
          .join('');
        const body = rows
          .map(
            (row) =>
              `<tr>${tableCells(row)
                .map((cell) => `<td>${inlineMarkdown(cell)}</td>`)
                .join('')}</tr>`,
          )
          .join('');
        return `<table><thead><tr>${header}</tr></thead><tbody>${body}</tbody></table>`;
      }
      if (lines.every((line) => line.startsWith('- ')))
        return `<ul>${lines.map((line) => `<li>${inlineMarkdown(line.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inlineMarkdown(lines.join(' '))}</p>`;
    })
    .join('\n');
}

const toJsonText = (value: unknown) =>
  JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? JSON.rawJSON(field.toString()) : field), 2);

/** JSON with its keys, strings and numbers marked for colour. */
function highlightJson(value: unknown): string {
  return escapeHtml(toJsonText(value)).replace(
    /(&quot;(?:[^&\\]|\\.|&(?!quot;))*&quot;)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g,
    (match, string: string | undefined, colon: string | undefined, number: string | undefined, literal: string | undefined) => {
      if (string !== undefined) return colon ? `<span class="k">${string}</span>${colon}` : `<span class="s">${string}</span>`;
      if (number !== undefined) return `<span class="n">${number}</span>`;
      if (literal !== undefined) return `<span class="n">${literal}</span>`;
      return match;
    },
  );
}

/** A shell line with the command, its flags and its quoted arguments marked for colour. */
function highlightShell(source: string): string {
  return escapeHtml(source).replace(
    /^(curl)\b|(\s)(-{1,2}[A-Za-z][\w-]*)|(&quot;.*?&quot;|&#39;.*?&#39;)/gm,
    (match, command: string | undefined, space: string | undefined, flag: string | undefined, quoted: string | undefined) => {
      if (command !== undefined) return `<span class="c">${command}</span>`;
      if (flag !== undefined) return `${space}<span class="f">${flag}</span>`;
      if (quoted !== undefined) return `<span class="s">${quoted}</span>`;
      return match;
    },
  );
}

/** Whatever a page shows must reach the reader in any encoding: everything past ASCII as a character reference. */
const asciiOnly = (html: string) => html.replace(/[\u0080-\u{10ffff}]/gu, (character) => `&#x${character.codePointAt(0)!.toString(16)};`);

const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-');

/** A summary without the "(experimental)" or "(deprecated)" its badges already show. */
const title = (operation: Operation) => (operation.summary ?? operation.operationId).replace(/\s*\((experimental|deprecated)\)$/i, '');

/** The headers nearly every answer carries, always sent: a response that carries them all names them as one set. */
const USUAL_HEADERS: readonly string[] = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

class Reference {
  private readonly schemas: Record<string, Schema>;
  private readonly headers: Record<string, Header>;
  private readonly operations: { path: string; method: string; operation: Operation }[];
  /** The webhooks, each as an operation whose path is the event's name. */
  private readonly webhooks: { path: string; method: string; operation: Operation }[];
  /**
   * Each error answer already shown whole (its status and JSON), by the operation that showed it
   * first: an operation that gives the same answer (401, 429, 500, 503 of most operations) links
   * to it instead of repeating it, which keeps the page within API Gateway's mapping-template limit.
   */
  private readonly shownErrors = new Map<string, { operationId: string; kind: string }>();

  constructor(private readonly document: ReferenceDocument) {
    this.schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
    this.headers = (document.components?.headers ?? {}) as Record<string, Header>;
    const operationsOf = (items: Record<string, Record<string, unknown>>) =>
      Object.entries(items).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => HTTP_METHODS.includes(method))
          .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
      );
    this.operations = operationsOf(document.paths ?? {});
    this.webhooks = operationsOf(document.webhooks ?? {});
  }

  private schemaName(ref: string): string {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
    if (!name || !this.schemas[name]) throw new Error(`The reference cannot resolve ${ref}.`);
    return name;
  }

  private header(name: string, header: Header): Header {
    if (!header.$ref) return header;
    const found = this.headers[/^#\/components\/headers\/(.+)$/.exec(header.$ref)?.[1] ?? ''];
    if (!found) throw new Error(`The reference cannot resolve ${header.$ref} (header ${name}).`);
    return found;
  }

  /** What a value of the schema is, in a few words, with links to named schemas. */
  private typeLabel(schema: Schema | undefined): string {
    if (!schema) return 'any';
    if (schema.$ref) {
      const name = this.schemaName(schema.$ref);
      const target = this.schemas[name]!;
      const underlying = target.type && target.type !== 'object' ? `<div class="muted">${escapeHtml(this.plainType(target))}</div>` : '';
      return `<a class="type" href="#schema-${slug(name)}">${escapeHtml(name)}</a>${underlying}`;
    }
    if (schema.type === 'array') return `array of ${this.typeLabel(schema.items)}`;
    return `<span class="type">${escapeHtml(this.plainType(schema))}</span>`;
  }

  private plainType(schema: Schema): string {
    const base = schema.format ? `${schema.type} (${schema.format})` : String(schema.type ?? 'any');
    return schema.enum ? `${base}: ${schema.enum.join(' | ')}` : base;
  }

  private constraints(schema: Schema | undefined): string {
    const target = schema?.$ref ? this.schemas[this.schemaName(schema.$ref)] : schema;
    if (!target) return '';
    const parts: string[] = [];
    if (target.minimum !== undefined && target.maximum !== undefined) parts.push(`${target.minimum} to ${target.maximum}`);
    else if (target.minimum !== undefined) parts.push(`at least ${target.minimum}`);
    else if (target.maximum !== undefined) parts.push(`at most ${target.maximum}`);
    return parts.length > 0 ? `<div class="muted">${escapeHtml(parts.join(', '))}</div>` : '';
  }

  private describedBy(schema: Schema | undefined): string {
    const own = schema?.description ?? (schema?.$ref ? this.schemas[this.schemaName(schema.$ref)]!.description : undefined);
    return own ? markdown(own) : '';
  }

  /** A table of an object's fields; other schemas as one line. */
  private fields(schema: Schema | undefined): string {
    const target = schema?.$ref ? this.schemas[this.schemaName(schema.$ref)] : schema;
    if (target?.type !== 'object' || !target.properties) return `<p>${this.typeLabel(schema)}</p>`;
    const rows = Object.entries(target.properties).map(
      ([name, field]) =>
        `<tr><td><code class="name">${escapeHtml(name)}</code>${target.required?.includes(name) ? '<span class="required">required</span>' : ''}</td><td>${this.typeLabel(field)}${this.constraints(field)}</td><td>${this.describedBy(field)}</td></tr>`,
    );
    const closed = target.additionalProperties === false ? '<p class="muted">No other fields are accepted.</p>' : '';
    return `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>${closed}`;
  }

  private json(content: Record<string, MediaType> | undefined): MediaType | undefined {
    if (!content) return undefined;
    const types = Object.keys(content);
    if (types.some((type) => type !== 'application/json'))
      throw new Error(`The reference renders JSON bodies only, not ${types.join(', ')}.`);
    return content['application/json'];
  }

  private statusClass = (status: string) => `status status-${status.charAt(0)}xx`;

  private badges(operation: Operation): string {
    const badges: string[] = [];
    if (operation['x-experimental']) badges.push('<span class="badge experimental">Experimental</span>');
    if (operation.deprecated) badges.push('<span class="badge deprecated">Deprecated</span>');
    if (operation['x-sunset']) badges.push(`<span class="badge sunset">Sunset ${escapeHtml(operation['x-sunset'])}</span>`);
    return badges.join('');
  }

  private endpoint(method: string, path: string): string {
    return `<span class="method method-${method}">${method.toUpperCase()}</span><span class="path">${escapeHtml(path)}</span>`;
  }

  /**
   * Why an optional header may be absent: what its description adds to the headers table's, which
   * the name links to (repeating the whole description on every answer would double the page).
   */
  private absenceReason(name: string, header: Header): string {
    const description = header.description ?? '';
    const common = this.headers[name]?.description;
    return common && description.startsWith(common) ? description.slice(common.length).trim() : description;
  }

  private response(status: string, response: Response): string {
    const named = Object.entries(response.headers ?? {});
    // The usual set, each always sent, is one link to where the headers section lists it: named in each of
    // the page's sixty answers, its six links took a sixth of the page (whose size a stage's mapping template bounds).
    const carriesUsualSet = USUAL_HEADERS.every((name) =>
      named.some(([given, header]) => given === name && this.header(given, header).required === true),
    );
    const listed = carriesUsualSet ? named.filter(([name]) => !USUAL_HEADERS.includes(name)) : named;
    const usualSet = carriesUsualSet ? ['<a class="set" href="#headers-usual">usual set</a>'] : [];
    const headers = listed.map(([name, header]) => {
      const resolved = this.header(name, header);
      const required = resolved.required === true;
      // Only a header that may be absent says why in its title; one always sent needs no title (the table's intro says so).
      // Styled by their place (.headers a, .headers span): a class on each of the page's thousand names would cost 15 KB.
      const attributes = required ? '' : ` class="optional" title="may be absent: ${escapeHtml(this.absenceReason(name, resolved))}"`;
      // A header of the headers table links to its row; one stated only here (Content-Encoding) says itself in its title.
      return name in this.headers
        ? `<a${attributes} href="#header-${slug(name)}">${escapeHtml(name)}</a>`
        : `<span${attributes}>${escapeHtml(name)}</span>`;
    });
    headers.unshift(...usualSet);
    const body = this.json(response.content);
    // A code whose meaning here is the one the Errors table gives links there instead of repeating it.
    const codes = this.codeExamples(response).map(([code, example]) =>
      (example.summary ?? '') === this.errorSummaries().get(code)
        ? `<li><a href="#error-${slug(code)}"><code class="code">${escapeHtml(code)}</code></a></li>`
        : `<li><code class="code">${escapeHtml(code)}</code> ${example.summary ? inlineMarkdown(example.summary) : ''}</li>`,
    );
    const description = response.description.replace(/\s*Codes: [^.]*\.$/, '');
    return `<li><div><span class="${this.statusClass(status)}">${escapeHtml(status)}</span>${body?.schema ? `<span class="body-type">${this.typeLabel(body.schema)}</span>` : ''}</div><div>${markdown(description)}</div>${codes.length > 0 ? `<ul class="codes">${codes.join('')}</ul>` : ''}${headers.length > 0 ? `<div class="headers">${headers.join(' ')}</div>` : ''}
</li>`;
  }

  /**
   * An operation, or a webhook: what the API sends to the user's endpoint, its request shown as
   * it arrives (the headers and the body of its example) and its responses being the user's.
   */
  private operation({ path, method, operation }: Reference['operations'][number], kind: 'operation' | 'webhook' = 'operation'): string {
    const parameters = operation.parameters ?? [];
    const unsupported = parameters.filter((parameter) => !(parameter.in in PARAMETER_HEADINGS));
    if (unsupported.length > 0)
      throw new Error(
        `The reference renders path, query and header parameters only, not ${unsupported.map((parameter) => parameter.in).join(', ')}.`,
      );
    const requestBody = operation.requestBody ? this.json(operation.requestBody.content) : undefined;
    const samples = (operation['x-codeSamples'] ?? []).map(
      (sample) =>
        `<div class="panel"><div class="panel-title">${escapeHtml(sample.label ?? sample.lang)}</div><pre class="sample">${highlightShell(sample.source)}</pre></div>`,
    );
    const firstShown = (status: string, response: Response) => {
      if (!status.startsWith('4') && !status.startsWith('5')) return undefined;
      const key = `${status}\n${JSON.stringify(response)}`;
      const shown = this.shownErrors.get(key);
      if (!shown) this.shownErrors.set(key, { operationId: operation.operationId, kind });
      return shown;
    };
    const shownBefore = new Map(Object.entries(operation.responses).map(([status, response]) => [status, firstShown(status, response)]));
    const examples = Object.entries(operation.responses).flatMap(([status, response]) => {
      const body = this.json(response.content);
      if (body?.example !== undefined)
        return [
          `<div class="panel"><div class="panel-title"><span class="${this.statusClass(status)}">${status}</span> Response</div><pre>${highlightJson(body.example)}</pre></div>`,
        ];
      return [];
    });
    if (kind === 'webhook') samples.push(this.webhookRequest(method, parameters, requestBody));
    return `<section class="row ${kind}" id="${kind}-${slug(operation.operationId)}" data-operation-id="${escapeHtml(operation.operationId)}">
<div class="prose">
  <h2>${escapeHtml(title(operation))}${this.badges(operation)}</h2>
  <div class="endpoint">${kind === 'webhook' ? `${this.endpoint(method, 'your webhook URL')}<code class="operation-id">${escapeHtml(path)}</code>` : `${this.endpoint(method, path)}<code class="operation-id">${escapeHtml(operation.operationId)}</code>`}</div>
  ${operation.description ? markdown(operation.description) : ''}
  ${Object.entries(PARAMETER_HEADINGS)
    .map(([location, heading]) => {
      const listed = parameters.filter((parameter) => parameter.in === location);
      if (listed.length === 0) return '';
      return `<h3>${heading}</h3><table class="fields"><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>${listed
        .map(
          (parameter) =>
            `<tr><td><code class="name">${escapeHtml(parameter.name)}</code>${parameter.required ? '<span class="required">required</span>' : ''}</td><td>${this.typeLabel(parameter.schema)}${this.constraints(parameter.schema)}</td><td>${parameter.description ? markdown(parameter.description) : ''}</td></tr>`,
        )
        .join('')}</tbody></table>`;
    })
    .join('')}
  ${
    requestBody
      ? `<h3>Request body <span class="muted">application/json${operation.requestBody?.required ? ', required' : ''}</span></h3>${operation.requestBody?.description ? markdown(operation.requestBody.description) : ''}${this.fields(requestBody.schema)}`
      : ''
  }
  <h3>${kind === 'webhook' ? 'Your answer' : 'Responses'}</h3>
  <ul class="responses">${Object.entries(operation.responses)
    .map(([status, response]) => {
      const shown = shownBefore.get(status);
      return shown
        ? `<li><div><span class="${this.statusClass(status)}">${escapeHtml(status)}</span></div><div><p>As <a href="#${shown.kind}-${slug(shown.operationId)}">${escapeHtml(shown.operationId)}</a> answers it${this.linkedCodes(response)}.</p></div></li>`
        : this.response(status, response);
    })
    .join('')}</ul>
</div>
<aside class="code">
  ${samples.join('')}
  ${examples.join('')}
</aside>
</section>`;
  }

  /** A webhook's request as the endpoint receives it: the method, its headers' examples, the body's. */
  private webhookRequest(method: string, parameters: readonly Parameter[], body: MediaType | undefined): string {
    const headers = parameters
      .filter((parameter) => parameter.in === 'header')
      .map((parameter) => `${escapeHtml(parameter.name)}: ${escapeHtml(parameter.schema?.example ?? '')}`);
    const lines = [`${method.toUpperCase()} /your/webhook/url`, 'content-type: application/json', ...headers].join('\n');
    return `<div class="panel"><div class="panel-title">Request</div><pre>${lines}\n\n${body?.example === undefined ? '' : highlightJson(body.example)}</pre></div>`;
  }

  private introduction(): string {
    const { info, servers = [], externalDocs } = this.document;
    const serverRows = servers.map((server) => {
      const url = server.url.replace(/\{(\w+)\}/g, (_match, name: string) => server.variables?.[name]?.default ?? `{${name}}`);
      return `<div class="server"><div class="muted">${escapeHtml(server.description ?? '')}</div><code>${escapeHtml(url)}</code></div>`;
    });
    const firstSample = this.operations[0]?.operation['x-codeSamples']?.[0];
    return `<section class="row" id="introduction">
<div class="prose">
  <h1>${escapeHtml(info.title)} <span class="version">v${escapeHtml(info.version)}</span></h1>
  ${info.description ? markdown(info.description) : ''}
  ${externalDocs ? `<p><a href="${escapeHtml(externalDocs.url)}">${escapeHtml(externalDocs.description ?? externalDocs.url)}</a></p>` : ''}
</div>
<aside class="code">
  <div class="panel"><div class="panel-title">Base URL</div><div class="servers">${serverRows.join('')}</div></div>
  ${firstSample ? `<div class="panel"><div class="panel-title">Your first call</div><pre class="sample">${highlightShell(`export API_KEY=<your key>\n${firstSample.source}`)}</pre></div>` : ''}
</aside>
</section>`;
  }

  private authentication(): string {
    const schemes = Object.entries(this.document.components?.securitySchemes ?? {}) as [
      string,
      { type: string; scheme?: string; description?: string },
    ][];
    return `<section class="row" id="authentication">
<div class="prose">
  <h2>Authentication</h2>
  ${schemes.map(([name, scheme]) => `<p><strong>${escapeHtml(`${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ''}`)}</strong> <span class="muted">(${escapeHtml(name)})</span></p>${scheme.description ? markdown(scheme.description) : ''}`).join('')}
  <p>Every operation requires it. A missing, malformed, unknown or revoked key is answered <code>401</code> with code <code>UNAUTHORIZED</code>.</p>
</div>
<aside class="code"><div class="panel"><div class="panel-title">Header</div><pre class="sample">Authorization: Bearer $API_KEY</pre></div></aside>
</section>`;
  }

  private responseHeaders(): string {
    const rows = Object.entries(this.headers).map(
      ([name, header]) =>
        `<tr id="header-${slug(name)}"><td><code class="name">${escapeHtml(name)}</code></td><td>${this.typeLabel(header.schema)}</td><td>${header.description ? markdown(header.description) : ''}</td></tr>`,
    );
    return `<section class="row single" id="headers">
<div class="prose">
  <h2>Response headers</h2>
  <p>Each response below names the headers it carries, always sent unless greyed: a greyed name may be absent (API Gateway answered on its own; its title says why). The example of each error code is under Errors.</p>
  <p id="headers-usual">The <strong>usual set</strong>, named so in a response that carries all of it: ${USUAL_HEADERS.map((name) => `<a href="#header-${slug(name)}">${escapeHtml(name)}</a>`).join(', ')}.</p>
  <table class="fields"><thead><tr><th>Header</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</div>
</section>`;
  }

  private summaries: Map<string, string> | undefined;

  /** An answer's codes, each linked to its row of the Errors table: what an answer stated under another operation still names here. */
  /**
   * An error answer's examples by code: its `examples`, and its single `example` where that is
   * the operation's own example answer (an Error body, described by the answer's description).
   */
  private codeExamples(response: Response): [string, { summary?: string; value: unknown }][] {
    const body = this.json(response.content);
    const ownCode = (body?.example as { code?: unknown } | undefined)?.code;
    return [
      ...Object.entries(body?.examples ?? {}),
      ...(typeof ownCode === 'string'
        ? [[ownCode, { summary: response.description, value: body!.example }] as [string, { summary?: string; value: unknown }]]
        : []),
    ];
  }

  private linkedCodes(response: Response): string {
    const codes = this.codeExamples(response).map(([code]) => code);
    return codes.length === 0 ? '' : `: ${codes.map((code) => `<a href="#error-${slug(code)}">${escapeHtml(code)}</a>`).join(', ')}`;
  }

  /** Each error code's meaning as the Errors table gives it: the first operation's that answers it. */
  private errorSummaries(): Map<string, string> {
    if (!this.summaries) {
      this.summaries = new Map();
      for (const { operation } of this.operations)
        for (const response of Object.values(operation.responses))
          for (const [code, example] of this.codeExamples(response))
            if (!this.summaries.has(code)) this.summaries.set(code, example.summary ?? '');
    }
    return this.summaries;
  }

  private errors(): string {
    const codes = new Map<string, { statuses: Set<string>; summary: string; operations: Set<string>; value: unknown }>();
    for (const { operation } of this.operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [code, example] of this.codeExamples(response)) {
          const entry = codes.get(code) ?? {
            statuses: new Set(),
            summary: example.summary ?? '',
            operations: new Set(),
            value: example.value,
          };
          entry.statuses.add(status);
          entry.operations.add(operation.operationId);
          codes.set(code, entry);
        }
      }
    }
    const rows = [...codes.entries()]
      .sort(([a, first], [b, second]) => [...first.statuses][0]!.localeCompare([...second.statuses][0]!) || a.localeCompare(b))
      .map(
        ([code, { statuses, summary }]) =>
          `<tr id="error-${slug(code)}"><td>${[...statuses].map((status) => `<span class="${this.statusClass(status)}">${escapeHtml(status)}</span>`).join(' ')}</td><td><code class="code">${escapeHtml(code)}</code></td><td>${inlineMarkdown(summary)}</td></tr>`,
      );
    const [firstExample] = this.operations.flatMap(({ operation }) =>
      Object.values(operation.responses).flatMap((response) => Object.values(this.json(response.content)?.examples ?? {})),
    );
    const errorSchema = firstExample
      ? `<div class="panel"><div class="panel-title">Error</div><pre>${highlightJson(firstExample.value)}</pre></div>`
      : '';
    // Each code's example once, here: a code's example is the same in every operation that answers it, and
    // repeating it under each operation would take a third of the page (whose size a stage's mapping template bounds).
    const examples = [...codes.entries()].map(
      ([code, { statuses, value }]) =>
        `<div class="error-example"><div class="panel-title"><span class="${this.statusClass([...statuses][0]!)}">${escapeHtml([...statuses][0]!)}</span> ${escapeHtml(code)}</div><pre>${highlightJson(value)}</pre></div>`,
    );
    const errorExamples =
      examples.length > 0
        ? `<details class="panel"><summary class="panel-title">Error examples (${examples.length})</summary>${examples.join('')}</details>`
        : '';
    return `<section class="row" id="errors">
<div class="prose">
  <h2>Errors</h2>
  <p>Every error answer is the JSON object <a class="type" href="#schema-Error">Error</a>: a stable <code>code</code>, a <code>message</code> for people and the HTTP <code>status</code> repeated. Codes may be added; a client should act on the status and show the message.</p>
  <table class="error-codes"><thead><tr><th>Status</th><th>Code</th><th>When</th></tr></thead><tbody>${rows.join('')}</tbody></table>
</div>
<aside class="code">${errorSchema}${errorExamples}</aside>
</section>`;
  }

  private webhookSections(): string {
    if (this.webhooks.length === 0) return '';
    return `<div class="tag" id="webhooks"><h2>Webhooks</h2><p>What the API sends to your endpoint: each event is POSTed as JSON, signed, and sent again until your endpoint answers 2xx.</p></div>
${this.webhooks.map((entry) => this.operation(entry, 'webhook')).join('\n')}`;
  }

  private schemaSections(): string {
    return Object.entries(this.schemas)
      .map(
        ([name, schema]) => `<section class="row single schema" id="schema-${slug(name)}">
<div class="prose">
  <h3>${escapeHtml(name)} <span class="muted">${escapeHtml(schema.type === 'object' ? 'object' : this.plainType(schema))}</span></h3>
  ${schema.description ? markdown(schema.description) : ''}
  ${schema.type === 'object' ? this.fields(schema) : this.constraints(schema)}
</div>
</section>`,
      )
      .join('\n');
  }

  private navigation(): string {
    const tags = this.document.tags ?? [];
    const byTag = tags.map((tag) => ({ tag, operations: this.operations.filter(({ operation }) => operation.tags?.includes(tag.name)) }));
    const untagged = this.operations.filter(({ operation }) => !operation.tags?.some((name) => tags.some((tag) => tag.name === name)));
    if (untagged.length > 0)
      throw new Error(`Operations without a declared tag: ${untagged.map(({ operation }) => operation.operationId).join(', ')}.`);
    const link = (href: string, text: string) => `<li><a href="#${href}">${text}</a></li>`;
    return `<nav class="sidebar" aria-label="Contents">
  <div class="brand">${escapeHtml(this.document.info.title)}<span class="version">v${escapeHtml(this.document.info.version)}</span></div>
  <ul>${link('introduction', 'Introduction')}${link('authentication', 'Authentication')}${link('errors', 'Errors')}${link('headers', 'Response headers')}</ul>
  ${byTag
    .map(
      ({ tag, operations }) =>
        `<div class="nav-group">${escapeHtml(tag.name)}</div><ul>${operations
          .map(({ method, operation }) =>
            link(
              `operation-${slug(operation.operationId)}`,
              `<span class="method method-${method}">${method.toUpperCase()}</span> ${escapeHtml(title(operation))}${operation.deprecated ? ' <span class="nav-flag">deprecated</span>' : ''}${operation['x-experimental'] ? ' <span class="nav-flag">experimental</span>' : ''}`,
            ),
          )
          .join('')}</ul>`,
    )
    .join('')}
  ${
    this.webhooks.length > 0
      ? `<div class="nav-group">Webhooks</div><ul>${this.webhooks
          .map(({ method, path, operation }) =>
            link(
              `webhook-${slug(operation.operationId)}`,
              `<span class="method method-${method}">${method.toUpperCase()}</span> ${escapeHtml(path)}`,
            ),
          )
          .join('')}</ul>`
      : ''
  }
  <div class="nav-group">Schemas</div>
  <ul>${Object.keys(this.schemas)
    .map((name) => link(`schema-${slug(name)}`, escapeHtml(name)))
    .join('')}</ul>
  <div class="nav-foot"><a href="openapi.json">openapi.json</a></div>
</nav>`;
  }

  render(): string {
    const tags = this.document.tags ?? [];
    const operationsByTag = tags.map(
      (
        tag,
      ) => `<div class="tag" id="tag-${slug(tag.name)}"><h2>${escapeHtml(tag.name)}</h2>${tag.description ? markdown(tag.description) : ''}</div>
${this.operations
  .filter(({ operation }) => operation.tags?.includes(tag.name))
  .map((entry) => this.operation(entry))
  .join('\n')}`,
    );
    return asciiOnly(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>${escapeHtml(this.document.info.title)} reference</title>
<style>${STYLE}</style>
</head>
<body>
${this.navigation()}
<main>
${this.introduction()}
${this.authentication()}
${this.errors()}
${this.responseHeaders()}
${operationsByTag.join('\n')}
${this.webhookSections()}
<div class="tag" id="schemas"><h2>Schemas</h2></div>
${this.schemaSections()}
</main>
</body>
</html>
`);
  }
}

/** Nothing but the page's own inline style: no script runs and nothing is fetched, from any host. */
export const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function renderApiReference(document: ReferenceDocument): string {
  return new Reference(document).render();
}

const STYLE = `
:root{--ink:#1a1f36;--muted:#697386;--line:#e3e8ee;--soft:#f6f8fa;--accent:#635bff;--code-bg:#1e2235;--code-ink:#e3e8ee;
--sans:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Ubuntu,"DejaVu Sans",Arial,sans-serif;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace}
*{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;font:15px/1.6 var(--sans);color:var(--ink);background:#fff}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code{font:13px/1.4 var(--mono);background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:1px 5px}
.sidebar{position:fixed;top:0;bottom:0;left:0;width:272px;overflow-y:auto;padding:24px 16px;background:#fbfcfd;border-right:1px solid var(--line);font-size:14px}
.sidebar ul{list-style:none;margin:0 0 12px;padding:0}
.sidebar li a{display:block;padding:4px 8px;border-radius:6px;color:var(--ink)}
.sidebar li a:hover{background:var(--soft);text-decoration:none}
.brand{font-weight:700;font-size:16px;padding:0 8px 16px;display:flex;align-items:center;gap:8px}
.nav-group{text-transform:uppercase;letter-spacing:.06em;font-size:11px;font-weight:700;color:var(--muted);padding:12px 8px 4px}
.nav-flag{font-size:11px;color:var(--muted)}
.nav-foot{padding:12px 8px;border-top:1px solid var(--line);margin-top:12px}
main{margin-left:272px}
.row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:48px;padding:40px 48px;border-bottom:1px solid var(--line)}
.row.single{grid-template-columns:minmax(0,1fr)}
.row.single .prose{max-width:960px}
.tag{padding:40px 48px 0}
.tag h2{font-size:28px;margin:0}
h1{font-size:32px;line-height:1.2;margin:0 0 16px}
h2{font-size:22px;line-height:1.3;margin:0 0 12px;display:flex;flex-wrap:wrap;align-items:center;gap:8px}
h3{font-size:15px;margin:28px 0 8px;padding-bottom:6px;border-bottom:1px solid var(--line)}
.schema h3{margin-top:0}
.muted{color:var(--muted);font-weight:400}
.version{font-size:12px;font-weight:600;color:var(--muted);border:1px solid var(--line);border-radius:999px;padding:1px 8px;vertical-align:middle}
table{width:100%;border-collapse:collapse;margin:12px 0;font-size:14px}
th{text-align:left;font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);border-bottom:1px solid var(--line);padding:6px 8px}
td{vertical-align:top;border-bottom:1px solid var(--line);padding:8px}
td p{margin:0}
.fields td:first-child,.error-codes td:nth-child(-n+2){white-space:nowrap;width:1%}.fields td:nth-child(2){width:30%}
code.name{background:none;border:0;padding:0;font-weight:600;color:var(--ink)}
code.code{background:#fff4e5;border-color:#fbd9a8;color:#8a4b00}
.required{margin-left:6px;font-size:11px;font-weight:600;color:#c0392b;text-transform:uppercase;letter-spacing:.04em}
.type{font:13px var(--mono)}
.endpoint{display:flex;align-items:center;gap:10px;margin:4px 0 16px;font:14px var(--mono)}
.path{font-weight:600}
.operation-id{margin-left:auto;color:var(--muted)}
.method{display:inline-block;min-width:46px;text-align:center;font:700 11px/1.8 var(--mono);border-radius:4px;padding:0 6px}
.method-get{background:#d7f7e1;color:#0b6b31}.method-patch{background:#fff0c2;color:#7a5200}.method-post{background:#dbe9ff;color:#0b4aa2}.method-delete{background:#ffe0e0;color:#a01010}.method-put{background:#efe0ff;color:#5b21b6}
.badge{font-size:12px;font-weight:600;border-radius:999px;padding:2px 10px}
.experimental{background:#efe9ff;color:#5b21b6}.deprecated{background:#ffe4e4;color:#a01010}.sunset{background:#f1f1f1;color:#444}
.responses{list-style:none;padding:0;margin:0}
/* A response's parts are styled by their place: a class on each of the page's hundred answers would cost 7 KB. */
.responses>li{padding:12px 0;border-bottom:1px solid var(--line)}
.responses>li>div:first-child{display:flex;align-items:center;gap:10px}
.responses>li>div:nth-child(2) p{margin:6px 0}
.status{display:inline-block;font:700 12px/1.7 var(--mono);border-radius:4px;padding:0 6px}
.status-2xx{background:#d7f7e1;color:#0b6b31}.status-4xx{background:#fff0c2;color:#7a5200}.status-5xx{background:#ffe0e0;color:#a01010}.status-dxx{background:#f1f1f1;color:#444}
.codes{margin:4px 0;padding-left:18px;font-size:14px}
.headers{font-size:13px;margin-top:4px}
.headers::before{content:"Headers ";color:var(--muted)}
.headers a,.headers span{font:12px var(--mono);margin-right:6px}
.headers .optional{color:var(--muted)}
.code{min-width:0}
aside.code{display:flex;flex-direction:column;gap:16px;align-self:start;position:sticky;top:16px}
.panel{background:var(--code-bg);color:var(--code-ink);border-radius:8px;overflow:hidden;box-shadow:0 2px 6px rgba(26,31,54,.12)}
.panel-title{display:flex;align-items:center;gap:8px;font:600 12px var(--sans);color:#a3acb9;background:#2a2f45;padding:8px 14px;text-transform:uppercase;letter-spacing:.05em;cursor:default}
details.panel>summary{cursor:pointer;list-style-position:inside}
.error-example .panel-title{background:none;border-top:1px solid #3c4257;text-transform:none}
pre{margin:0;padding:14px;overflow-x:auto;font:13px/1.55 var(--mono);color:var(--code-ink);white-space:pre-wrap;overflow-wrap:anywhere}
pre .k{color:#9ecbff}pre .s{color:#a5e8a1}pre .n{color:#ffb86c}pre .c{color:#ff7ab2}pre .f{color:#c5a5ff}
.servers{padding:10px 14px}
.server{padding:4px 0}.server code{background:none;border:0;color:var(--code-ink);padding:0;word-break:break-all}
.server .muted{color:#a3acb9;font-size:12px}
@media (max-width:1100px){.sidebar{position:static;width:auto;height:auto;border-right:0;border-bottom:1px solid var(--line)}main{margin-left:0}.row{grid-template-columns:minmax(0,1fr);gap:24px;padding:32px 20px}.tag{padding:32px 20px 0}aside.code{position:static}}
`;
