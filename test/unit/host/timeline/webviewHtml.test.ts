// The panel's HTML shell: the CSP the webview test in Chromium also serves (test/integration/webview).

import type * as vscode from 'vscode';
import { describe, expect, it } from 'vitest';
import { webviewHtml } from '../../../../src/host/timeline/webviewHtml';

const uri = (s: string): vscode.Uri => ({ toString: () => s }) as vscode.Uri;
const html = (): string =>
  webviewHtml({ cspSource: 'https://webview.example' } as vscode.Webview, { title: 'A <b>title</b>', scriptUri: uri('https://webview.example/timeline.js'), styleUris: [uri('https://webview.example/timeline.css')] });

function csp(page: string): Map<string, string[]> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/u.exec(page)?.[1];
  if (content === undefined) throw new Error('no CSP meta tag');
  return new Map(content.split(';').map((d) => d.trim().split(/\s+/u)).map(([name, ...values]) => [name!, values]));
}

describe('webview HTML shell', () => {
  it('sets a strict CSP: nothing by default, scripts only by nonce, no unsafe-inline or unsafe-eval', () => {
    const page = html();
    const policy = csp(page);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    const nonce = /<script nonce="([^"]+)" src=/u.exec(page)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/u);
    expect(policy.get('script-src')).toEqual([`'nonce-${nonce}'`]);
    expect(policy.get('style-src')).toEqual(['https://webview.example', `'nonce-${nonce}'`]);
    expect(page).not.toMatch(/unsafe-inline|unsafe-eval/u);
    // Only the one script, loaded from a file, carries the nonce; no inline script or style in the page.
    expect(page.match(/<script/gu)).toHaveLength(1);
    expect(page).not.toMatch(/<style|style="/u);
  });

  it('makes a fresh nonce for every page and escapes the title', () => {
    const a = /'nonce-([^']+)'/u.exec(html())?.[1];
    const b = /'nonce-([^']+)'/u.exec(html())?.[1];
    expect(a).not.toBe(b);
    expect(html()).toContain('<title>A &#60;b&#62;title&#60;/b&#62;</title>');
  });
});
