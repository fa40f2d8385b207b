import { describe, expect, it } from 'vitest';
import { KubeHttpError, KubeTimeoutError, parseForbidden, toClusterError } from '../../../../src/infra/kube/errors';
import { KubeConfigError } from '../../../../src/infra/kube/kubeconfig';

const ctx = { server: 'https://10.0.0.1:6443', verb: 'list', resource: 'nodes' };

function sysErr(code: string, message = `connect ${code} 10.0.0.1:6443`): Error {
  return Object.assign(new Error(message), { code });
}

function status(code: number, message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code, ...extra });
}

describe('toClusterError', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host name not found'],
    ['EAI_AGAIN', 'host name not found'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ENETUNREACH', 'host unreachable'],
    ['ECONNRESET', 'connection reset'],
  ])('%s is unreachable and names host:port', (code, why) => {
    const e = toClusterError(sysErr(code), ctx);
    expect(e.kind).toBe('unreachable');
    expect(e.message).toBe(`Cannot reach the API server at 10.0.0.1:6443: ${why} (${code})`);
    expect(e.detail).toContain(code);
  });

  it('finds the code on a wrapped cause', () => {
    const wrapped = new Error('fetch failed', { cause: sysErr('ECONNREFUSED') });
    expect(toClusterError(wrapped, ctx).kind).toBe('unreachable');
  });

  it('defaults the port from the scheme', () => {
    expect(toClusterError(sysErr('ECONNREFUSED'), { ...ctx, server: 'https://api.example.com' }).message).toContain('api.example.com:443');
    expect(toClusterError(sysErr('ECONNREFUSED'), { ...ctx, server: 'http://127.0.0.1' }).message).toContain('127.0.0.1:80');
  });

  it('maps deadlines to timeout', () => {
    expect(toClusterError(new KubeTimeoutError('https://10.0.0.1:6443/api/v1/nodes', 30000), ctx)).toMatchObject({ kind: 'timeout' });
    expect(toClusterError(sysErr('ETIMEDOUT'), ctx).kind).toBe('timeout');
    const domTimeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    expect(toClusterError(domTimeout, ctx).message).toContain('did not answer "list nodes" in time');
  });

  it.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_SSL_WRONG_VERSION_NUMBER'])('%s is tls', (code) => {
    const e = toClusterError(sysErr(code, 'self-signed certificate'), ctx);
    expect(e.kind).toBe('tls');
    expect(e.message).toContain('10.0.0.1:6443');
    expect(e.message).toContain(code);
  });

  it('maps 401', () => {
    const e = toClusterError(new KubeHttpError(401, status(401, 'Unauthorized', { reason: 'Unauthorized' }), 'u'), ctx);
    expect(e).toMatchObject({ kind: 'unauthorized', httpStatus: 401, detail: 'Unauthorized' });
  });

  it('maps 403 with verb and resource parsed from the Status message', () => {
    const body = status(403, 'nodes is forbidden: User "jane" cannot watch resource "nodes" in API group "" at the cluster scope', { reason: 'Forbidden', details: { kind: 'nodes' } });
    const e = toClusterError(new KubeHttpError(403, body, 'u'), ctx);
    expect(e).toMatchObject({ kind: 'forbidden', verb: 'watch', resource: 'nodes', httpStatus: 403, message: '403 Forbidden: cannot watch nodes' });
  });

  it('falls back to the attempted verb and resource when the 403 body is not a Status', () => {
    const e = toClusterError(new KubeHttpError(403, '<html>denied by proxy</html>', 'u'), { ...ctx, verb: 'get', resource: 'pods' });
    expect(e).toMatchObject({ kind: 'forbidden', verb: 'get', resource: 'pods' });
    expect(e.detail).toContain('denied by proxy');
  });

  it('maps 5xx to server with the Status message', () => {
    const e = toClusterError(new KubeHttpError(503, status(503, 'etcdserver: leader changed'), 'u'), ctx);
    expect(e).toMatchObject({ kind: 'server', httpStatus: 503 });
    expect(e.message).toContain('etcdserver: leader changed');
  });

  it('passes config errors through and names the file', () => {
    const e = toClusterError(new KubeConfigError('/home/u/.kube/config', 'invalid YAML: bad indentation'), ctx);
    expect(e).toMatchObject({ kind: 'config', message: 'kubeconfig /home/u/.kube/config: invalid YAML: bad indentation' });
  });

  it('keeps unknown failures as other, with the text', () => {
    expect(toClusterError('boom', ctx)).toMatchObject({ kind: 'other', detail: 'boom' });
  });
});

describe('parseForbidden', () => {
  it('reads namespaced denials and subresources', () => {
    expect(parseForbidden('pods is forbidden: User "x" cannot list resource "pods" in API group "" in the namespace "kube-system"')).toEqual({ verb: 'list', resource: 'pods' });
    expect(parseForbidden('nodes "n1" is forbidden: User "x" cannot get resource "nodes/proxy" in API group "" at the cluster scope')).toEqual({ verb: 'get', resource: 'nodes/proxy' });
    expect(parseForbidden('something else')).toEqual({});
  });
});
