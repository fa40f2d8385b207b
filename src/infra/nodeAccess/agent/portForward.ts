// One TCP stream to a pod's port through the API server: `GET /api/v1/namespaces/NS/pods/NAME/portforward
// ?ports=PORT` upgraded to a WebSocket of subprotocol v4.channel.k8s.io, which the API server hands to the
// kubelet (its port 10250) and the kubelet to the runtime's port-forward, which dials the port inside the
// pod's network namespace (the host's, for a hostNetwork pod). The kubelet's side is
// pkg/kubelet/cri/streaming/portforward/websocket.go (handleWebSocketStreams): per port a data channel
// (0) and an error channel (1), each message prefixed by its channel byte, and the first two bytes on each
// channel are the port number (little endian). Unlike the pods proxy, this needs the API server to reach
// only the kubelet's port, and works for a pod whose IP is a loopback address (docs/node-access.md).

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { KubeHttpError, KubeTimeoutError } from '../../kube/errors';
import type { KubeClient } from '../../kube/kubeClient';
import type { PortForwardTarget } from '../../kube/gateway';
import { timeoutSignal } from '../../../core/util/deadlineSignal';
import { acceptFor, encodeClientFrame, FrameReader, OPCODE } from './wsFrames';

export const PORT_FORWARD_PROTOCOL = 'v4.channel.k8s.io';
/** An agent answer is at most a few MB (a 15-minute session); a frame beyond this is refused. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const DATA_CHANNEL = 0;
const ERROR_CHANNEL = 1;

export function portForwardPath(target: PortForwardTarget): string {
  if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535) throw new RangeError(`port ${target.port} is not a TCP port`);
  return `/api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward?ports=${target.port}`;
}

/**
 * The forwarded stream as a Duplex: what is written goes to the pod's port, what the port answers is read.
 * It also carries the no-op socket methods Node's HTTP client calls on a connection it did not open.
 */
export class PortForwardStream extends Duplex {
  private readonly reader = new FrameReader(MAX_MESSAGE_BYTES);
  /** Header bytes (the port number) still to drop at the start of each channel. */
  private readonly headerLeft = [2, 2];
  private errorText = '';

  private started = false;

  constructor(
    private readonly socket: Socket,
    private head: Buffer,
    private readonly describe: string,
  ) {
    super();
    // Nothing is read until the consumer reads (_read): a forward that fails at once then fails the
    // consumer's request, rather than an error event nobody listens to yet.
    socket.pause();
  }

  private start(): void {
    this.started = true;
    const socket = this.socket;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => {
      if (!this.readableEnded) this.push(null);
    });
    const head = this.head;
    this.head = Buffer.alloc(0);
    if (head.length > 0) this.receive(head);
  }

  private receive(chunk: Buffer): void {
    let messages;
    try {
      messages = this.reader.push(chunk);
    } catch (err) {
      this.destroy(err as Error);
      return;
    }
    for (const m of messages) {
      if (m.opcode === OPCODE.ping) this.socket.write(encodeClientFrame(OPCODE.pong, m.payload));
      else if (m.opcode === OPCODE.close) {
        this.finishError();
        this.push(null);
        this.socket.end(encodeClientFrame(OPCODE.close, Buffer.alloc(0)));
      } else if (m.opcode === OPCODE.binary && m.payload.length > 0) this.channel(m.payload[0] as number, m.payload.subarray(1));
    }
  }

  private channel(channel: number, data: Buffer): void {
    if (channel !== DATA_CHANNEL && channel !== ERROR_CHANNEL) return;
    const skip = Math.min(this.headerLeft[channel] as number, data.length);
    this.headerLeft[channel] = (this.headerLeft[channel] as number) - skip;
    const rest = data.subarray(skip);
    if (rest.length === 0) return;
    if (channel === DATA_CHANNEL) this.push(rest);
    else this.errorText += rest.toString('utf8');
  }

  /** The kubelet writes why a forward failed (e.g. connection refused) on the error channel, then closes. */
  private finishError(): void {
    if (this.errorText.trim() !== '') this.destroy(new Error(`port-forward to ${this.describe} failed: ${this.errorText.trim()}`));
  }

  override _read(): void {
    // Data is pushed as frames arrive (no backpressure: the answers read here are bounded, MAX_MESSAGE_BYTES).
    if (!this.started) this.start();
    this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(encodeClientFrame(OPCODE.binary, Buffer.concat([Buffer.from([DATA_CHANNEL]), chunk])), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(encodeClientFrame(OPCODE.close, Buffer.alloc(0)), () => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(error);
  }

  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/**
 * Opens the forward; resolves once the WebSocket is upgraded. `timeoutMs` bounds the upgrade (credentials,
 * connection, the API server's and kubelet's answers); after that the caller bounds the stream. A refusal
 * rejects with KubeHttpError carrying the API server's Status body (403: the grant RBAC refused).
 */
export async function openPodPortForward(client: KubeClient, target: PortForwardTarget, options: { signal: AbortSignal; timeoutMs: number }): Promise<PortForwardStream> {
  if (client.requestOptions === undefined) throw new Error('this Kubernetes client cannot open a port-forward (no request options)');
  const path = portForwardPath(target);
  const url = new URL(client.server.replace(/\/+$/u, '') + path);
  const where = `${url.origin}${url.pathname}`;
  const describe = `pod ${target.namespace}/${target.pod} port ${target.port}`;
  const deadline = AbortSignal.any([options.signal, timeoutSignal(options.timeoutMs)]);
  const base = await client.requestOptions(deadline);
  const key = randomBytes(16).toString('base64');
  const headers: Record<string, string> = {
    ...(base.headers as Record<string, string> | undefined),
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': key,
    'Sec-WebSocket-Protocol': PORT_FORWARD_PROTOCOL,
    'User-Agent': 'pleg-doctor/0.1',
  };
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise<PortForwardStream>((resolve, reject) => {
    const req = send(url, { ...(base as RequestOptions), method: 'GET', headers });
    const onAbort = (): void => {
      const why = options.signal.aborted ? options.signal.reason : new KubeTimeoutError(where, options.timeoutMs);
      req.destroy(why instanceof Error ? why : new Error(String(why)));
    };
    const settle = (): void => deadline.removeEventListener('abort', onAbort);
    if (deadline.aborted) onAbort();
    else deadline.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => {
      settle();
      reject(err);
    });
    req.on('response', (res: IncomingMessage) => {
      // Not upgraded: the API server (or the kubelet behind it) refused; its Status body names why.
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (body.length < 64 * 1024) body += c;
      });
      res.on('end', () => {
        settle();
        reject(new KubeHttpError(res.statusCode ?? 0, body, where));
      });
      res.on('error', (err) => {
        settle();
        reject(err);
      });
    });
    req.on('upgrade', (res: IncomingMessage, socket: Socket, head: Buffer) => {
      settle();
      const protocol = res.headers['sec-websocket-protocol'];
      if (res.headers['sec-websocket-accept'] !== acceptFor(key) || protocol !== PORT_FORWARD_PROTOCOL) {
        socket.destroy();
        reject(new Error(`port-forward to ${describe}: the server's WebSocket upgrade is not valid (protocol ${String(protocol)})`));
        return;
      }
      resolve(new PortForwardStream(socket, head, describe));
    });
    req.end();
  });
}
