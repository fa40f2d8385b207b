// Entry of dist/languageClient.js (vscode-languageclient, about 0.4 MB minified, most of what activation
// used to parse), loaded through loader.ts when the first kubelet-log document opens.

export { LanguageClient, TransportKind } from 'vscode-languageclient/node';
