import { staticHeaderValue } from './static-header-value.ts';
import { Validations } from 'aws-cdk-lib';
import {
  AuthorizationType,
  MockIntegration,
  PassthroughBehavior,
  type MethodDeploymentOptions,
  type RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { entityTag, PUBLISHED_PAGES, publishedPageHeaders, type PublishedPage } from '../contract/published-contract.ts';
import { API_STAGE_NAME } from './deployments.ts';
import { UNCOUNTED_RATE_LIMIT_HEADERS, UNCOUNTED_RATE_LIMIT_TEMPLATE } from './rate-limit-templates.ts';

/** API Gateway's cap on one mapping template (REST API quotas). */
export const MAX_MAPPING_TEMPLATE_BYTES = 300 * 1024;

/** Stands for the stage's base URL in the rendered pages; a reserved (.invalid) host, so it cannot be meant literally. */
const SERVER_URL_PLACEHOLDER = 'https://stage-url.invalid/v1';

/** The stage's base URL, as API Gateway knows it while it answers: the host the client called and the stage. */
const STAGE_URL_EXPRESSION = 'https://$context.domainName/$context.stage';

/**
 * The page as a mapping template: the rendered text in base64 pieces around the stage URL.
 * Base64 holds none of VTL's special characters ($, #, \), so the page needs no escaping and
 * VTL cannot misread any of it; the pages are ASCII, so decoding cannot change a character.
 */
export function pageTemplate(text: string): string {
  if (/[\u0080-\uffff]/.test(text)) throw new Error('A published page must be ASCII to pass through a mapping template unchanged.');
  return text
    .split(SERVER_URL_PLACEHOLDER)
    .map((piece) => (piece.length > 0 ? `$util.base64Decode("${Buffer.from(piece, 'ascii').toString('base64')}")` : ''))
    .join(STAGE_URL_EXPRESSION);
}

/** The mock integration's request template: 304 when If-None-Match names the page's entity tag, else 200. */
export function conditionalRequestTemplate(etag: string): string {
  return [
    `#set($ifNoneMatch = "$!input.params().header.get('If-None-Match')$!input.params().header.get('if-none-match')")`,
    `{"statusCode": #if($ifNoneMatch.indexOf('${etag}') >= 0 || $ifNoneMatch == '*')304#{else}200#end}`,
  ].join('\n');
}

export interface PublishedContractProps {
  restApi: RestApi;
  /** The Sunset of getPetById on this stage. */
  petsSunset: Date | undefined;
}

/**
 * Abusive traffic on the two pages that need no key costs requests, not functions; this keeps
 * it to a bound well above any reader's. Set on the stage, so it is passed where the API is made.
 */
export const PUBLISHED_PAGE_THROTTLE = { throttlingRateLimit: 20, throttlingBurstLimit: 40 } as const satisfies MethodDeploymentOptions;

/** The stage's settings of the pages' methods: the stage-wide ones (a method's own settings replace them) and the throttle. */
export const publishedPageMethodOptions = (stageWide: MethodDeploymentOptions): Record<string, MethodDeploymentOptions> =>
  Object.fromEntries(Object.values(PUBLISHED_PAGES).map((page) => [`${page.resource}/GET`, { ...stageWide, ...PUBLISHED_PAGE_THROTTLE }]));

/**
 * GET /v1/openapi.json and GET /v1/docs on the stage, without a key and without a function:
 * API Gateway answers both from mock integrations whose response templates hold the pages,
 * rendered at synth time, with `servers` and the curl lines naming the URL the client called.
 * They revalidate by ETag: a matching If-None-Match is answered 304 without a body. Both answers
 * carry the X-RateLimit-* headers of an answer no window counts, as the 404 for unknown routes
 * does (lib/rate-limit-templates.ts): Limit, Remaining and RateLimit-Policy static, Reset and
 * RateLimit set by the template.
 */
export class PublishedContract extends Construct {
  constructor(scope: Construct, id: string, props: PublishedContractProps) {
    super(scope, id);
    for (const page of Object.values(PUBLISHED_PAGES)) this.publish(props, page);
  }

  private publish({ restApi, petsSunset }: PublishedContractProps, page: PublishedPage): void {
    const pageText = pageTemplate(page.render({ serverUrl: SERVER_URL_PLACEHOLDER, petsSunset }));
    // The Reset directives write nothing, so the body is the page's text alone.
    const template = `${UNCOUNTED_RATE_LIMIT_TEMPLATE}${pageText}`;
    if (Buffer.byteLength(template) > MAX_MAPPING_TEMPLATE_BYTES) {
      throw new Error(
        `${page.resource} needs a ${Buffer.byteLength(template)}-byte mapping template; API Gateway takes at most ${MAX_MAPPING_TEMPLATE_BYTES}.`,
      );
    }
    // The same template always renders the same page at one URL (one host, one stage), so its hash is a strong validator there.
    const etag = entityTag(`${API_STAGE_NAME}\n${pageText}`);
    const headers = { ...publishedPageHeaders(page, etag), ...UNCOUNTED_RATE_LIMIT_HEADERS };
    const headerMappings = (names: readonly string[]) =>
      Object.fromEntries(names.map((name) => [`method.response.header.${name}`, staticHeaderValue(headers[name]!)]));
    const headerDeclarations = (names: readonly string[]) =>
      Object.fromEntries(names.map((name) => [`method.response.header.${name}`, true]));
    const okHeaders = Object.keys(headers);
    const notModifiedHeaders = ['ETag', 'Cache-Control', ...Object.keys(UNCOUNTED_RATE_LIMIT_HEADERS)];

    const method = restApi.root.resourceForPath(page.resource).addMethod(
      'GET',
      new MockIntegration({
        passthroughBehavior: PassthroughBehavior.NEVER,
        requestTemplates: { 'application/json': conditionalRequestTemplate(etag) },
        integrationResponses: [
          {
            statusCode: '200',
            responseParameters: headerMappings(okHeaders),
            responseTemplates: { [page.contentType.split(';')[0]!]: template },
          },
          {
            statusCode: '304',
            selectionPattern: '304',
            responseParameters: headerMappings(notModifiedHeaders),
            responseTemplates: { 'application/json': UNCOUNTED_RATE_LIMIT_TEMPLATE },
          },
        ],
      }),
      {
        authorizationType: AuthorizationType.NONE,
        apiKeyRequired: false,
        methodResponses: [
          { statusCode: '200', responseParameters: headerDeclarations(okHeaders) },
          { statusCode: '304', responseParameters: headerDeclarations(notModifiedHeaders) },
        ],
      },
    );
    const reason = `${page.resource} publishes the API's contract for people and tools that have no key yet, as public documentation; it runs no function, reads no data and is throttled on the stage.`;
    Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason }, { id: 'AwsSolutions-COG4', reason });
  }
}
