// CRI through `socat STDIO UNIX-CONNECT:<sock>` run on the node (with `sudo -n` unless we are root):
// the way in for a non-root SSH user, since stream-local forwarding cannot use sudo. The relay's stdio
// carries the same HTTP/2 bytes as the socket would.

import type { RemoteHost } from '../../remote';
import { GrpcCriClient } from '../criClient';
import { H2Channel } from '../grpc/h2Channel';
import type { TransportClientOptions } from './unixSocket';

export function execRelayArgv(socketPath: string, useSudo: boolean): string[] {
  const relay = ['socat', 'STDIO', `UNIX-CONNECT:${socketPath}`];
  return useSudo ? ['sudo', '-n', ...relay] : relay;
}

export function execRelayClient(host: RemoteHost, socketPath: string, useSudo: boolean, options: TransportClientOptions = {}): GrpcCriClient {
  const argv = execRelayArgv(socketPath, useSudo);
  const channel = new H2Channel((signal) => host.openExecStream(argv, signal), `${argv.join(' ')} on ${host.description}`, options.logger);
  return new GrpcCriClient(channel, options.defaultDeadlineMs !== undefined ? { defaultDeadlineMs: options.defaultDeadlineMs } : {});
}
