// The HTML shell every panel uses: a strict CSP with a fresh nonce, styles and scripts from files only.

import { randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';

export interface WebviewAssets {
  title: string;
  scriptUri: vscode.Uri;
  styleUris: vscode.Uri[];
}

export function webviewHtml(webview: vscode.Webview, assets: WebviewAssets): string {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  const styles = assets.styleUris.map((uri) => `<link rel="stylesheet" nonce="${nonce}" href="${uri.toString()}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${csp}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${escapeHtml(assets.title)}</title>
  </head>
  <body>
    <main id="app"></main>
    <script nonce="${nonce}" src="${assets.scriptUri.toString()}"></script>
  </body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}
