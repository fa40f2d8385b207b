// globalSetup of the integration-1.22 project: the 1.22 kit (../realk8s/kitGlobalSetup.ts).
import { kitGlobalSetup } from '../realk8s/kitGlobalSetup';

export const { setup, teardown } = kitGlobalSetup('1.22');
