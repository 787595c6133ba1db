import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { DeploymentStage } from './deployments.ts';
import { PetStoreInventoryStack, STAGE_SETTINGS } from './petstore-inventory-stack.ts';
import {
  checkDeployTarget,
  DEPLOY_STAGE_CONTEXT_KEY,
  readStageEnvironments,
  STAGE_ENVIRONMENTS_CONTEXT_KEY,
} from './stage-environments.ts';

/**
 * Both stages in one app, with the same paths and their own tables and keys. Each stage is
 * pinned to its own account and region (lib/stage-environments.ts); a stage not pinned is
 * environment-agnostic, so `npm run synth` and the tests need no credentials, while the deploy
 * and diff scripts (which name their stage) refuse it.
 */
export function addPetStoreStages(app: App): Record<DeploymentStage, PetStoreInventoryStack> {
  const environments = readStageEnvironments(app.node.tryGetContext(STAGE_ENVIRONMENTS_CONTEXT_KEY));
  checkDeployTarget(app.node.tryGetContext(DEPLOY_STAGE_CONTEXT_KEY), environments, process.env.CDK_DEFAULT_ACCOUNT);
  const stacks = {
    staging: new PetStoreInventoryStack(app, 'PetStoreInventory-Staging', {
      env: environments.staging ?? {},
      settings: STAGE_SETTINGS.staging,
    }),
    prod: new PetStoreInventoryStack(app, 'PetStoreInventory-Prod', { env: environments.prod ?? {}, settings: STAGE_SETTINGS.prod }),
  };
  // Every synthesis (CLI and tests) is checked: an unacknowledged finding fails it.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stacks;
}
