// The host's Localize: vscode.l10n.t, handed to the pure tree code that builds user-facing text.

import * as vscode from 'vscode';
import type { Localize } from '../core/tree/localize';

export const t: Localize = (message, ...args) => vscode.l10n.t(message, ...args);
