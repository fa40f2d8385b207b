// Types of what kitTreeCheck.mjs exports, for the TypeScript that calls it (test/integration/realk8s/treeInCodeServer.ts).

export interface ReadyPost {
  atMs: number;
  status: string;
  message: string;
}

export interface RowChange {
  atMs: number;
  description: string;
}

export interface AtRiskChange {
  atMs: number;
  status: string;
}

export function expectedRowWord(post: ReadyPost, atRisk?: boolean): string | undefined;
export function compareRowWithPosts(history: RowChange[], posts: ReadyPost[], options: { boundMs: number; atRisk?: AtRiskChange[] }): { problems: string[]; lines: string[] };
export function prepareKitTree(options: { log: (line: string) => void }): Promise<string>;

export interface KitTreeSession {
  runDir: string;
  /** The workbench page (playwright-core's Page). */
  readonly page: import('playwright-core').Page;
  close(): Promise<void>;
  recording(): Promise<{ history: RowChange[]; ticks: { count: number; lastMs: number } }>;
  waitForRow(pattern: RegExp, timeoutMs: number): Promise<string>;
  hover(accept: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  shot(name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string | undefined>;
  serverLogTail(): string;
}

export function startKitTree(options: {
  vsix: string;
  kubeconfig: string;
  nodeName: string;
  kit: string;
  shotsDir: string;
  log: (line: string) => void;
  readyTimeoutMs?: number;
}): Promise<KitTreeSession>;

export const KIT_TREE_SHOTS: string;
