// One plain HTTP(S) GET of a small text body (the local agent's /metrics), with a deadline and a size cap:
// every failure is an HttpGetError saying what went wrong and where, never a hang or a half body.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export class HttpGetError extends Error {
  override readonly name = 'HttpGetError';
}

export interface HttpGetOptions {
  /** Aborts the request: the deadline, SIGTERM, or both (see core/util/deadlineSignal withDeadline). */
  signal: AbortSignal;
  /** Bodies longer than this are refused (the agent's /metrics is a few KB). */
  maxBytes?: number;
}

export function httpGetText(url: string, { signal, maxBytes = 4 * 1024 * 1024 }: HttpGetOptions): Promise<string> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new HttpGetError(`not a URL: ${JSON.stringify(url)}`));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new HttpGetError(`${url}: only http and https URLs`));
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => reject(new HttpGetError(`GET ${url}: ${why}`));
    if (signal.aborted) {
      fail(abortText(signal));
      return;
    }
    const req = request(target, { method: 'GET', signal, headers: { accept: 'text/plain' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          req.destroy();
          fail(`body over ${maxBytes} bytes`);
        } else chunks.push(chunk);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) fail(`HTTP ${res.statusCode ?? '?'} ${body.slice(0, 200).trim()}`);
        else resolve(body);
      });
      res.on('error', (e) => fail(signal.aborted ? abortText(signal) : e.message));
    });
    req.on('error', (e) => fail(signal.aborted ? abortText(signal) : e.message));
    req.end();
  });
}

function abortText(signal: AbortSignal): string {
  const reason = signal.reason as { name?: string; message?: string } | undefined;
  return reason?.name === 'TimeoutError' ? (reason.message ?? 'timed out') : 'cancelled';
}
