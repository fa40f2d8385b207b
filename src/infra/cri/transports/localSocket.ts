// CRI on the machine we run on: `pleg-doctor timeline --cri-socket` on the node itself (and the node
// agent): a plain connect to the runtime's unix socket, no SSH in between. The socket is usually
// root-only (containerd: 0660 root:root), so this runs as root or as the socket's group.

import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../../core/util/logger';
import { GrpcCriClient } from '../criClient';
import { H2Channel } from '../grpc/h2Channel';

/** Connects to a unix socket; the signal aborts the attempt. */
export function connectUnixSocket(path: string, signal?: AbortSignal): Promise<Duplex> {
  return new Promise<Duplex>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error(`connect ${path}: aborted`));
      return;
    }
    const socket = net.connect({ path });
    const onAbort = (): void => {
      socket.destroy();
      reject(new Error(`connect ${path}: aborted`));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new Error(`connect ${path}: ${error.code ?? error.message}`, { cause: error }));
    });
  });
}

/** The socket path of a `unix://` endpoint or a bare path. */
export function socketPathOf(endpoint: string): string {
  return endpoint.startsWith('unix://') ? endpoint.slice('unix://'.length) : endpoint;
}

export function localSocketClient(endpoint: string, options: { defaultDeadlineMs?: number; logger?: Logger } = {}): GrpcCriClient {
  const path = socketPathOf(endpoint);
  const channel = new H2Channel((signal) => connectUnixSocket(path, signal), `unix://${path} (local)`, options.logger);
  return new GrpcCriClient(channel, options.defaultDeadlineMs !== undefined ? { defaultDeadlineMs: options.defaultDeadlineMs } : {});
}
