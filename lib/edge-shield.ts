import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, Metric, Stats, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ErrorCode } from '../functions/domain/errors.ts';
import { ERROR_STATUSES, errorBody, RETRY_AFTER_HEADER } from '../functions/http/error-statuses.ts';
import { PLAN_LIMITS } from '../functions/domain/plans.ts';
import { staticRateLimitHeaders } from '../functions/http/gateway-responses.ts';
import { JSON_HEADERS } from '../functions/http/json.ts';
import { ALARM_PERIOD } from './operational-alarms.ts';

/**
 * Requests one source address may send within 60 s before WAF blocks it. The highest plan with a
 * fixed rate, Business, allows 1,000 a minute per key; fixed windows admit a full minute at the
 * end of one window and another at the start of the next, so one key can send 2,000 within 60 s.
 * 5,000 leaves room for two such keys behind one address (an office's NAT) and their retries,
 * while a flood is cut before it costs an authorizer call.
 */
export const WAF_REQUESTS_PER_ADDRESS_PER_MINUTE = 5 * PLAN_LIMITS.business.perMinute;
/** WAF's window for the rate-based rule, in seconds (it accepts 60, 120, 300 or 600). */
const WAF_EVALUATION_WINDOW_SECONDS = 60;

export const WAF_RULES = {
  ratePerAddress: 'RequestsPerSourceAddress',
  knownBadInputs: 'AWSManagedRulesKnownBadInputsRuleSet',
} as const;

/** Blocked requests in ALARM_PERIOD that raise each rule's alarm: any flood; a burst of exploit probes beyond the internet's usual noise. */
export const WAF_BLOCKED_ALARM_THRESHOLDS: Readonly<Record<keyof typeof WAF_RULES, number>> = { ratePerAddress: 1, knownBadInputs: 100 };

const RATE_BODY_KEY = 'rateLimited';

/** The rate-based rule's window in RateLimit-Policy and RateLimit. */
export const WAF_RATE_POLICY = 'requests-per-address';

export interface EdgeShieldProps {
  stage: Stage;
  /** Prefix of the web ACL's and rules' CloudWatch metric names; differs between stages. */
  name: string;
  notify?: ITopic;
}

/**
 * An AWS WAF web ACL on the API's stage: a rate-based rule per source address, and AWS's managed
 * rule group for request patterns of known exploits (Log4j lookups, Java deserialization, bad
 * hosts). It answers before API Gateway runs the authorizer, so a flood costs no function call.
 */
export class EdgeShield extends Construct {
  readonly webAcl: CfnWebACL;
  /** One per rule, on its blocked requests: the dashboard shows them with the stack's other alarms. */
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: EdgeShieldProps) {
    super(scope, id);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });

    const rateLimited = ERROR_STATUSES[ErrorCode.rateLimited];
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${props.name}-edge`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.name}-edge`),
      customResponseBodies: {
        [RATE_BODY_KEY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(
            errorBody(
              rateLimited,
              ErrorCode.rateLimited,
              `This address sent more than ${WAF_REQUESTS_PER_ADDRESS_PER_MINUTE} requests within a minute; retry after the time in Retry-After, with exponential backoff.`,
            ),
          ),
        },
      },
      rules: [
        {
          name: WAF_RULES.ratePerAddress,
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit: WAF_REQUESTS_PER_ADDRESS_PER_MINUTE,
              evaluationWindowSec: WAF_EVALUATION_WINDOW_SECONDS,
              aggregateKeyType: 'IP',
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: rateLimited,
                customResponseBodyKey: RATE_BODY_KEY,
                // WAF inserts static headers only: no reset time (nor `t`), as WAF's window slides.
                responseHeaders: Object.entries({
                  'Cache-Control': JSON_HEADERS['Cache-Control'],
                  [RETRY_AFTER_HEADER]: String(WAF_EVALUATION_WINDOW_SECONDS),
                  ...staticRateLimitHeaders({
                    policy: WAF_RATE_POLICY,
                    limit: WAF_REQUESTS_PER_ADDRESS_PER_MINUTE,
                    seconds: WAF_EVALUATION_WINDOW_SECONDS,
                    remaining: 0,
                  }),
                }).map(([name, value]) => ({ name, value })),
              },
            },
          },
          visibilityConfig: visibility(`${props.name}-${WAF_RULES.ratePerAddress}`),
        },
        {
          name: WAF_RULES.knownBadInputs,
          priority: 1,
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: WAF_RULES.knownBadInputs } },
          overrideAction: { none: {} },
          visibilityConfig: visibility(`${props.name}-${WAF_RULES.knownBadInputs}`),
        },
      ],
    });

    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });

    for (const [rule, ruleName] of Object.entries(WAF_RULES) as [keyof typeof WAF_RULES, string][]) {
      const alarm = new Alarm(this, `${ruleName}Blocked`, {
        alarmDescription: `WAF rule ${ruleName} blocked ${WAF_BLOCKED_ALARM_THRESHOLDS[rule]} or more requests to ${props.name} in 5 minutes.`,
        metric: new Metric({
          namespace: 'AWS/WAFV2',
          metricName: 'BlockedRequests',
          dimensionsMap: { WebACL: this.webAcl.name!, Rule: `${props.name}-${ruleName}`, Region: Stack.of(this).region },
          statistic: Stats.SUM,
          period: ALARM_PERIOD,
        }),
        threshold: WAF_BLOCKED_ALARM_THRESHOLDS[rule],
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (props.notify) {
        alarm.addAlarmAction(new SnsAction(props.notify));
        alarm.addOkAction(new SnsAction(props.notify));
      }
      this.alarms.push(alarm);
    }
  }
}
