// Entry of dist/kube.js, loaded on first use through loader.ts. Diagnose Node and Take CRI Snapshot's
// choice of the node's way (agent, SSH, debug pod) are in the same bundle as the gateway because they
// tell the gateway's errors apart with instanceof: a class copied into two bundles would be two classes.

export { createKubeGateway } from '../../infra/kube/createGateway';
export { diagnoseNode } from '../diagnostics/diagnoseNodeCommand';
export { diagnoseAllNotReady } from '../diagnostics/diagnoseAllCommand';
export { exportEvidenceBundle } from '../diagnostics/exportBundleCommand';
export { chooseEditorAccess } from '../nodeAccess/chooseEditorAccess';
export { takeCriSnapshotAnyWay } from '../nodeAccess/takeSnapshotAnyWay';
// With chooseEditorAccess: the AgentConnection it hands out is this bundle's class.
export { followAgentTimeline } from '../../infra/timeline/agentTimeline';
export { fetchKubeletLogThroughDebugPod } from '../kubeletLog/kubeletLogDebugPod';
