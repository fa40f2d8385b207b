// A VS Code theme colour for the canvas charts (uPlot draws on a canvas, which cannot read CSS variables
// itself): the value the webview's body has for `--vscode-…` (light, dark and high-contrast themes each
// set them), or the fallback where the theme does not.

export function themeColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}
