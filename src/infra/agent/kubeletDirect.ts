// The local kubelet's own HTTPS port, read by the agent on its node (hostNetwork): GET /metrics with the
// pod's service-account token. The kubelet authorizes /metrics as the `nodes/metrics` subresource
// (pkg/kubelet/server/auth.go, GetRequestAttributes: path /metrics → subresource "metrics"), which is all
// the agent's ClusterRole grants on nodes besides get/list/watch. Everything else on that port (/configz,
// /pods, /exec, /run, /debug) is `nodes/proxy`, which reaches exec in every pod of the node: the agent
// never asks for it (docs/agent.md).
//
// TLS: the kubelet's serving certificate is self-signed unless serverTLSBootstrap is on, so it cannot be
// checked against the cluster CA in general. With --kubelet-ca the certificate is verified against that
// file; without it the agent talks to a loopback address only (the request never leaves the node) and
// does not verify; any other host without --kubelet-ca is refused at start (agentArgs.ts).

import { readFile } from 'node:fs/promises';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Fetched } from '../../core/diagnose/evidence';
import { errorText } from '../../core/util/errorText';
import type { KubeletEndpoint } from '../diagnose/fetchKubeletEndpoint';

export interface KubeletDirectTarget {
  /** e.g. https://127.0.0.1:10250 */
  url: URL;
  /** Re-read before every request: a projected service-account token is rotated by the kubelet. */
  tokenFile: string;
  /** PEM bundle to verify the kubelet's serving certificate; undefined: not verified (loopback only). */
  ca?: Buffer;
  /** Largest body accepted (a kubelet's /metrics is a few hundred kB). */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/gu, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/u.test(h);
}

/** One GET of `endpoint.path` within `timeoutMs`; every outcome is a Fetched, only the caller's abort rejects. */
export async function fetchKubeletDirect<T>(target: KubeletDirectTarget, endpoint: KubeletEndpoint<T>, timeoutMs: number, signal: AbortSignal): Promise<Fetched<T>> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  let token: string;
  try {
    token = (await readFile(target.tokenFile, 'utf8')).trim();
  } catch (err) {
    return { status: 'failed', message: `${endpoint.path}: cannot read the service-account token ${target.tokenFile}: ${errorText(err)}`, ms: ms() };
  }
  if (signal.aborted) throw signal.reason;
  const url = new URL(endpoint.path, target.url);
  const answer = await new Promise<{ kind: 'answer'; status: number; body: string } | { kind: 'timeout' } | { kind: 'error'; message: string }>((resolve, reject) => {
    const request = https.get(
      url,
      {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/plain' },
        ...(target.ca !== undefined ? { ca: target.ca } : { rejectUnauthorized: false }),
        // The kubelet's certificate names the node, not 127.0.0.1: with a CA, the chain is what is checked.
        ...(target.ca !== undefined ? { checkServerIdentity: () => undefined } : {}),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > (target.maxBytes ?? DEFAULT_MAX_BYTES)) {
            request.destroy();
            finish({ kind: 'error', message: `the answer exceeded ${target.maxBytes ?? DEFAULT_MAX_BYTES} bytes` });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => finish({ kind: 'answer', status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', (err) => finish({ kind: 'error', message: errorText(err) }));
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      request.destroy();
    }, timeoutMs);
    const onAbort = (): void => {
      clearTimeout(timer);
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err) => finish({ kind: 'error', message: errorText(err) }));
    let done = false;
    function finish(result: Parameters<typeof resolve>[0]): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    }
  });
  if (answer.kind === 'timeout') return { status: 'timeout', ms: ms(), deadlineMs: timeoutMs };
  if (answer.kind === 'error') return { status: 'failed', message: `${endpoint.path} at ${target.url.host}: ${answer.message}`, ms: ms() };
  const ok = answer.status >= 200 && answer.status < 300;
  if (!ok && endpoint.acceptsStatus?.(answer.status) !== true) {
    const head = answer.body.trim().slice(0, 200);
    if (answer.status === 401 || answer.status === 403) {
      return { status: 'forbidden', message: `${endpoint.path}: the kubelet answered ${answer.status} (${head}): the service account needs get on nodes/metrics`, ms: ms(), grant: 'nodes/metrics' };
    }
    return { status: 'failed', message: `${endpoint.path}: the kubelet answered ${answer.status}: ${head}`, ms: ms() };
  }
  try {
    return { status: 'ok', value: endpoint.parse(answer.body, answer.status), ms: ms() };
  } catch (err) {
    return { status: 'failed', message: `${endpoint.path}: the kubelet's answer did not parse: ${errorText(err)}`, ms: ms() };
  }
}
