// Ids shared by the kubelet-log client and the commands that open kubelet logs.

export const KUBELET_LOG_LANGUAGE = 'kubelet-log';
/** Read-only documents holding a log fetched from a node. */
export const NODE_LOG_SCHEME = 'pleg-kubelet-log';
