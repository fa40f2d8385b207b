// Every command id the extension contributes, in one place: package.json `contributes.commands`, the
// registrations in src/host and the e2e suite all refer to these (a unit test keeps them in sync).
// Features added later put their ids here too.

export const CommandIds = {
  refresh: 'plegDoctor.refresh',
  showOnlyUnhealthy: 'plegDoctor.showOnlyUnhealthy',
  showAllNodes: 'plegDoctor.showAllNodes',
  selectKubeconfig: 'plegDoctor.selectKubeconfig',
  showLog: 'plegDoctor.showLog',
  refreshContext: 'plegDoctor.refreshContext',
  copyNodeName: 'plegDoctor.copyNodeName',
  copyReadyMessage: 'plegDoctor.copyReadyMessage',
  openWhatIfTimeline: 'plegDoctor.openWhatIfTimeline',
  openTimeline: 'plegDoctor.openTimeline',
  openTimelineRecording: 'plegDoctor.openTimelineRecording',
  takeCriSnapshot: 'plegDoctor.takeCriSnapshot',
  forgetSshPassphrases: 'plegDoctor.forgetSshPassphrases',
  openTrustedHostKeys: 'plegDoctor.openTrustedHostKeys',
  configureNodeAccess: 'plegDoctor.configureNodeAccess',
  diagnoseNode: 'plegDoctor.diagnoseNode',
  diagnoseAllNotReady: 'plegDoctor.diagnoseAllNotReady',
  exportEvidenceBundle: 'plegDoctor.exportEvidenceBundle',
  remediateNode: 'plegDoctor.remediateNode',
  openKubeletLogFromNode: 'plegDoctor.openKubeletLogFromNode',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];

/** The built-in "focus" command VS Code creates for the Nodes view. */
export const NODES_VIEW_ID = 'plegDoctor.nodes';
export const FOCUS_NODES_VIEW_COMMAND = `${NODES_VIEW_ID}.focus`;
export const VIEW_CONTAINER_ID = 'plegDoctor';

/** Context keys set with `setContext`, used in package.json `when` clauses. */
export const ContextKeys = {
  onlyUnhealthy: 'plegDoctor.onlyUnhealthy',
  /** 'loading' | 'noKubeconfig' | 'configError' | 'ready' */
  state: 'plegDoctor.state',
} as const;
