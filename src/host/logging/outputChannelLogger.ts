// Adapts the single "PLEG Doctor" LogOutputChannel to the core Logger seam, so infra code (gateway, SSH)
// logs into the same channel the user opens with "Show Log". The channel's own level filter applies.

import type * as vscode from 'vscode';
import type { Logger } from '../../core/util/logger';

export function outputChannelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (message, ...args) => channel.trace(message, ...args),
    debug: (message, ...args) => channel.debug(message, ...args),
    info: (message, ...args) => channel.info(message, ...args),
    warn: (message, ...args) => channel.warn(message, ...args),
    error: (message, ...args) => channel.error(message, ...args),
  };
}
