// The device pixel ratio changes under a live page: a zoom in VS Code (the webview's ratio follows the
// window's zoom level) or a move to a screen of another density. Whatever was sized in device pixels
// when a chart was built must follow.

interface RatioQuery {
  addEventListener(type: 'change', listener: () => void, options: { once: boolean }): void;
  removeEventListener(type: 'change', listener: () => void): void;
}

/** What this needs of the window (a stand-in in the unit tests, which run without a DOM). */
export interface RatioWindow {
  readonly devicePixelRatio: number;
  matchMedia(query: string): RatioQuery;
}

/** Calls `changed` after each change of the window's devicePixelRatio, until the returned function is called. */
export function onPixelRatioChange(changed: () => void, win: RatioWindow = globalThis as unknown as RatioWindow): () => void {
  let query: RatioQuery | undefined;
  const fire = (): void => {
    changed();
    listen();
  };
  // A query true at the current ratio only: it turns false, once, when the ratio changes.
  const listen = (): void => {
    query = win.matchMedia(`(resolution: ${win.devicePixelRatio}dppx)`);
    query.addEventListener('change', fire, { once: true });
  };
  listen();
  return () => query?.removeEventListener('change', fire);
}
