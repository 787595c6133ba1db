import { API_STAGE_NAME } from '../../lib/deployments.ts';
import { Compile, parse } from 'velocityjs';

type VelocityNode = ReturnType<typeof parse>[number];

/**
 * Velocity as API Gateway runs it (Java): the quotient of two integers is an integer, which the
 * rate-limit templates rely on, where velocityjs divides as JavaScript does.
 */
class GatewayVelocity extends Compile {
  protected override getExpression(node: VelocityNode): string {
    if (node.type === 'math' && node.operator === '/') {
      const [dividend, divisor] = node.expression.map((operand) => this.getExpression(operand) as unknown);
      if (Number.isInteger(dividend) && Number.isInteger(divisor))
        return Math.trunc(Number(dividend) / Number(divisor)) as unknown as string;
    }
    return super.getExpression(node);
  }
}

/** A mapping template rendered as API Gateway renders it. */
export const render = (template: string, context: Record<string, unknown>) => new GatewayVelocity(parse(template)).render(context);

/** What API Gateway offers a mapping template, as far as these templates use it; the template's header overrides land in responseOverride. */
export function gatewayContext({
  domainName,
  requestTimeEpoch,
  requestHeaders = {},
}: {
  domainName: string;
  requestTimeEpoch: number;
  requestHeaders?: Record<string, string>;
}) {
  return {
    context: {
      domainName,
      stage: API_STAGE_NAME,
      requestTimeEpoch,
      responseOverride: { header: {} as Record<string, string> },
    },
    // API Gateway decodes to a Java string; the pages are ASCII (checked at synth), so any charset reads them alike.
    util: { base64Decode: (text: string) => Buffer.from(text, 'base64').toString('latin1') },
    input: { params: () => ({ header: { get: (name: string) => requestHeaders[name] } }) },
  };
}
