// The loopback Kubernetes API stand-in. It serves the real wire protocol for nodes, events and pods:
// chunked lists with opaque continue tokens, watches from a resourceVersion with history replay, bookmarks,
// 410 Expired after compaction, timeoutSeconds, and metav1.Status errors for 401/403/404. It binds
// 127.0.0.1 only.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeEvent, KubeNode } from '../../core/kube/objects';
import type { ApiServerOptions, AuthMode, FakeApiServer, PodStub } from './contract';
import { matchesFields, parseFieldSelector } from './fieldSelector';
import { nodeTable, wantsTable } from './nodeTable';
import { badRequest, continueExpired, expired, forbidden, methodNotAllowed, notFound, unauthorized } from './status';
import type { StatusBody } from './status';
import { errorText } from '../../core/util/errorText';

/** What the stand-in can do beyond the shared contract (compatible extension). */
export interface FakeApiServerExtras {
  /**
   * Ends every watch stream abruptly; with `midLine`, first writes half of a JSON line, as when a proxy
   * or the apiserver dies in the middle of a chunk.
   */
  dropWatches(options?: { midLine?: boolean }): void;
  /** Open watch streams right now. */
  readonly watchCount: number;
  readonly resourceVersion: number;
  /** Clears requestLog. */
  clearRequestLog(): void;
  /**
   * Serves `GET /api/v1/nodes/{node}/proxy/{path}` (kubelet metrics, configz, healthz, pods) from a script.
   * Returning undefined gives the 503 a real apiserver gives when it cannot reach the kubelet.
   */
  setNodeProxy(handler: NodeProxyHandler | undefined): void;
}

export interface NodeProxyAnswer {
  status?: number;
  contentType?: string;
  body: string;
  /**
   * Sends the headers and this many bytes of the body, then stalls until the client gives up (or the
   * stand-in closes): a kubelet whose /metrics collectors block on a hung runtime mid-scrape.
   */
  stallAfterBytes?: number;
}

export type NodeProxyHandler = (node: string, path: string, query: URLSearchParams) => NodeProxyAnswer | undefined | Promise<NodeProxyAnswer | undefined>;

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

interface HistoryEntry {
  rv: number;
  type: WatchEventType;
  /** The serialized object at that resourceVersion. */
  json: string;
}

interface Watcher {
  res: ServerResponse;
  timers: NodeJS.Timeout[];
}

interface ListPage<T> {
  items: T[];
  continueToken?: string;
  remaining?: number;
}

const VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4',
  gitCommit: '59526cd4867447956156ae3a602fcbac10a2c335',
  gitTreeState: 'clean',
  buildDate: '2025-04-22T16:02:27Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const RESOURCES = [
  { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['no'] },
  { name: 'nodes/proxy', singularName: '', namespaced: false, kind: 'NodeProxyOptions', verbs: ['get'] },
  { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['create', 'get', 'list', 'watch'], shortNames: ['ev'] },
  { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list', 'watch'], shortNames: ['po'] },
  { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['get', 'list'], shortNames: ['ns'] },
];

/** Watch events kept for replay (about 12 KB each with realistic nodes). */
const DEFAULT_HISTORY_LIMIT = 2_000;

/** The contract's options plus the stand-in's own tuning. */
export interface StandInOptions extends ApiServerOptions {
  /** Watch events kept for replay; older ones are compacted away (watches from before them get 410). */
  historyLimit?: number;
}

const FORBIDDEN_USER = 'system:serviceaccount:default:pleg-doctor';

