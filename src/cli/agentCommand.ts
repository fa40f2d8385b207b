// `pleg-doctor agent` is a bundle of its own, dist/cliAgent.js, required by path only when the agent runs
// (src/cli/registry.ts). It leaves out ssh2 and the other commands, and @kubernetes/client-node (esbuild.mjs
// marks it external for this bundle): the agent's gateway makes its client with serviceAccountKubeClient,
// so client-node is never imported, and its 4 MB of code would cost the agent about 23 MB of its 60 MB
// budget just by being parsed (bench/agent.ts, docs/agent.md).

import { createKubeGateway } from '../infra/kube/createGateway';
import { createAgentCommand } from './commands/agent';
import type { CliCommand } from './io';

export const agentCommand = (): CliCommand => createAgentCommand(createKubeGateway);
