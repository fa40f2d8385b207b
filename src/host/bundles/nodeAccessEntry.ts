// Entry of dist/nodeAccess.js (ssh2, gRPC over the SSH channel, the CRI client and the snapshot flow),
// loaded on first use through loader.ts.

export { SshPoolHolder } from '../nodeAccess/sshPoolHolder';
export { runNodeSnapshot } from '../nodeAccess/nodeSnapshotRunner';
export { snapshotStageMessage, takeCriSnapshot } from '../nodeAccess/takeSnapshotCommand';
export { fetchKubeletJournalOverSsh } from '../kubeletLog/kubeletLogSsh';
export { sshTargetOf, startLiveFeed } from '../timeline/liveSourceFeed';