function encodeContinue(rv: number, after: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: after })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv?: unknown; start?: unknown };
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string') return { rv: parsed.rv, start: parsed.start };
  } catch {
    // fall through to the error below: a malformed token is the client's fault, not ours
  }
  throw new Error('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

function parseLimit(raw: string | null): number {
  if (raw === null || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`invalid limit "${raw}"`);
  return n;
}

class StandIn implements FakeApiServer, FakeApiServerExtras {
  url = '';
  readonly requestLog: string[] = [];
  private readonly server = createServer((req, res) => this.handle(req, res));
  private auth: AuthMode;
  private rv = 1;
  /** History entries with rv > compactedRv are replayable. */
  private compactedRv = 0;
  private readonly history: HistoryEntry[] = [];
  private readonly nodes = new Map<string, { node: KubeNode; json: string }>();
  private readonly events: KubeEvent[] = [];
  private readonly pods: PodStub[] = [];
  private readonly watchers = new Set<Watcher>();
  private readonly bookmarkIntervalMs: number;
  private readonly historyLimit: number;
  private eventSeq = 0;
  private proxy: NodeProxyHandler | undefined;

  constructor(options: StandInOptions) {
    this.auth = options.auth ?? { kind: 'open' };
    this.historyLimit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT;
    this.bookmarkIntervalMs = options.bookmarkIntervalMs ?? 0;
    for (const node of options.nodes ?? []) this.store(node);
    // Initial objects are not history: a watch from rv 0 sees them as synthetic ADDED events.
    this.history.length = 0;
    this.compactedRv = this.rv;
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${address.port}`;
  }

  get watchCount(): number {
    return this.watchers.size;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  // ---- scripting -------------------------------------------------------------------------------

  upsertNode(node: KubeNode): void {
    const name = node.metadata?.name;
    if (!name) throw new Error('upsertNode: node.metadata.name is required');
    const type: WatchEventType = this.nodes.has(name) ? 'MODIFIED' : 'ADDED';
    const json = this.store(node);
    this.record(type, json);
  }

  deleteNode(name: string): void {
    const entry = this.nodes.get(name);
    if (!entry) return;
    this.nodes.delete(name);
    this.rv++;
    const gone = structuredClone(entry.node);
    gone.metadata = { ...gone.metadata, resourceVersion: String(this.rv) };
    this.record('DELETED', JSON.stringify(gone));
  }

  getNode(name: string): KubeNode | undefined {
    const entry = this.nodes.get(name);
    return entry ? (JSON.parse(entry.json) as KubeNode) : undefined;
  }

  addEvent(event: KubeEvent): void {
    const copy = structuredClone(event);
    this.rv++;
    this.eventSeq++;
    const involved = copy.involvedObject?.name ?? 'unknown';
    copy.metadata = {
      namespace: copy.metadata?.namespace ?? 'default',
      name: copy.metadata?.name ?? `${involved}.${(0x180000000 + this.eventSeq).toString(16)}`,
      uid: copy.metadata?.uid ?? `00000000-0000-4000-8000-${this.eventSeq.toString(16).padStart(12, '0')}`,
      ...copy.metadata,
      resourceVersion: String(this.rv),
    };
    this.events.push(copy);
  }

  addPod(pod: PodStub): void {
    this.pods.push({ ...pod });
    this.rv++;
  }

  dropWatches(options: { midLine?: boolean } = {}): void {
    for (const w of [...this.watchers]) {
      if (options.midLine) w.res.write('{"type":"MODIFIED","object":{"kind":"Node","apiVersion":"v1","metadata":{"name":"');
      this.endWatch(w, true);
    }
  }

  compactHistory(): void {
    this.history.length = 0;
    this.compactedRv = this.rv;
  }

  setAuth(auth: AuthMode): void {
    this.auth = auth;
  }

  clearRequestLog(): void {
    this.requestLog.length = 0;
  }

  setNodeProxy(handler: NodeProxyHandler | undefined): void {
    this.proxy = handler;
  }

  private async serveProxy(res: ServerResponse, node: string, path: string, q: URLSearchParams): Promise<void> {
    let answer: NodeProxyAnswer | undefined;
    try {
      answer = await this.proxy?.(node, path, q);
    } catch (err) {
      answer = { status: 500, contentType: 'text/plain; charset=utf-8', body: `proxy script failed: ${(err as Error).message}` };
    }
    if (!answer) {
      const message = `error trying to reach service: dial tcp ${node}:10250: connect: connection refused`;
      this.sendStatus(res, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 });
      return;
    }
    const body = Buffer.from(answer.body, 'utf8');
    if (answer.stallAfterBytes !== undefined) {
      res.writeHead(answer.status ?? 200, { 'Content-Type': answer.contentType ?? 'text/plain; charset=utf-8' });
      res.write(body.subarray(0, Math.min(answer.stallAfterBytes, body.length)));
      return;
    }
    res.writeHead(answer.status ?? 200, { 'Content-Type': answer.contentType ?? 'text/plain; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  }

  async close(): Promise<void> {
    for (const w of [...this.watchers]) this.endWatch(w, true);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private store(node: KubeNode): string {
    const name = node.metadata?.name ?? '';
    const previous = this.nodes.get(name);
    this.rv++;
    const copy = structuredClone(node);
    copy.kind = 'Node';
    copy.apiVersion = 'v1';
    copy.metadata = {
      uid: previous?.node.metadata?.uid ?? node.metadata?.uid ?? `00000000-0000-4000-9000-${this.rv.toString(16).padStart(12, '0')}`,
      creationTimestamp: previous?.node.metadata?.creationTimestamp ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      ...copy.metadata,
      resourceVersion: String(this.rv),
    };
    const json = JSON.stringify(copy);
    this.nodes.set(name, { node: copy, json });
    return json;
  }

  private record(type: WatchEventType, json: string): void {
    this.history.push({ rv: this.rv, type, json });
    // Compact like etcd does, so that a long-running demo does not grow without bound.
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(0, this.history.length - this.historyLimit);
      const last = dropped[dropped.length - 1];
      if (last) this.compactedRv = last.rv;
    }
    const line = `{"type":"${type}","object":${json}}\n`;
    for (const w of this.watchers) w.res.write(line);
  }

  // ---- HTTP ------------------------------------------------------------------------------------

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.requestLog.push(`${req.method ?? 'GET'} ${url.pathname}${url.search}`);
    try {
      this.route(req, res, url);
    } catch (err) {
      const message = errorText(err);
      this.send(res, 400, badRequest(message));
    }
  }

  private send(res: ServerResponse, code: number, body: unknown): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
    res.end(text);
  }

  private sendStatus(res: ServerResponse, status: StatusBody): void {
    this.send(res, status.code, status);
  }

  /** 401/403 per the auth mode; true when the request may proceed. */
  private authorize(req: IncomingMessage, res: ServerResponse, verb: string, resource: string, extra: { name?: string; namespace?: string } = {}): boolean {
    const auth = this.auth;
    switch (auth.kind) {
      case 'open':
        return true;
      case 'token':
        if (req.headers.authorization === `Bearer ${auth.token}`) return true;
        this.sendStatus(res, unauthorized());
        return false;
      case 'forbid': {
        const denied = auth.rules.some((r) => (r.verb === verb || r.verb === '*') && (r.resource === resource || r.resource === '*'));
        if (!denied) return true;
        this.sendStatus(res, forbidden(FORBIDDEN_USER, verb, resource, extra));
        return false;
      }
    }
  }

  private route(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET') {
      this.sendStatus(res, methodNotAllowed());
      return;
    }
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const q = url.searchParams;
    const watch = q.get('watch') === 'true' || q.get('watch') === '1';
    if (path === '/version') {
      this.send(res, 200, VERSION);
      return;
    }
    if (path === '/api') {
      this.send(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: url.host }] });
      return;
    }
    if (path === '/apis') {
      this.send(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
      return;
    }
    if (path === '/api/v1') {
      this.send(res, 200, { kind: 'APIResourceList', groupVersion: 'v1', resources: RESOURCES });
      return;
    }
    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    }
    if (path === '/api/v1/nodes' || path === '/api/v1/watch/nodes') {
      const isWatch = watch || path === '/api/v1/watch/nodes';
      if (!this.authorize(req, res, isWatch ? 'watch' : 'list', 'nodes')) return;
      if (isWatch) this.watchNodes(req, res, q);
      else this.listNodes(res, q, wantsTable(req.headers.accept));
      return;
    }
    const proxyMatch = /^\/api\/v1\/nodes\/([^/]+)\/proxy(\/.*)?$/.exec(path);
    if (proxyMatch?.[1] !== undefined) {
      const name = decodeURIComponent(proxyMatch[1]).replace(/:\d+$/, '');
      if (!this.authorize(req, res, 'get', 'nodes/proxy', { name })) return;
      if (!this.nodes.has(name)) {
        this.sendStatus(res, notFound('nodes', name));
        return;
      }
      void this.serveProxy(res, name, proxyMatch[2] ?? '/', q);
      return;
    }
    const nodeMatch = /^\/api\/v1\/nodes\/([^/]+)$/.exec(path);
    if (nodeMatch?.[1] !== undefined) {
      const name = decodeURIComponent(nodeMatch[1]);
      if (!this.authorize(req, res, 'get', 'nodes', { name })) return;
      const entry = this.nodes.get(name);
      if (!entry) this.sendStatus(res, notFound('nodes', name));
      else if (wantsTable(req.headers.accept)) this.send(res, 200, nodeTable([entry.node], { resourceVersion: entry.node.metadata?.resourceVersion ?? '' }, q.get('includeObject')));
      else this.send(res, 200, entry.json);
      return;
    }
    const eventsMatch = /^\/api\/v1(?:\/namespaces\/([^/]+))?\/events$/.exec(path);
    if (eventsMatch) {
      const namespace = eventsMatch[1] === undefined ? undefined : decodeURIComponent(eventsMatch[1]);
      if (!this.authorize(req, res, 'list', 'events', namespace === undefined ? {} : { namespace })) return;
      const fields = parseFieldSelector(q.get('fieldSelector'));
      const allowed = ['involvedObject.kind', 'involvedObject.name', 'involvedObject.namespace', 'involvedObject.uid', 'reason', 'type', 'source', 'metadata.name', 'metadata.namespace'];
      const items = this.events.filter((e) => (namespace === undefined || e.metadata?.namespace === namespace) && matchesFields(e, fields, allowed));
      this.sendList(res, 'EventList', items, q, (e) => `${e.metadata?.namespace ?? ''}/${e.metadata?.name ?? ''}`, (e) => JSON.stringify({ kind: 'Event', apiVersion: 'v1', ...e }));
      return;
    }
    const podsMatch = /^\/api\/v1(?:\/namespaces\/([^/]+))?\/pods$/.exec(path);
    if (podsMatch) {
      const namespace = podsMatch[1] === undefined ? undefined : decodeURIComponent(podsMatch[1]);
      if (!this.authorize(req, res, 'list', 'pods', namespace === undefined ? {} : { namespace })) return;
      const fields = parseFieldSelector(q.get('fieldSelector'));
      const allowed = ['spec.nodeName', 'status.phase', 'metadata.name', 'metadata.namespace'];
      const items = this.pods.map(podObject).filter((p) => (namespace === undefined || p.metadata.namespace === namespace) && matchesFields(p, fields, allowed));
      this.sendList(res, 'PodList', items, q, (p) => `${p.metadata.namespace}/${p.metadata.name}`, (p) => JSON.stringify(p));
      return;
    }
    this.sendStatus(res, notFound(''));
  }

  private listNodes(res: ServerResponse, q: URLSearchParams, table: boolean): void {
    const entries = [...this.nodes.entries()].map(([name, e]) => ({ name, json: e.json, node: e.node }));
    if (!table) {
      this.sendList(res, 'NodeList', entries, q, (e) => e.name, (e) => e.json);
      return;
    }
    this.sendList(res, 'NodeList', entries, q, (e) => e.name, (e) => e.json, (page, meta) => nodeTable(page.map((e) => e.node), meta, q.get('includeObject')));
  }

  /** One page of a list, sorted by key as etcd returns it; the continue token remembers the list's RV. */
  private sendList<T>(
    res: ServerResponse,
    kind: string,
    items: T[],
    q: URLSearchParams,
    key: (item: T) => string,
    serialize: (item: T) => string,
    asTable?: (page: T[], meta: Record<string, unknown>) => unknown,
  ): void {
    const limit = parseLimit(q.get('limit'));
    const token = q.get('continue');
    let listRv = this.rv;
    let start: string | undefined;
    if (token) {
      let decoded: { rv: number; start: string };
      try {
        decoded = decodeContinue(token);
      } catch (err) {
        this.sendStatus(res, badRequest((err as Error).message));
        return;
      }
      if (decoded.rv < this.compactedRv) {
        this.sendStatus(res, continueExpired());
        return;
      }
      listRv = decoded.rv;
      start = decoded.start;
    }
    const sorted = items.map((item) => ({ item, k: key(item) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    const from = start === undefined ? sorted : sorted.filter((e) => e.k > start);
    const page: ListPage<{ item: T; k: string }> = { items: limit > 0 ? from.slice(0, limit) : from };
    if (limit > 0 && from.length > limit) {
      const last = page.items[page.items.length - 1];
      if (last) page.continueToken = encodeContinue(listRv, last.k);
      page.remaining = from.length - limit;
    }
    const meta: Record<string, unknown> = { resourceVersion: String(listRv) };
    if (page.continueToken !== undefined) meta['continue'] = page.continueToken;
    if (page.remaining !== undefined) meta['remainingItemCount'] = page.remaining;
    if (asTable) {
      this.send(res, 200, asTable(page.items.map((e) => e.item), meta));
      return;
    }
    const body = `{"kind":"${kind}","apiVersion":"v1","metadata":${JSON.stringify(meta)},"items":[${page.items.map((e) => serialize(e.item)).join(',')}]}`;
    this.send(res, 200, body);
  }

  private watchNodes(req: IncomingMessage, res: ServerResponse, q: URLSearchParams): void {
    const requested = q.get('resourceVersion') ?? '';
    const bookmarks = q.get('allowWatchBookmarks') === 'true';
    const timeoutRaw = q.get('timeoutSeconds');
    const timeoutSeconds = timeoutRaw === null ? 0 : Number(timeoutRaw);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0) {
      this.sendStatus(res, badRequest(`invalid timeoutSeconds "${timeoutRaw ?? ''}"`));
      return;
    }
    let from: number | undefined;
    if (requested !== '' && requested !== '0') {
      from = Number(requested);
      if (!Number.isInteger(from) || from < 0) {
        this.sendStatus(res, badRequest(`invalid resource version "${requested}"`));
        return;
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    if (from !== undefined && from < this.compactedRv) {
      // A real apiserver answers 200 and sends the 410 as an ERROR event, then ends the stream.
      res.end(`${JSON.stringify({ type: 'ERROR', object: expired(requested, this.compactedRv + 1) })}\n`);
      return;
    }
    if (from === undefined) {
      for (const [, entry] of this.nodes) res.write(`{"type":"ADDED","object":${entry.json}}\n`);
    } else {
      for (const h of this.history) if (h.rv > from) res.write(`{"type":"${h.type}","object":${h.json}}\n`);
    }
    const watcher: Watcher = { res, timers: [] };
    this.watchers.add(watcher);
    if (timeoutSeconds > 0) watcher.timers.push(setTimeout(() => this.endWatch(watcher, false), timeoutSeconds * 1000));
    if (bookmarks && this.bookmarkIntervalMs > 0) {
      watcher.timers.push(
        setInterval(() => {
          res.write(`{"type":"BOOKMARK","object":{"kind":"Node","apiVersion":"v1","metadata":{"resourceVersion":"${this.rv}","creationTimestamp":null}}}\n`);
        }, this.bookmarkIntervalMs),
      );
    }
    const cleanup = (): void => this.endWatch(watcher, false);
    req.on('close', cleanup);
    res.on('close', cleanup);
  }

  private endWatch(watcher: Watcher, abrupt: boolean): void {
    if (!this.watchers.delete(watcher)) return;
    for (const t of watcher.timers) clearTimeout(t);
    if (abrupt) watcher.res.socket?.destroy();
    else watcher.res.end();
  }
}

function podObject(pod: PodStub): { kind: string; apiVersion: string; metadata: { name: string; namespace: string }; spec: { nodeName: string }; status: { phase: string } } {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: pod.name, namespace: pod.namespace },
    spec: { nodeName: pod.nodeName },
    status: { phase: pod.phase ?? 'Running' },
  };
}

export async function startFakeApiServer(options: StandInOptions = {}): Promise<FakeApiServer & FakeApiServerExtras> {
  const server = new StandIn(options);
  await server.listen(options.port ?? 0);
  return server;
}

