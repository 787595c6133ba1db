/**
 * Which AWS account and region each stage deploys to. Pinned per stage (cdk.json context
 * `stageEnvironments`, or STAGING_ACCOUNT/STAGING_REGION and PROD_ACCOUNT/PROD_REGION in the
 * environment, which win), so that nothing a developer's profile says can put prod in the
 * staging account. Plain data and checks, no CDK import: the tests call them directly.
 */
import { STACK_NAMES, type DeploymentStage } from './deployments.ts';

/** A stage configured or targeted wrongly: its message is the whole story, so the app prints it alone (bin/app.ts). */
export class StageConfigurationError extends Error {
  override name = 'StageConfigurationError';
}

export const STAGE_ENVIRONMENTS_CONTEXT_KEY = 'stageEnvironments';
/** Set by the deploy and diff scripts (`-c deployStage=prod`): the stage this run is for, which must then be pinned. */
export const DEPLOY_STAGE_CONTEXT_KEY = 'deployStage';

export interface StageEnvironment {
  account: string;
  region: string;
}
export type StageEnvironments = Partial<Record<DeploymentStage, StageEnvironment>>;

const STAGES: readonly DeploymentStage[] = ['staging', 'prod'];
const DEPLOY_GUIDE_SECTION = 'see docs/deploying-and-operating.md, "Deploying to AWS"';

function variables(stage: DeploymentStage): { account: string; region: string } {
  const prefix = stage.toUpperCase();
  return { account: `${prefix}_ACCOUNT`, region: `${prefix}_REGION` };
}

function where(stage: DeploymentStage): string {
  const names = variables(stage);
  return `cdk.json context ${STAGE_ENVIRONMENTS_CONTEXT_KEY}.${stage} {"account", "region"} or ${names.account} and ${names.region}`;
}

/** The pinned environments, checked: 12-digit accounts, region names, no stage half-pinned, prod never in staging's account. */
export function readStageEnvironments(context: unknown, env: NodeJS.ProcessEnv = process.env): StageEnvironments {
  const configured = (typeof context === 'object' && context !== null ? context : {}) as Record<
    string,
    Partial<StageEnvironment> | undefined
  >;
  const environments: StageEnvironments = {};
  for (const stage of STAGES) {
    const names = variables(stage);
    const account = env[names.account] || configured[stage]?.account;
    const region = env[names.region] || configured[stage]?.region;
    if (account === undefined && region === undefined) continue;
    if (!account || !region)
      throw new StageConfigurationError(
        `The ${stage} stage is half pinned (account ${account ?? 'missing'}, region ${region ?? 'missing'}): set both in ${where(stage)}; ${DEPLOY_GUIDE_SECTION}.`,
      );
    if (!/^\d{12}$/.test(account))
      throw new StageConfigurationError(`The ${stage} account must be a 12-digit AWS account id, not "${account}" (${where(stage)}).`);
    if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region))
      throw new StageConfigurationError(`The ${stage} region must be a region name such as eu-west-1, not "${region}" (${where(stage)}).`);
    environments[stage] = { account, region };
  }
  if (environments.prod && environments.staging && environments.prod.account === environments.staging.account) {
    throw new StageConfigurationError(
      `Prod is pinned to the staging account ${environments.staging.account}: prod must have an account of its own (${where('prod')}); ${DEPLOY_GUIDE_SECTION}.`,
    );
  }
  return environments;
}

/**
 * Refuses, before anything is built, a deploy or diff of a stage that is not pinned, and one
 * whose credentials belong to another account (the CLI passes the credentials' account as
 * CDK_DEFAULT_ACCOUNT). `npm run synth` names no stage, so it needs neither.
 */
export function checkDeployTarget(stage: unknown, environments: StageEnvironments, credentialsAccount: string | undefined): void {
  if (stage === undefined) return;
  if (stage !== 'staging' && stage !== 'prod')
    throw new StageConfigurationError(`${DEPLOY_STAGE_CONTEXT_KEY} must be staging or prod, not "${String(stage)}".`);
  const pinned = environments[stage];
  if (!pinned)
    throw new StageConfigurationError(
      `Refusing to deploy ${STACK_NAMES[stage]}: no account and region are pinned for ${stage}. Set ${where(stage)}; ${DEPLOY_GUIDE_SECTION}.`,
    );
  if (credentialsAccount && credentialsAccount !== pinned.account) {
    const whose = STAGES.find((other) => environments[other]?.account === credentialsAccount);
    throw new StageConfigurationError(
      `Refusing to deploy ${STACK_NAMES[stage]} to account ${pinned.account} with credentials of account ${credentialsAccount}${whose ? ` (the ${whose} account)` : ''}: set AWS_PROFILE to a profile of the ${stage} account; ${DEPLOY_GUIDE_SECTION}.`,
    );
  }
}
