// CRI over a stream to the runtime's unix socket: locally a plain connect, over SSH an OpenSSH
// direct-streamlocal channel (needs AllowStreamLocalForwarding and a user who may open the socket,
// which for containerd's 0660 root:root socket means root).

import type { Logger } from '../../../core/util/logger';
import type { RemoteHost } from '../../remote';
import { GrpcCriClient } from '../criClient';
import { H2Channel } from '../grpc/h2Channel';

export interface TransportClientOptions {
  defaultDeadlineMs?: number;
  logger?: Logger;
  /** How long a PING ACK may wait on an SSH channel (heldPingAcks.ts); 0 sends it at once. */
  pingAckHoldMs?: number;
}

export function unixSocketClient(host: RemoteHost, socketPath: string, options: TransportClientOptions = {}): GrpcCriClient {
  const channel = new H2Channel((signal) => host.openUnixSocket(socketPath, signal), `unix://${socketPath} on ${host.description}`, options.logger, undefined, options.pingAckHoldMs);
  return new GrpcCriClient(channel, options.defaultDeadlineMs !== undefined ? { defaultDeadlineMs: options.defaultDeadlineMs } : {});
}
